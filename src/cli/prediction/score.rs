//! `protest prediction score GOLD PRED… [--scorer discomt2015|wmt16] [--pair P] [--macro M]
//! [--format F]`: the official scorers' report, or its tables.

use crate::cli::printer::Printer;
use protest::metrics::report::Format;
use protest::prediction::{self, Macro, Pair, Scorer, kind, report, tables};
use protest::shell::Shell;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    /// The gold file: the task's data file with the classes in its first column (plain or .gz).
    gold: PathBuf,
    /// Prediction files (only their first column is read); several are ranked by the official score.
    #[arg(required = true)]
    predictions: Vec<PathBuf>,
    /// The official scorer: discomt2015 (en-fr; coarse and fine, official score the fine macro-F1)
    /// or wmt16 (WMT 2016/17; official score the macro-averaged recall). Default: as the gold is
    /// laid out — discomt2015 for en-fr tokenised text, wmt16 for lemmatised text and the other
    /// pairs.
    #[arg(long)]
    scorer: Option<Scorer>,
    /// Language pair: en-fr, fr-en, en-de, de-en or es-en (default: the one in the gold file's
    /// name, as in TEDdev.en-fr.data).
    #[arg(long)]
    pair: Option<Pair>,
    /// Classes the macro average divides over: all of the pair's (the scorers') or those present
    /// in the gold (the WMT16 findings paper's).
    #[arg(long = "macro", default_value = "all", value_name = "all|present")]
    averaging: Macro,
    /// Output: text (the scorer's report), or the tables as csv, markdown, latex or json.
    #[arg(long, short, default_value = "text")]
    format: Format,
}

pub fn run(args: ScoreArgs, p: &Printer) -> anyhow::Result<()> {
    let task = kind::task_of_file(&args.gold, args.scorer, args.pair, Shell::CommandLine)?;
    protest::progress::stage("Scoring", None);
    let scores = prediction::score_files(task, args.averaging, &args.gold, &args.predictions)?;
    let systems: Vec<(String, prediction::Scores)> =
        args.predictions.iter().map(|p| p.display().to_string()).zip(scores).collect();
    match args.format {
        Format::Text => {
            for (name, scores) in &systems {
                p.out(report::text(scores, name))?;
            }
            if systems.len() > 1 {
                p.out(format_args!("\n{}", Format::Text.render(&tables::ranking(&systems))))?;
            }
        }
        format => p.out(format.render_all(&tables::tables(&systems)))?,
    }
    Ok(())
}
