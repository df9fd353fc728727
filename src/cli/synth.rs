use crate::cli::output_folder::OutputFolder;
use crate::cli::printer::Printer;
use clap::{Args, ValueEnum};
use protest::ingest::synth::{self, Params, Sources};
use protest::store::master_file;
use protest::store::summary::Summary;
use std::path::PathBuf;

/// Sizes relative to the PROTEST suite (250 examples, 8 translations, 2 annotators).
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Preset {
    #[value(name = "1x")]
    One,
    #[value(name = "10x")]
    Ten,
    #[value(name = "100x")]
    Hundred,
}

#[derive(Debug, Args)]
pub struct SynthArgs {
    /// Folder with a tokenised, aligned corpus: the DiscoMT news layout (pronoun-test.tok.*,
    /// mt-output.*, doc-boundaries) or the sample's (news.*).
    #[arg(long, value_name = "DIR")]
    corpus: PathBuf,
    /// Size as a multiple of PROTEST; the options below override parts of it.
    #[arg(long, value_enum, default_value = "1x")]
    preset: Preset,
    /// Number of examples.
    #[arg(long)]
    examples: Option<usize>,
    /// Number of MT systems (the real one plus perturbed copies); the reference comes on top.
    #[arg(long)]
    systems: Option<usize>,
    /// Number of annotators.
    #[arg(long)]
    annotators: Option<usize>,
    /// Share of the candidates each annotator has a record on (0 to 1).
    #[arg(long)]
    coverage: Option<f64>,
    /// Seed of the random choices; the same seed gives the same master.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the master.
    #[arg(long, short, value_name = "FILE")]
    output: PathBuf,
    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
}

pub fn run(args: SynthArgs, p: &Printer) -> anyhow::Result<()> {
    if args.output.exists() && !args.force {
        anyhow::bail!("{} already exists; use --force to replace it", args.output.display());
    }
    let preset = Params::protest(match args.preset {
        Preset::One => 1,
        Preset::Ten => 10,
        Preset::Hundred => 100,
    });
    let params = Params {
        examples: args.examples.unwrap_or(preset.examples),
        systems: args.systems.unwrap_or(preset.systems),
        annotators: args.annotators.unwrap_or(preset.annotators),
        coverage: args.coverage.unwrap_or(preset.coverage),
        seed: args.seed,
    };
    if !(0.0..=1.0).contains(&params.coverage) {
        anyhow::bail!("--coverage must be between 0 and 1");
    }
    let master = synth::generate(&Sources::in_folder(&args.corpus)?, &params)?;
    let folder = OutputFolder::of(p, &args.output)?;
    master_file::save(&master, &args.output)?;
    folder.keep();
    p.say(format_args!("wrote {}", args.output.display()))?;
    p.say(Summary::of(&master))?;
    Ok(())
}
