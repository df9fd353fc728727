//! `protest correlate FILE.csv`: Pearson and Spearman between every pair of numeric columns.

use crate::cli::printer::Printer;
use protest::metrics::correlate::{ScoreTable, report};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct CorrelateArgs {
    /// CSV with a header row; the first column labels the rows, the others are numbers.
    file: PathBuf,
}

pub fn run(args: CorrelateArgs, p: &Printer) -> anyhow::Result<()> {
    let table = ScoreTable::read(&args.file)?;
    p.out(report(&table.correlations()))?;
    Ok(())
}
