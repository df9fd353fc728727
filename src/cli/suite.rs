//! `protest suite import discevalmt FILE -o MASTER`: a master from a public contrastive test
//! suite, evaluated on what systems write rather than on their scores of given translations
//! (docs/suite-format.md, "Public contrastive suites").

use crate::cli::output_folder::OutputFolder;
use crate::cli::printer::Printer;
use anyhow::Context;
use chrono::{DateTime, Utc};
use clap::{Args, Subcommand, ValueEnum};
use protest::ingest::{discevalmt, from_texts};
use protest::store::master_file;
use protest::store::summary::Summary;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct SuiteArgs {
    #[command(subcommand)]
    command: SuiteCommand,
}

#[derive(Debug, Subcommand)]
enum SuiteCommand {
    /// Build a master from a suite's file: a document per block, the pronoun it tests with its
    /// antecedent, the first correct translation as the reference and a system per translation
    /// and label (t1-correct, t1-incorrect, t3-semi-correct…). Blocks that cannot be placed are
    /// listed with the reason.
    Import(ImportArgs),
}

/// The suites `suite import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Suite {
    /// DiscEvalMT's anaphora set (Bawden et al. 2018): its JSON, `anaphora.json`.
    Discevalmt,
}

#[derive(Debug, Args)]
struct ImportArgs {
    /// Which suite the file is.
    #[arg(value_enum)]
    suite: Suite,
    /// The suite's file.
    file: PathBuf,
    /// Where to write the master.
    #[arg(long, short, value_name = "FILE")]
    output: PathBuf,
    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
    /// Master id to use instead of a random one (to rebuild a master identically).
    #[arg(long)]
    id: Option<String>,
    /// Creation time to record instead of now (RFC 3339), to rebuild a master identically.
    #[arg(long)]
    created: Option<DateTime<Utc>>,
}

pub fn run(args: SuiteArgs, p: &Printer) -> anyhow::Result<()> {
    match args.command {
        SuiteCommand::Import(args) => import(args, p),
    }
}

fn import(args: ImportArgs, p: &Printer) -> anyhow::Result<()> {
    if std::fs::symlink_metadata(&args.output).is_ok() && !args.force {
        return Err(protest::Error::Exists { path: args.output.clone() }.into());
    }
    let id = args.id.unwrap_or_else(from_texts::new_master_id);
    let imported = match args.suite {
        Suite::Discevalmt => discevalmt::import(&args.file, id, args.created.unwrap_or_else(Utc::now))?,
    };
    let folder = OutputFolder::of(p, &args.output)?;
    master_file::save(&imported.master, &args.output).with_context(|| "could not write the master")?;
    folder.keep();
    for u in &imported.unplaced {
        p.warn(format_args!("{}: block {} left out: {}", args.file.display(), u.block, u.reason));
    }
    let placed = match imported.master.examples.len() {
        1 => "1 block placed".to_owned(),
        n => format!("{n} blocks placed"),
    };
    p.say(format_args!("wrote {} ({placed}, {} left out)", args.output.display(), imported.unplaced.len()))?;
    p.say(Summary::of(&imported.master))
}
