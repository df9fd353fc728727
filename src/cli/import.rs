use crate::cli::options::created;
use crate::cli::output_folder::OutputFolder;
use crate::cli::printer::Printer;
use anyhow::Context;
use chrono::{DateTime, Utc};
use clap::Args;
use protest::ingest::from_texts::{self, Inputs, TranslationInput};
use protest::ingest::texts::{OutOfRange, PairOrder};
use protest::model::Languages;
use protest::store::master_file;
use protest::store::summary::Summary;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Tokenised source text, one sentence per line.
    #[arg(long, value_name = "FILE")]
    source: PathBuf,
    /// The human reference translation and its alignment to the source (Moses i-j, 0-based).
    #[arg(long, num_args = 2, value_names = ["TEXT", "ALIGNMENT"])]
    reference: Option<Vec<PathBuf>>,
    /// An MT system's output, named, with its alignment to the source. Repeat for each system.
    #[arg(long = "system", num_args = 3, value_names = ["NAME", "TEXT", "ALIGNMENT"], action = clap::ArgAction::Append)]
    systems: Vec<String>,
    /// Document starts: 0-based sentence numbers, one per line. Without it, one document.
    #[arg(long, value_name = "FILE")]
    documents: Option<PathBuf>,
    /// The test-suite definition (see docs/suite-format.md).
    #[arg(long, value_name = "FILE")]
    suite: PathBuf,
    /// Where to write the master.
    #[arg(long, short, value_name = "FILE")]
    output: PathBuf,
    /// Name of the reference corpus.
    #[arg(long, default_value = "reference")]
    reference_name: String,
    #[arg(long, default_value = "en")]
    source_language: String,
    #[arg(long, default_value = "fr")]
    target_language: String,
    /// Free-text description stored in the master.
    #[arg(long, default_value = "")]
    description: String,
    /// Master id to use instead of a random one (to rebuild a master identically).
    #[arg(long)]
    id: Option<String>,
    /// Creation time to record instead of now (RFC 3339), to rebuild a master identically.
    #[arg(long)]
    created: Option<DateTime<Utc>>,
    /// Every alignment file writes its pairs target index first (`j-i`).
    #[arg(long)]
    reversed: bool,
    /// Leave out alignment pairs that point outside their sentences (saying how many, on which
    /// lines) instead of refusing the files: the DiscoMT news corpus's MT alignment has 40.
    #[arg(long)]
    drop_bad_links: bool,
    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
}

pub fn run(args: ImportArgs, p: &Printer) -> anyhow::Result<()> {
    if args.output.exists() && !args.force {
        anyhow::bail!("{} already exists; use --force to replace it", args.output.display());
    }
    let reference = args.reference.map(|v| TranslationInput {
        name: args.reference_name.clone(),
        text: v[0].clone(),
        alignment: v[1].clone(),
    });
    let systems = args
        .systems
        .chunks(3)
        .map(|c| TranslationInput { name: c[0].clone(), text: c[1].clone().into(), alignment: c[2].clone().into() })
        .collect();
    let inputs = Inputs {
        source: args.source,
        reference,
        systems,
        documents: args.documents,
        suite: args.suite,
        languages: Languages { source: args.source_language, target: args.target_language },
        description: args.description,
        order: if args.reversed { PairOrder::TargetSource } else { PairOrder::SourceTarget },
        out_of_range: if args.drop_bad_links { OutOfRange::Drop } else { OutOfRange::Refuse },
    };
    let id = args.id.unwrap_or_else(from_texts::new_master_id);
    let imported = from_texts::import(&inputs, id, created(args.created)?)?;
    let folder = OutputFolder::of(p, &args.output)?;
    master_file::save(&imported.master, &args.output).with_context(|| "could not write the master")?;
    folder.keep();
    for line in &imported.dropped {
        p.say(format_args!("{line}"))?;
    }
    p.say(format_args!("wrote {}", args.output.display()))?;
    p.say(Summary::of(&imported.master))?;
    Ok(())
}
