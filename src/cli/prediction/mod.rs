//! `protest prediction …`: the cross-lingual pronoun prediction task (DiscoMT 2015, WMT 2016/17;
//! docs/pronoun-prediction.md) — official scores, the language-model baseline, and a
//! classifier's predictions to and from a master.

use crate::cli::printer::Printer;
mod baseline;
mod extract;
mod import;
mod lm;
mod score;
mod unmappable;

use clap::{Args, Subcommand};

#[derive(Debug, Args)]
pub struct PredictionArgs {
    #[command(subcommand)]
    command: PredictionCommand,
}

#[derive(Debug, Subcommand)]
enum PredictionCommand {
    /// Score prediction files against a gold file as the official scorer does (same report text
    /// and refusals); several files are ranked by the official score.
    Score(score::ScoreArgs),
    /// Write a master's examples as a prediction test set: the reference with placeholders.
    Extract(extract::ExtractArgs),
    /// Bring a classifier's predictions for an extracted set back into the master as a system.
    Import(import::ImportArgs),
    /// The shared tasks' language-model baseline: fill each line's placeholders with the
    /// candidates the model finds most probable; --tune chooses the NONE penalty on a dev file.
    Baseline(baseline::BaselineArgs),
    /// Estimate an interpolated modified Kneser–Ney language model from text, as KenLM's lmplz
    /// does, and write it in the ARPA format.
    TrainLm(lm::TrainLmArgs),
    /// Print each line's log10 probability (with sentence start and end) under an ARPA language
    /// model, as KenLM's query totals it: one number a line.
    LmScore(lm::LmScoreArgs),
}

pub fn run(args: PredictionArgs, p: &Printer) -> anyhow::Result<()> {
    match args.command {
        PredictionCommand::Score(args) => score::run(args, p),
        PredictionCommand::Extract(args) => extract::run(args, p),
        PredictionCommand::Import(args) => import::run(args, p),
        PredictionCommand::Baseline(args) => baseline::run(args, p),
        PredictionCommand::TrainLm(args) => lm::run_train(args, p),
        PredictionCommand::LmScore(args) => lm::run_score(args, p),
    }
}
