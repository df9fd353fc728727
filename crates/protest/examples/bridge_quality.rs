//! The held-out checks of aligning a new system through the reference (docs/alignment.md,
//! "Aligning through the reference"), each against what is known to be right:
//!
//! (a) an exact copy of the reference, added as a system, matches the reference on every example
//!     whose reference translation serves as a reference — on the bundled sample (one line per
//!     sentence, and as paragraphs) and on a synthetic 1× master of the DiscoMT news corpus;
//! (b) the reference lightly edited (words changed away from the pronoun, sentences run together
//!     and cut, re-segmented) keeps its pronoun and antecedent-head links;
//! (c) the news corpus's MT output, added to a master of the source and the reference, is aligned
//!     so that the automatic match reads its `it` / `they` as it reads them with the MT output's
//!     own (shipped, never looked at) alignment;
//! (d) on the sample with both annotated batches merged, copies of the reference and of the MT
//!     output added through the reference: their matches against people's verdicts on the
//!     translations they copy.
//!
//!     cargo run --release --example bridge_quality -- [DATA_DIR] [--seeds N]
//!
//! DATA_DIR defaults to the nearest `shared/data/discomt-news-en-fr` above the current folder
//! (without it, only the sample's checks run); `--seeds N` edits the reference with seeds 1..=N
//! (default 5).

use protest::batches::merge::{self, Incoming};
use protest::ingest::add_system::{self, Options, Output};
use protest::ingest::align::bridge::held_out::{self, Edits};
use protest::ingest::align::bridge::{self, Through};
use protest::ingest::align::quality::{self, Side};
use protest::ingest::resegment::Given;
use protest::ingest::synth::{self, Params, Sources};
use protest::ingest::texts;
use protest::metrics::auto_eval;
use protest::model::alignment::Links;
use protest::model::{CorpusId, CorpusRole, Master, MatchRule};
use protest::store::{batch_file, master_file};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[allow(dead_code)]
mod common;
use common::{Result, lines};

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut data, mut seeds) = (None, 5);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seeds" => seeds = args.next().and_then(|n| n.parse().ok()).unwrap_or(5),
            _ => data = Some(PathBuf::from(arg)),
        }
    }
    let sample = load(protest::sample::MASTER)?;
    let data = common::data_dir(data).ok();
    let news = data.as_deref().map(news_synth).transpose()?;
    exact_copies(&sample, data.as_deref().zip(news.as_ref()))?;
    edited_copies(&sample, news.as_ref(), seeds)?;
    if let Some(data) = &data {
        mt_agreement(data)?;
    }
    verdicts(sample)
}

