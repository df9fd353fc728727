//! `protest apt-master MASTER [--annotator WHO] [--format F]`: APT of every translation of a
//! master and its comparison with the human judgements — the tables `apt`, `apt-categories`,
//! `apt-vs-human` and `metric-correlation` of `protest report`, or with `--annotator` the same
//! against one annotator's own judgements.

use crate::cli::masters::read_master;
use crate::cli::options::format_parser;
use crate::cli::output_folder::OutputFolder;
use crate::cli::printer::Printer;
use anyhow::Context;
use protest::batches::annotators;
use protest::metrics::report::Format;
use protest::metrics::report::metrics::{self, Judges};
use protest::model::{AnnotatorId, CorpusRole, Master};
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct AptMasterArgs {
    /// The master file.
    master: PathBuf,
    /// Compare with this annotator's own pronoun judgements (a name, or an id; 0 = the
    /// researcher) instead of the verdict the reports use.
    #[arg(long, value_name = "WHO")]
    annotator: Option<String>,
    /// Output format: text, csv, markdown, latex or json (one document with every table).
    #[arg(long, short, default_value = "text", value_parser = format_parser())]
    format: Format,
    /// Instead of the tables, write into DIR a `protest apt` configuration per MT system
    /// (NAME.ini with its texts, alignments and lists) that gives the same cases; DIR is created
    /// if it is not there.
    #[arg(long, value_name = "DIR")]
    write_config: Option<PathBuf>,
}

impl AptMasterArgs {
    /// Whether stdout holds a JSON document ([`Printer`]).
    pub fn prints_json(&self) -> bool {
        self.format == Format::Json && self.write_config.is_none()
    }
}

pub fn run(args: AptMasterArgs, p: &Printer) -> anyhow::Result<()> {
    let master = read_master(p, &args.master)?;
    if let Some(dir) = &args.write_config {
        let folder = OutputFolder::make(p, dir)?;
        for system in master.corpora.iter().filter(|c| c.role == CorpusRole::System) {
            let config = protest::workflow::metrics::apt_config(&master, system.id, dir)
                .with_context(|| format!("{}: '{}'", args.master.display(), system.name))?;
            p.say(format_args!("{}: protest apt {}", system.name, config.display()))?;
        }
        folder.keep();
        return Ok(());
    }
    let judges = match &args.annotator {
        None => Judges::Verdicts,
        Some(who) => Judges::Annotator(annotator(&master, &args.master, who)?),
    };
    if master.reference().is_none() {
        p.warn(format_args!("{}: no reference translation; every candidate is case 5 or 6", args.master.display()));
    }
    protest::progress::stage("Scoring APT", None);
    let tables = metrics::metrics(&master, judges).tables();
    p.out(args.format.render_all(&tables))?;
    Ok(())
}

/// The annotator named `who`, or numbered: 0 is the researcher, others must be in the master.
fn annotator(master: &Master, path: &Path, who: &str) -> anyhow::Result<AnnotatorId> {
    if let Some(a) = annotators::find(master, who) {
        return Ok(a.id);
    }
    let id = who.trim().parse().ok().map(AnnotatorId);
    if let Some(id) = id.filter(|&id| id.is_researcher() || master.annotator(id).is_some()) {
        return Ok(id);
    }
    let names: Vec<&str> = master.annotators.iter().map(|a| a.name.as_str()).collect();
    let known = if names.is_empty() { "none but the researcher (0)".to_owned() } else { names.join(", ") };
    anyhow::bail!("{}: no annotator '{who}' (annotators: {known})", path.display())
}
