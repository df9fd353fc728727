use crate::cli::masters::with_master;
use crate::cli::printer::Printer;
use clap::{Args, ValueEnum};
use protest::ingest::add_system::{self, AlignmentFile, Options, ParallelText};
use protest::ingest::align::bridge::Through;
use protest::ingest::resegment::Given;
use protest::ingest::texts::{OutOfRange, PairOrder};
use protest::store::master_file;
use protest::workflow;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, Args)]
pub struct AddSystemArgs {
    /// The master to add the system to. It is changed in place (atomically) only when
    /// everything checks out.
    master: PathBuf,
    /// The system's output: a text file with one line per source sentence, or the master's
    /// documents in its order separated by one empty line each, each in any line layout (a
    /// paragraph per line, a sentence per line, anything between); or a folder with one text file
    /// per document, read in name order (numbers as numbers: doc2 before doc10), in which empty
    /// lines separate paragraphs. It is cut into one translation per source sentence and checked
    /// line by line; how is printed (docs/alignment.md, "Document-level output").
    output: PathBuf,
    /// Name of the new corpus; must not be in use in the master.
    #[arg(long)]
    name: String,
    /// Source↔output word alignment from an external aligner: Pharaoh/Moses `i-j` pairs (fast_align,
    /// eflomal, awesome-align), one line per sentence. Without it the built-in aligner is used.
    #[arg(long, value_name = "FILE")]
    alignment: Option<PathBuf>,
    /// The alignment file writes each pair target index first (`j-i`).
    #[arg(long, requires = "alignment")]
    reversed: bool,
    /// Leave out pairs of the alignment file that point outside their sentences (saying how
    /// many, on which lines) instead of refusing it.
    #[arg(long, requires = "alignment")]
    drop_bad_links: bool,
    /// The output is already tokenised like the master's corpora; otherwise it is tokenised
    /// (docs/tokenisation.md).
    #[arg(long)]
    tokenised: bool,
    /// The output has one line per document (as some document-level pipelines write), in the
    /// master's document order.
    #[arg(long)]
    one_document_per_line: bool,
    /// Which translations of the master to align the output through (docs/alignment.md):
    /// `nearest`, each sentence through the nearest translation whose alignment was given (the
    /// reference on a tie); `reference`, the reference only; `none`, the built-in aligner alone.
    #[arg(long, value_enum, default_value_t = Bridge::Nearest, conflicts_with = "alignment")]
    bridge: Bridge,
    /// Add the system even if its output has no text (every translation empty); without this an
    /// output with no text is refused.
    #[arg(long)]
    allow_empty: bool,
    /// More parallel text (source and target files, one sentence per line) for the built-in
    /// aligner to learn from.
    #[arg(long, num_args = 2, value_names = ["SRC", "TGT"], conflicts_with = "alignment")]
    extra_parallel: Option<Vec<PathBuf>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Bridge {
    Nearest,
    Reference,
    None,
}

pub fn run(args: AddSystemArgs, p: &Printer) -> anyhow::Result<()> {
    // Everything that can fail on the inputs happens before the master is opened for writing.
    let master = master_file::load(&args.master)?;
    let options = Options {
        tokenised: args.tokenised,
        alignment: args.alignment.map(|path| AlignmentFile {
            path,
            order: if args.reversed { PairOrder::TargetSource } else { PairOrder::SourceTarget },
        }),
        extra_parallel: args.extra_parallel.map(|p| ParallelText { source: p[0].clone(), target: p[1].clone() }),
        out_of_range: if args.drop_bad_links { OutOfRange::Drop } else { OutOfRange::Refuse },
        layout: if args.one_document_per_line { Given::DocumentPerLine } else { Given::Detect },
        bridge: match args.bridge {
            Bridge::Nearest => Through::Nearest,
            Bridge::Reference => Through::Reference,
            Bridge::None => Through::Nothing,
        },
        allow_empty: args.allow_empty,
        ..Options::default()
    };
    let started = Instant::now();
    let system = add_system::prepare_file(&master, &args.name, &args.output, &options)?;
    let seconds = started.elapsed().as_secs_f64();

    let report = system.report();
    let corpus = with_master(p, &args.master, |store| Ok(workflow::add_system::run(store, system)?))?;

    p.say(format_args!("added system '{}' to {} as corpus {corpus}", args.name, args.master.display()))?;
    for line in report.lines(seconds) {
        p.say(format_args!("  {line}"))?;
    }
    Ok(())
}
