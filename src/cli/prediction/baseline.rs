//! `protest prediction baseline DATA --lm MODEL [--none-penalty P] [--tune DEV] [-o OUT]`: the
//! shared tasks' language-model baseline.

use super::lm::{check_output, read_model};
use crate::cli::printer::Printer;
use protest::prediction::baseline::{self, Baseline, Fillers};
use protest::prediction::{DataSet, Pair, Scorer, data, kind};
use protest::shell::Shell;
use protest::store::disk;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct BaselineArgs {
    /// The data file whose placeholders to fill (plain or .gz); its classes, if any, are not read.
    data: PathBuf,
    /// The language model of the target language, in the ARPA format (plain or .gz).
    #[arg(long, value_name = "MODEL")]
    lm: PathBuf,
    /// Added to the log10 probability of a sentence for each placeholder left empty (NONE).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true, value_name = "P")]
    none_penalty: f32,
    /// Choose the NONE penalty by a grid search from 0 to −4 in steps of 0.5 on this development
    /// file (with its classes), by the official score; prints each step's score.
    #[arg(long, value_name = "DEV", conflicts_with = "none_penalty")]
    tune: Option<PathBuf>,
    /// Where to write the predictions, in the task's layout (default: standard output).
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long, requires = "output")]
    force: bool,
    /// The scorer whose classes to predict (default: as DATA is laid out — discomt2015 for en-fr
    /// tokenised text, wmt16 for lemmatised text and the other pairs).
    #[arg(long)]
    scorer: Option<Scorer>,
    /// Language pair: en-fr, fr-en, en-de, de-en or es-en (default: the one in DATA's name, as in
    /// TEDdev.en-fr.data).
    #[arg(long)]
    pair: Option<Pair>,
    /// The candidate words besides the pronouns, separated by spaces (default: the reference
    /// baseline's for French; for other targets the 20 words most often removed at placeholders
    /// of class OTHER in the development file, or in DATA).
    #[arg(long, value_name = "WORDS")]
    other_words: Option<String>,
}

pub fn run(args: BaselineArgs, p: &Printer) -> anyhow::Result<()> {
    let task = kind::task_of_file(&args.data, args.scorer, args.pair, Shell::CommandLine)?;
    let scorer = task.scorer;
    if let Some(output) = &args.output {
        let inputs = [Some(&args.data), Some(&args.lm), args.tune.as_ref()];
        check_output(output, &inputs.iter().flatten().map(|p| p.as_path()).collect::<Vec<_>>(), args.force)?;
    }
    protest::progress::stage("Reading the data", None);
    let set = DataSet::read(&args.data)?;
    let dev = args.tune.as_deref().map(DataSet::read).transpose()?;
    let model = read_model(p, &args.lm)?;
    let others: Option<Vec<String>> = match (&args.other_words, &dev) {
        (Some(words), _) => Some(words.split_whitespace().map(String::from).collect()),
        (None, _) if Fillers::has_built_in_others(task) => None,
        (None, from) => {
            let from = from.as_ref().unwrap_or(&set);
            let words = baseline::frequent_other_words(task, &from.lines);
            p.note(format_args!(
                "other candidate words (most often removed in {}): {}",
                from.path.display(),
                words.join(" ")
            ));
            Some(words)
        }
    };
    let fillers = Fillers::for_task(task, others.as_deref());
    // The WMT 2016/17 data is lemmatised with tags (`lemma|TAG`); the model knows the lemmas.
    let strip_tags = scorer == Scorer::Wmt16;
    let penalty = match &dev {
        None => args.none_penalty,
        Some(dev) => {
            protest::progress::stage("Tuning the NONE penalty", Some(baseline::TUNING_GRID.len() as u64));
            let steps = baseline::tune(&model, &fillers, task, strip_tags, dev)?;
            let best = baseline::best(&steps).expect("the grid is not empty");
            let mut table =
                format!("NONE penalty on {} (official score: {}):\n", dev.path.display(), scorer.official_measure());
            table += "penalty  official  accuracy";
            for step in &steps {
                let mark = if std::ptr::eq(step, best) { "  best" } else { "" };
                let (official, accuracy) = (step.scores.official(), step.scores.accuracy());
                table += &format!("\n{:>7}  {official:>8.2}  {accuracy:>8.2}{mark}", step.penalty);
            }
            // On standard output unless the predictions go there.
            match args.output {
                Some(_) => p.out_line(table)?,
                None => p.note(table),
            }
            best.penalty
        }
    };
    protest::progress::stage("Filling the placeholders", None);
    let baseline = Baseline::new(&model, &fillers, penalty, strip_tags);
    let seen = baseline.seen(&set.lines);
    if seen.memorised() {
        p.warn(format_args!(
            "{}: {} of its {} sentences are in the language model word for word (every {}-gram outside the \
             placeholders): the model was most likely trained on this text, and fills the placeholders from \
             memory, so the predictions score far higher than on text the model has not seen; train it on other text",
            args.data.display(),
            seen.whole,
            seen.lines,
            model.order()
        ));
    }
    let predicted = baseline.predict(&set.lines);
    match &args.output {
        Some(output) => {
            data::write(&disk::Os, output, &predicted, None)?;
            p.note(format_args!(
                "{}: {} placeholders filled with NONE penalty {penalty}",
                output.display(),
                predicted.iter().map(|l| l.labels.len()).sum::<usize>()
            ));
        }
        None => {
            let mut out = std::io::BufWriter::new(p.stdout());
            for line in &predicted {
                writeln!(out, "{}", line.to_line())?;
            }
            out.flush()?;
        }
    }
    Ok(())
}
