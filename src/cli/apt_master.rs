//! `protest apt-master MASTER [--annotator ID]`: APT of every translation of a master, and with an
//! annotator, APT against that annotator's judgements (paper 003 Tables 1–3).

use protest::apt::human::{self, agreement};
use protest::apt::{Preset, evaluate_master};
use protest::correlate;
use protest::master_file;
use protest::model::AnnotatorId;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct AptMasterArgs {
    /// The master file.
    master: PathBuf,
    /// Compare with this annotator's pronoun judgements (0 = the researcher).
    #[arg(long, value_name = "ID")]
    annotator: Option<u32>,
}

pub fn run(args: AptMasterArgs) -> anyhow::Result<()> {
    let master = master_file::load(&args.master)?;
    if master.reference().is_none() {
        eprintln!("warning: {}: no reference translation; every candidate is case 5 or 6", args.master.display());
    }
    let apt = evaluate_master(&master, &Preset::french());
    print!("{}", apt.to_text(&master));
    let Some(annotator) = args.annotator.map(AnnotatorId) else { return Ok(()) };
    let verdict = |candidate| master.records.get(candidate, annotator).map(|r| r.pronoun);
    println!(
        "\nAPT against {}'s pronoun judgements (MT systems; APT cases 1–3, judged yes/no)",
        master.annotator_name(annotator)
    );
    print!("{}", agreement(&master, &apt, verdict).to_text(&master));
    let scores = human::system_scores(&apt, verdict);
    println!("\nsystem scores: APT-A, APT-B, human (share judged correct)");
    for s in &scores {
        println!("{}: {:.3} {:.3} {:.3}", s.name, s.apt_a, s.apt_b, s.human);
    }
    print!("\n{}", correlate::report(&human::correlations(&scores)));
    Ok(())
}