/// Aligning through the reference, and (to compare) by the built-in aligner alone.
fn ways() -> [(&'static str, Options); 2] {
    let alone = Options { bridge: Through::Nothing, ..Options::default() };
    [("through the reference", Options::default()), ("the built-in aligner alone", alone)]
}

/// (a): an exact copy of the reference, on the sample and on the news synthetic master.
fn exact_copies(sample: &Master, news: Option<(&Path, &Master)>) -> Result<()> {
    println!("(a) an exact copy of the reference: examples matched of those with a reference");
    let reference = sample.reference().and_then(|c| c.sentences.as_slice()).ok_or("no reference")?.to_vec();
    let layouts =
        [("one line per sentence", reference.clone()), ("as paragraphs", held_out::paragraphs(sample, &reference))];
    for (layout, text) in layouts {
        for (way, options) in ways() {
            let (master, copy) = add(sample, "copy", &text, &options)?;
            report_settled(&format!("sample, {layout}, {way}"), &master, copy);
        }
    }
    if let Some((data, news)) = news {
        let copy = lines(&data.join("pronoun-test.tok.fr"))?;
        for (way, options) in ways() {
            let (master, id) = add(news, "copy", &copy, &options)?;
            report_settled(&format!("news, synthetic 1× master, {way}"), &master, id);
        }
    }
    Ok(())
}

/// (b): the reference edited with seeds 1..=`seeds`, on the sample and the news synthetic master.
fn edited_copies(sample: &Master, news: Option<&Master>, seeds: u64) -> Result<()> {
    println!("\n(b) the reference edited (words away from the pronouns, sentences run together and cut):");
    println!("    pronoun and antecedent-head links kept, per seed");
    for (name, master) in [("sample", Some(sample)), ("news, synthetic 1×", news)] {
        let Some(master) = master else { continue };
        for seed in 1..=seeds {
            let edits = Edits { seed, ..Edits::default() };
            let edited = held_out::edit_reference(master, &edits).ok_or("no reference")?;
            for (way, options) in ways() {
                let options = Options { tokenised: true, ..options };
                let (added, id) = add(master, "edited", &edited.lines, &options)?;
                let k = held_out::kept(&added, id, &edited);
                println!(
                    "  {name:<20} seed {seed}, {way:<26}: {:.1} % — pronouns {} of {}, heads {} of {}",
                    100.0 * k.share(),
                    k.pronouns_right,
                    k.pronouns,
                    k.heads_right,
                    k.heads
                );
            }
        }
    }
    Ok(())
}

/// (d): the merged sample with copies of the reference and the MT output added through the
/// reference, their matches judged by people's verdicts on what they copy.
fn verdicts(sample: Master) -> Result<()> {
    println!("\n(d) the merged sample: copies added through the reference, judged by people's verdicts");
    let merged = merged_sample(sample)?;
    let reference = merged.reference().and_then(|c| c.sentences.as_slice()).ok_or("no reference")?.to_vec();
    let through_reference = Options { bridge: Through::Reference, ..Options::default() };
    let mt = merged.corpora.iter().find(|c| c.role == CorpusRole::System).ok_or("no MT system")?;
    let (mt_id, mt_text) = (mt.id, mt.sentences.as_slice().ok_or("no MT text")?.to_vec());
    let (with_copy, copy) = add(&merged, "reference-copy", &reference, &through_reference)?;
    let (mut both, mt_copy) = add(&with_copy, "mt-copy", &mt_text, &through_reference)?;
    both.auto_eval = match_alone(&both);
    let reference_id = both.reference().map(|c| c.id).ok_or("no reference")?;
    for (name, system, judged) in [("reference-copy", copy, reference_id), ("mt-copy", mt_copy, mt_id)] {
        let p = held_out::precision_through(&both, system, judged);
        println!("  {name:<16} judged ✗: {} of {} matches with a verdict", p.judged_incorrect, p.matches_with_verdict);
    }
    let own = auto_eval::Precision::of(&both);
    println!(
        "  the master's own judged ✗: {} of {} matches with a verdict",
        own.judged_incorrect, own.matches_with_verdict
    );
    Ok(())
}

/// A round of the reference match alone: what an alignment is measured by (the agreement judge
/// would turn a match it disagrees with into a contradicted one, a fact about the translation).
fn match_alone(master: &Master) -> protest::model::AutoEval {
    auto_eval::run_with(master, master.created, auto_eval::Judges { agreement: false })
}

fn load((name, bytes): (&str, &[u8])) -> Result<Master> {
    Ok(master_file::from_bytes(Path::new(name), bytes)?)
}

/// `master` with `text` added as system `name`, and the new corpus's id.
fn add(master: &Master, name: &str, text: &[String], options: &Options) -> Result<(Master, CorpusId)> {
    let started = Instant::now();
    let output = Output::file(Path::new(name), text);
    let system = add_system::prepare(master, name, output, options)?;
    let mut added = master.clone();
    let id = system.add_to(&mut added)?;
    added.auto_eval = match_alone(&added);
    eprintln!("  ({name}: added in {:.1} s)", started.elapsed().as_secs_f64());
    Ok((added, id))
}

fn report_settled(label: &str, master: &Master, copy: CorpusId) {
    let s = held_out::settled(master, copy);
    let missed = if s.missed.is_empty() {
        String::new()
    } else {
        let first: Vec<u32> = s.missed.iter().take(8).map(|e| e.0).collect();
        format!(" — missed: {} examples ({first:?} …)", s.missed.len())
    };
    println!("  {label:<62} {} of {}{missed}", s.matched, s.with_reference);
}

/// `protest synth --preset 1x` of the news corpus.
fn news_synth(data: &Path) -> Result<Master> {
    Ok(synth::generate(&Sources::in_folder(data)?, &Params::protest(1))?)
}

/// (c): the MT output added to a master of the source and the reference (no MT system), one line
/// per sentence, compared with its shipped alignment on every source it / they.
fn mt_agreement(data: &Path) -> Result<()> {
    let mut master = news_synth(data)?;
    master.corpora.retain(|c| c.role != CorpusRole::System);
    master.records = Default::default();
    master.candidates.retain(|c| c.corpus == CorpusId(1));
    master.reindex();
    let source = lines(&data.join("pronoun-test.tok.en"))?;
    let reference = lines(&data.join("pronoun-test.tok.fr"))?;
    let mt = lines(&data.join("mt-output.fr"))?;
    let options = Options { tokenised: true, layout: Given::Detect, ..Options::default() };
    let (added, id) = add(&master, "mt", &mt, &options)?;
    let corpus = added.corpus(id).ok_or("the new system")?;
    let ours: Vec<Links> = corpus.alignment.as_ref().ok_or("no alignment")?.sentences().map(<[_]>::to_vec).collect();
    let stored = corpus.sentences.as_slice().ok_or("no sentences")?;
    let (given, _) = texts::read_alignment_lenient(&data.join("mt-output.en-fr.alig"), &source, &mt)?;
    let (shipped_reference, _) =
        texts::read_alignment_lenient(&data.join("pronoun-test.tok.en-fr.alig"), &source, &reference)?;
    let pronouns = quality::places(&source, |w| matches!(w, "it" | "they"));
    let same_text = pronouns.iter().filter(|&&(s, _)| stored[s] == mt[s]).count();
    println!("\n(c) the news MT output through the reference, against its own shipped alignment");
    println!("    ({} it/they; {same_text} in sentences stored as given)", pronouns.len());
    let reference_side = Side { target: &reference, links: &shipped_reference };
    for rule in MatchRule::ALL {
        let a = quality::match_agreement(
            &Side { target: stored, links: &ours },
            &Side { target: &mt, links: &given },
            &reference_side,
            &pronouns,
            rule,
        );
        let pc = |k: usize| format!("{:.1} %", 100.0 * k as f64 / a.pronouns as f64);
        println!(
            "  {:<15} same aligned set {}, same compared words {}, same outcome {} ({} differ, {} with one side \
             unaligned), same match-or-not {}",
            rule.name(),
            pc(a.same_set),
            pc(a.same_words),
            pc(a.same_outcome),
            a.pronouns - a.same_outcome,
            a.one_side_empty,
            pc(a.same_settled)
        );
    }
    let origins = corpus.link_origins.as_ref().ok_or("no link origins")?;
    let through = bridge::Summary::of(origins, &bridge::bridges(&master, Through::Nearest));
    println!(
        "    {} of {} sentences through the reference; {} links carried, {} by the aligner",
        through.sentences(),
        stored.len(),
        through.carried,
        through.aligned
    );
    Ok(())
}

/// The sample with Anna's and Ben's batches merged, as sample_batches/README.md does.
fn merged_sample(mut master: Master) -> Result<Master> {
    let incoming = protest::sample::BATCHES
        .iter()
        .map(|&(name, bytes)| {
            Ok(Incoming { path: PathBuf::from(name), batch: batch_file::from_bytes(Path::new(name), bytes)? })
        })
        .collect::<Result<Vec<_>>>()?;
    let merge = merge::prepare(&master, &incoming)?;
    merge::apply(&mut master, &merge);
    Ok(master)
}
