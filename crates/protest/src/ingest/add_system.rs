//! Evaluating a new MT system: its output is added to an existing master as a new translation
//! corpus with one candidate per example. The output is tokenised into the master's conventions
//! unless it already is, cut into one translation per source sentence whatever its line layout
//! ([`resegment`]: one line per sentence is checked, documents as paragraphs are segmented), and
//! word-aligned to the source unless an external aligner's file is given: through the reference
//! (or the nearest translation already aligned, [`align::bridge`]), the built-in aligner filling in
//! what the bridge leaves unaligned.
//! Nothing that is already in the master changes.
//!
//! [`add_system`] is the one entry point for the command line and the GUI. It works in two steps
//! that callers may also use apart: [`prepare`] does everything that can fail on the user's
//! input (and the slow alignment) without touching the master; [`NewSystem::add_to`] then adds
//! the result, e.g. inside [`crate::store::Store::update`].

use crate::error::{Error, Result};
use crate::ingest::align::bridge::{self, Through};
use crate::ingest::align::{self, Aligner};
use crate::ingest::from_texts;
use crate::ingest::resegment::{self, Given, Resegmented, Texts};
use crate::ingest::system_output;
use crate::ingest::texts::{self, PairOrder};
use crate::ingest::tokenize::{self, Language};
use crate::model::alignment::Alignment;
use crate::model::link_origin::OriginLinks;
use crate::model::tokens;
use crate::model::{Candidate, CandidateId, Corpus, CorpusId, CorpusRole, LinkOrigin, LinkOrigins, Master};
use crate::store::master_file;
use std::path::{Path, PathBuf};

/// The new system's output as read from its file or folder.
pub use crate::ingest::resegment::{Output, OutputFile};

/// How to add a system.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The output is already tokenised like the master's corpora (tokens separated by single
    /// spaces); otherwise it is tokenised by the rules of docs/tokenisation.md.
    pub tokenised: bool,
    /// A word alignment from an external aligner; without it the output is aligned through the
    /// master's translations and the built-in aligner.
    pub alignment: Option<AlignmentFile>,
    /// Which translations of the master the output may be aligned through.
    pub bridge: Through,
    /// More parallel text for the built-in aligner to learn from (tokenised here).
    pub extra_parallel: Option<ParallelText>,
    pub aligner: align::Settings,
    /// What to do with pairs of the alignment file outside their sentences.
    pub out_of_range: texts::OutOfRange,
    /// What the user says of the output's layout (one document per line); the rest is told
    /// from its lines.
    pub layout: Given,
    /// The system deliberately translates nothing: an output without text is added (empty
    /// translations) rather than refused.
    pub allow_empty: bool,
    pub segmentation: resegment::Weights,
}

/// An alignment file of the source and the new output.
#[derive(Debug, Clone)]
pub struct AlignmentFile {
    pub path: PathBuf,
    pub order: PairOrder,
}

/// Plain parallel text: two files with one sentence per line.
#[derive(Debug, Clone)]
pub struct ParallelText {
    pub source: PathBuf,
    pub target: PathBuf,
}

/// A system ready to be added to the master it was prepared for.
#[derive(Debug, Clone)]
pub struct NewSystem {
    pub corpus: Corpus,
    pub candidates: Vec<Candidate>,
    pub aligned_by: AlignedBy,
    /// How the output was cut into sentences (`None`: a corpus made already, not read from an
    /// output).
    pub segmented: Option<resegment::Summary>,
    origin: PathBuf,
    /// The pairs of the alignment file left out ([`texts::OutOfRange::Drop`]), in words.
    dropped: Option<String>,
}

/// Where the new system's word alignment came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AlignedBy {
    /// The alignment file given in the options.
    File,
    /// Through the master's translations where they are near enough (`bridged`; `None`: the
    /// master has no translation to go through), then the built-in aligner, trained on this many
    /// sentence pairs, and its pronoun repair, which added this many links (`None`: the repair
    /// has no word lists for the master's languages).
    BuiltIn { training_pairs: usize, pronoun_repairs: Option<usize>, bridged: Option<bridge::Summary> },
    /// Made together with the sentences ([`NewSystem::aligned`]).
    Given,
}

/// Adds a system's output to `master` and returns the id of its new corpus. On error the
/// master is unchanged and the message names the file, the place and the problem.
pub fn add_system(master: &mut Master, name: &str, output: Output, options: &Options) -> Result<CorpusId> {
    prepare(master, name, output, options)?.add_to(master)
}

/// [`prepare`] for an output read from `path`: a text file, or a folder with one text file per
/// document ([`system_output`]).
pub fn prepare_file(master: &Master, name: &str, path: &Path, options: &Options) -> Result<NewSystem> {
    let (source, _) = whole_texts(master, path)?;
    let text = system_output::read(path, source)?;
    prepare(master, name, text.output(path), options)
}

/// Checks, tokenises, segments and aligns a system's output for `master`, and builds its
/// candidates.
pub fn prepare(master: &Master, name: &str, output: Output, options: &Options) -> Result<NewSystem> {
    let origin = output.origin;
    crate::progress::stage(&format!("Tokenising {}", crate::store::master_file::file_name(origin)), None);
    check_name(master, name, origin)?;
    let (source, translations) = whole_texts(master, origin)?;
    let texts = Texts { source, translations: &translations, documents: &master.documents };
    let Resegmented { sentences, mut segmentation, mut summary, .. } = sentences(master, &texts, output, options)?;
    if options.alignment.is_none() {
        vouch(master, options.bridge, &sentences, &mut segmentation, &mut summary);
    }
    let mut dropped = None;
    let (alignment, link_origins, aligned_by) = match &options.alignment {
        Some(file) if segmentation.is_some() || !summary.moved.is_empty() => {
            return Err(Error::whole_file(
                origin,
                format!(
                    "an alignment file needs the output as one line per source sentence, each kept as given, but this \
                     one was segmented ({}); leave the alignment to the built-in aligner, or align one line per \
                     sentence yourself ({} was not read)",
                    summary.layout.describe(),
                    file.path.display()
                ),
            ));
        }
        Some(file) => {
            let (order, out_of_range) = (file.order, options.out_of_range);
            let lines = texts::read_lines(&file.path)?;
            let read = texts::alignment(&file.path, lines, order, out_of_range, source, &sentences, origin)?;
            dropped = read.dropped.describe(&file.path);
            (Alignment::new(read.links), None, AlignedBy::File)
        }
        None => {
            let (alignment, origins, aligned_by) = align_built_in(master, source, &translations, &sentences, options)?;
            (alignment, Some(origins), aligned_by)
        }
    };
    let id = master.next_corpus_id().ok_or_else(|| no_id_left(origin, "corpus"))?;
    let candidates = new_candidates(master, id, &alignment, origin)?;
    let corpus = Corpus {
        id,
        name: name.to_owned(),
        role: CorpusRole::System,
        sentences: sentences.into(),
        alignment: Some(alignment),
        segmentation,
        label: None,
        link_origins,
    };
    Ok(NewSystem { corpus, candidates, aligned_by, segmented: Some(summary), origin: origin.to_path_buf(), dropped })
}

impl NewSystem {
    /// A system whose corpus is made already, tokenised and aligned — a classifier's predictions
    /// put into the reference, keeping its alignment (`crate::prediction::import`) — with one
    /// candidate per example of `master`, for [`NewSystem::add_to`]. `origin` is named in errors.
    pub fn aligned(master: &Master, corpus: Corpus, origin: &Path) -> Result<NewSystem> {
        check_name(master, &corpus.name, origin)?;
        let alignment =
            corpus.alignment.as_ref().ok_or_else(|| Error::whole_file(origin, "the new system has no alignment"))?;
        let candidates = new_candidates(master, corpus.id, alignment, origin)?;
        Ok(NewSystem {
            corpus,
            candidates,
            aligned_by: AlignedBy::Given,
            segmented: None,
            origin: origin.to_path_buf(),
            dropped: None,
        })
    }

    /// Adds the system to the master it was prepared for (which may have gained records since)
    /// and validates the result. On error the master is unchanged.
    pub fn add_to(self, master: &mut Master) -> Result<CorpusId> {
        check_name(master, &self.corpus.name, &self.origin)?;
        let id = self.corpus.id;
        let ids_free = master.corpus(id).is_none()
            && self.candidates.iter().all(|c| master.candidate(c.id).is_none())
            && master.sentence_count() as usize == self.corpus.sentences.len();
        if !ids_free {
            return Err(Error::whole_file(&self.origin, "the master changed since the system was prepared; try again"));
        }
        let mut updated = master.clone();
        updated.corpora.push(self.corpus);
        updated.candidates.extend(self.candidates);
        updated.reindex();
        master_file::check(&self.origin, &updated)?;
        *master = updated;
        Ok(id)
    }
}

/// What to tell the user about a prepared system before it is added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub sentences: usize,
    pub candidates: usize,
    /// The new candidates' ids, first and last.
    pub ids: Option<(CandidateId, CandidateId)>,
    /// Candidates with at least one target token aligned to the pronoun.
    pub pronouns_aligned: usize,
    /// Antecedent heads (over all candidates) with at least one aligned target token, and all.
    pub heads_aligned: usize,
    pub heads: usize,
    pub aligned_by: AlignedBy,
    pub dropped: Option<String>,
    pub segmented: Option<resegment::Summary>,
}

impl NewSystem {
    pub fn report(&self) -> Report {
        let heads = self.candidates.iter().flat_map(|c| &c.antecedents);
        Report {
            sentences: self.corpus.sentences.len(),
            candidates: self.candidates.len(),
            ids: self.candidates.first().zip(self.candidates.last()).map(|(a, b)| (a.id, b.id)),
            pronouns_aligned: self.candidates.iter().filter(|c| !c.pronoun.is_empty()).count(),
            heads_aligned: heads.clone().filter(|h| !h.is_empty()).count(),
            heads: heads.count(),
            aligned_by: self.aligned_by.clone(),
            dropped: self.dropped.clone(),
            segmented: self.segmented.clone(),
        }
    }
}

impl Report {
    /// The report as lines for people; `seconds` is how long the preparation took.
    pub fn lines(&self, seconds: f64) -> Vec<String> {
        self.noted_lines(seconds).into_iter().map(|(line, _)| line).collect()
    }

    /// [`Report::lines`], each with whether it names what cannot be vouched for
    /// ([`resegment::Summary::noted_lines`]).
    pub fn noted_lines(&self, seconds: f64) -> Vec<(String, bool)> {
        let plain = |line: String| (line, false);
        let ids = match self.ids {
            Some((first, last)) => format!("{first}–{last}"),
            None => "none".into(),
        };
        let mut lines =
            vec![plain(format!("{} sentences, {} candidates (ids {ids})", self.sentences, self.candidates))];
        lines.extend(self.segmented.iter().flat_map(resegment::Summary::noted_lines));
        match &self.aligned_by {
            AlignedBy::BuiltIn { training_pairs, pronoun_repairs, bridged } => {
                let (training_pairs, pronoun_repairs) = (*training_pairs, *pronoun_repairs);
                lines.extend(bridged.as_ref().map(|b| plain(bridged_line(b, self.sentences))));
                let aligner =
                    format!("the built-in aligner, trained on {training_pairs} sentence pairs in {seconds:.1} s");
                lines.push(plain(match bridged {
                    Some(b) => format!(
                        "{aligner}, aligned the source words the bridge left unaligned: {}",
                        crate::store::summary::count(b.aligned, "link")
                    ),
                    None => format!("aligned by {aligner}"),
                }));
                lines.push(plain(match pronoun_repairs {
                    Some(n) => format!(
                        "pronouns the aligner left unaligned: {} added to a subject pronoun of the translation nearby",
                        crate::store::summary::count(n, "link")
                    ),
                    None => "pronouns the aligner left unaligned are not linked for these languages".into(),
                }));
            }
            AlignedBy::File => lines.push(plain("alignment read from the given file".into())),
            AlignedBy::Given => lines.push(plain("alignment given with the sentences".into())),
        }
        lines.extend(self.dropped.clone().map(plain));
        lines.push(plain(format!("pronoun aligned in {} of {} candidates", self.pronouns_aligned, self.candidates)));
        if self.heads > 0 {
            lines.push(plain(format!("antecedent head aligned in {} of {}", self.heads_aligned, self.heads)));
        }
        lines
    }
}

/// What aligning through the master's translations did, in a line.
fn bridged_line(bridged: &bridge::Summary, sentences: usize) -> String {
    let count = crate::store::summary::count;
    if bridged.through.is_empty() {
        return format!("aligned through the master's translations: none of the {sentences} sentences is near enough");
    }
    let through: Vec<String> = bridged.through.iter().map(|(name, n)| format!("{n} through '{name}'")).collect();
    format!(
        "aligned through the master's translations: {} of {sentences} sentences ({}), {} carried over",
        bridged.sentences(),
        through.join(", "),
        count(bridged.carried, "link")
    )
}

/// One candidate of corpus `id` per example of `master`, numbered on from the highest in use:
/// refused when the numbers would pass the largest there can be.
fn new_candidates(master: &Master, id: CorpusId, alignment: &Alignment, origin: &Path) -> Result<Vec<Candidate>> {
    let first = master.next_candidate_id().ok_or_else(|| no_id_left(origin, "candidate"))?.0;
    let numbers = first..=u32::MAX;
    if numbers.size_hint().0 < master.examples.len() {
        return Err(no_id_left(origin, "candidate"));
    }
    Ok(numbers
        .zip(&master.examples)
        .map(|(n, example)| from_texts::candidate(CandidateId(n), example, id, alignment))
        .collect())
}

fn no_id_left(origin: &Path, what: &str) -> Error {
    Error::whole_file(
        origin,
        format!(
            "no {what} id is left for the new system: the master's ids reach {}, the largest there can be",
            u32::MAX
        ),
    )
}

fn check_name(master: &Master, name: &str, origin: &Path) -> Result<()> {
    if name.trim().is_empty() {
        return Err(Error::whole_file(origin, "the system needs a name"));
    }
    if master.corpora.iter().any(|c| c.name == name) {
        let names: Vec<_> = master.corpora.iter().map(|c| c.name.as_str()).collect();
        return Err(Error::whole_file(
            origin,
            format!("the name '{name}' is taken (the master has {}); choose another", names.join(", ")),
        ));
    }
    Ok(())
}

/// The master's source and translations, every sentence of each: a system is added to a master,
/// never to a batch (which holds only some of its master's sentences).
fn whole_texts<'m>(master: &'m Master, origin: &Path) -> Result<(&'m [String], Vec<&'m [String]>)> {
    let source = master.source().ok_or_else(|| Error::whole_file(origin, "the master has no source corpus"))?;
    let whole = |c: &'m Corpus| {
        c.sentences.as_slice().ok_or_else(|| {
            Error::whole_file(
                origin,
                "this file holds only some of its master's sentences (it is a batch); add systems to the master",
            )
        })
    };
    Ok((whole(source)?, master.translations().map(whole).collect::<Result<_>>()?))
}

/// The output's sentences in the master's tokenisation, one per source sentence.
fn sentences(master: &Master, texts: &Texts<'_>, output: Output, options: &Options) -> Result<Resegmented> {
    let origin = output.origin;
    system_output::check(&output, texts.source.len(), options.allow_empty)?;
    if !output.files.is_empty() && options.layout == Given::DocumentPerLine {
        return Err(Error::whole_file(
            origin,
            "is a folder, with one file per document: one document per line is for a single file",
        ));
    }
    let language = Language::from_code(&master.languages.target);
    let tokenise = |i: usize, line: &str| -> Result<String> {
        if !options.tokenised {
            return Ok(tokenize::tokenize(line, language));
        }
        if resegment::is_empty_line(line) {
            return Ok(String::new());
        }
        match tokens::malformed(line) {
            Some(why) => {
                let (file, line) = output.locate(i);
                Err(Error::at_line(file, line, format!("the sentence {why}")))
            }
            None => Ok(line.to_owned()),
        }
    };
    crate::progress::stage("Segmenting into sentences", None);
    let resegmented = resegment::resegment(&output, texts, options.layout, &options.segmentation, &tokenise)?;
    resegmented.check(origin)?;
    Ok(resegmented)
}

/// Takes the sentences a translation the output may be aligned through vouches for
/// ([`bridge::vouched`]) out of those of low confidence, and says so in the summary.
fn vouch(
    master: &Master,
    through: Through,
    sentences: &[String],
    segmentation: &mut Option<crate::model::Segmentation>,
    summary: &mut resegment::Summary,
) {
    let Some(recorded) = segmentation.as_mut() else { return };
    let vouched = bridge::vouched(master, through, sentences, recorded);
    recorded.low_confidence.retain(|s| vouched.binary_search(s).is_err());
    summary.low_confidence.retain(|s| vouched.binary_search(s).is_err());
    summary.vouched = vouched;
    // Every sentence one whole line as given and none in doubt: nothing to record.
    if *recorded == crate::model::Segmentation::default() {
        *segmentation = None;
    }
}

/// Trains the built-in aligner on the source paired with every translation in the master, the
/// new output and any extra parallel text; aligns the new output through the master's
/// translations ([`bridge`]), the aligner and its pronoun repair filling in what they leave.
fn align_built_in(
    master: &Master,
    source: &[String],
    translations: &[&[String]],
    output: &[String],
    options: &Options,
) -> Result<(Alignment, LinkOrigins, AlignedBy)> {
    let extra = match &options.extra_parallel {
        Some(text) => read_parallel(text, &master.languages)?,
        None => Vec::new(),
    };
    let pairs: Vec<(&str, &str)> = translations
        .iter()
        .flat_map(|t| source.iter().zip(t.iter()))
        .chain(source.iter().zip(output))
        .chain(extra.iter().map(|(s, t)| (s, t)))
        .map(|(s, t)| (s.as_str(), t.as_str()))
        .collect();
    crate::progress::stage(&format!("Training the aligner on {} sentence pairs", pairs.len()), None);
    let aligner = Aligner::train(pairs.iter().copied(), &options.aligner);
    crate::progress::stage("Aligning", Some(output.len() as u64));
    let bridges = bridge::bridges(master, options.bridge);
    let pair = bridge::PronounPair::of(&master.languages);
    let links: Vec<OriginLinks> = (0u32..)
        .zip(source.iter().zip(output))
        .map(|(i, (s, t))| {
            crate::progress::advance(1);
            let carried = bridge::bridge_sentence(&bridges, i, s, t, pair.as_ref());
            bridge::combine(s, t, carried, &aligner.guess(s, t), pair.as_ref())
        })
        .collect();
    let (alignment, origins) = LinkOrigins::build(links);
    let aligned_by = AlignedBy::BuiltIn {
        training_pairs: pairs.len(),
        pronoun_repairs: pair.is_some().then(|| origins.count(LinkOrigin::Repair)),
        bridged: (!bridges.is_empty()).then(|| bridge::Summary::of(&origins, &bridges)),
    };
    Ok((alignment, origins, aligned_by))
}

/// Reads and tokenises parallel text.
fn read_parallel(parallel: &ParallelText, languages: &crate::model::Languages) -> Result<Vec<(String, String)>> {
    let source = texts::read_lines(&parallel.source)?;
    let target = texts::read_lines(&parallel.target)?;
    if source.len() != target.len() {
        return Err(Error::whole_file(
            &parallel.target,
            format!(
                "has {} lines but {} has {}; parallel text needs one line per sentence on each side",
                target.len(),
                parallel.source.display(),
                source.len()
            ),
        ));
    }
    let (from, to) = (Language::from_code(&languages.source), Language::from_code(&languages.target));
    Ok(source.iter().zip(&target).map(|(s, t)| (tokenize::tokenize(s, from), tokenize::tokenize(t, to))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TokenRef;
    use crate::testing::bare_tiny as tiny;
    use std::fs;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    const OUTPUT: &str = "J'ai un vélo.\nElle est rouge.\nIl pleut.\nBienvenue !\n";

    fn add(master: &mut Master, name: &str, text: &str, options: &Options) -> Result<CorpusId> {
        add_system(master, name, Output::file(Path::new("new.fr"), &lines(text)), options)
    }

    /// Candidate and corpus numbers are counted on from the highest in use, and refused rather
    /// than wrapped round when they would pass the largest there can be.
    #[test]
    fn a_system_whose_ids_would_pass_the_largest_is_refused() {
        for (corpus, candidate) in [(u32::MAX, 6), (3, u32::MAX - 2)] {
            let mut master = tiny();
            master.corpora[2].id = CorpusId(corpus);
            master.candidates.iter_mut().filter(|c| c.corpus == CorpusId(2)).for_each(|c| c.corpus = CorpusId(corpus));
            master.candidates[5].id = CandidateId(candidate);
            master.reindex();
            let before = master.clone();
            let e = add(&mut master, "new", OUTPUT, &Options::default()).unwrap_err().to_string();
            let what = if corpus == u32::MAX { "corpus" } else { "candidate" };
            assert!(e.contains(&format!("no {what} id is left for the new system")), "{e}");
            assert_eq!(master, before);
        }
        // Three examples fit exactly below the largest.
        let mut master = tiny();
        master.candidates[5].id = CandidateId(u32::MAX - 3);
        master.reindex();
        add(&mut master, "new", OUTPUT, &Options::default()).unwrap();
        assert_eq!(master.candidates.last().map(|c| c.id), Some(CandidateId(u32::MAX)));
    }

    #[test]
    fn adds_a_tokenised_aligned_corpus_and_its_candidates() {
        let before = tiny();
        let mut master = before.clone();
        let id = add(&mut master, "new", OUTPUT, &Options::default()).unwrap();
        assert_eq!(id, CorpusId(3));
        let corpus = master.corpus(id).unwrap();
        assert_eq!((corpus.name.as_str(), corpus.role), ("new", CorpusRole::System));
        assert_eq!(corpus.sentences, lines("J' ai un vélo .\nElle est rouge .\nIl pleut .\nBienvenue !"));
        // Everything that was there is untouched; the new candidates follow the highest id.
        assert_eq!(master.corpora[..3], before.corpora[..]);
        assert_eq!(master.candidates[..6], before.candidates[..]);
        assert_eq!(master.examples, before.examples);
        let new: Vec<_> = master.candidates[6..].iter().map(|c| (c.id, c.example.0, c.corpus)).collect();
        assert_eq!(new, vec![(CandidateId(7), 1, id), (CandidateId(8), 2, id), (CandidateId(9), 3, id)]);
        // "It is red ." / "Elle est rouge .": the pronoun and the antecedent head "bicycle".
        let first = &master.candidates[6];
        assert_eq!(first.pronoun, vec![TokenRef::new(1, 0)]);
        assert_eq!(first.antecedents, vec![vec![TokenRef::new(0, 3)]]);
        assert_eq!(master_file::check(Path::new("m"), &master).map_err(|e| e.to_string()), Ok(()));
    }

    #[test]
    fn documents_as_paragraphs_are_cut_into_sentences_and_say_so() {
        let mut master = tiny();
        let text = "J'ai un vélo. Elle est rouge.\n\nIl pleut. Bienvenue !\n";
        let text = lines(text);
        let system = prepare(&master, "new", Output::file(Path::new("new.fr"), &text), &Options::default()).unwrap();
        assert_eq!(system.corpus.sentences, lines("J' ai un vélo .\nElle est rouge .\nIl pleut .\nBienvenue !"));
        let segmentation = system.corpus.segmentation.clone().unwrap();
        assert_eq!(segmentation.split, [0, 1, 2, 3]);
        let report = system.report().lines(0.1);
        assert_eq!(
            report[1..3],
            ["layout: documents separated by an empty line (2 documents)", "segmented: 4 sentences — 4 split"]
        );
        let id = system.add_to(&mut master).unwrap();
        // Stored with the corpus, and valid.
        assert_eq!(master.corpus(id).unwrap().segmentation.as_ref(), Some(&segmentation));
        assert_eq!(master.corpus(id).unwrap().origin(1), crate::model::Origin::Split);
    }

    #[test]
    fn the_report_counts_what_was_aligned() {
        let dir = tempfile::tempdir().unwrap();
        let alignment = dir.path().join("a.alig");
        fs::write(&alignment, "3-3\n0-1\n\n0-0\n").unwrap(); // no link for "It" of example 2
        let options = Options {
            alignment: Some(AlignmentFile { path: alignment, order: PairOrder::SourceTarget }),
            ..Options::default()
        };
        let system = prepare(&tiny(), "new", Output::file(Path::new("new.fr"), &lines(OUTPUT)), &options).unwrap();
        let report = system.report();
        assert_eq!((report.sentences, report.candidates, report.pronouns_aligned), (4, 3, 2));
        assert_eq!((report.heads_aligned, report.heads), (1, 1));
        assert_eq!(
            report.lines(0.04),
            [
                "4 sentences, 3 candidates (ids 7–9)",
                "layout: one line per source sentence (4 lines)",
                "segmented: 4 sentences — 4 kept as given",
                "alignment read from the given file",
                "pronoun aligned in 2 of 3 candidates",
                "antecedent head aligned in 1 of 1"
            ]
        );
        let built_in = Report {
            aligned_by: AlignedBy::BuiltIn { training_pairs: 12, pronoun_repairs: Some(2), bridged: None },
            ..report.clone()
        };
        assert_eq!(
            built_in.lines(1.26)[3..5],
            [
                "aligned by the built-in aligner, trained on 12 sentence pairs in 1.3 s".to_string(),
                "pronouns the aligner left unaligned: 2 links added to a subject pronoun of the translation nearby"
                    .to_string()
            ]
        );
        let through = |through: Vec<(String, usize)>| bridge::Summary { through, carried: 30, aligned: 1 };
        let bridged = |summary| Report {
            aligned_by: AlignedBy::BuiltIn { training_pairs: 12, pronoun_repairs: Some(0), bridged: Some(summary) },
            ..report.clone()
        };
        assert_eq!(
            bridged(through(vec![("reference".into(), 3), ("mt".into(), 1)])).lines(1.26)[3..6],
            [
                "aligned through the master's translations: 4 of 4 sentences (3 through 'reference', 1 through 'mt'), \
                 30 links carried over",
                "the built-in aligner, trained on 12 sentence pairs in 1.3 s, aligned the source words the bridge left \
                 unaligned: 1 link",
                "pronouns the aligner left unaligned: 0 links added to a subject pronoun of the translation nearby"
            ]
        );
        assert_eq!(
            bridged(through(vec![])).lines(1.0)[3],
            "aligned through the master's translations: none of the 4 sentences is near enough"
        );
    }

    #[test]
    fn refusals_leave_the_master_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let bad_alignment = dir.path().join("bad.alig");
        fs::write(&bad_alignment, "0-0\n0-9\n0-0\n0-0\n").unwrap();
        let cases: Vec<(&str, &str, Options, &str)> = vec![
            (
                "new",
                "Une phrase.\n\nDeux.\n\nTrois.\n",
                Options::default(),
                "new.fr: has 5 lines in 3 parts separated by empty lines: neither one line per source sentence (the \
                 master has 4 sentences) nor one part per document (the master has 2 documents); document 2",
            ),
            (
                "new",
                "J'ai un vélo. Elle est rouge.\n\nIl pleut. Bienvenue !\n",
                Options {
                    alignment: Some(AlignmentFile { path: bad_alignment.clone(), order: PairOrder::SourceTarget }),
                    ..Options::default()
                },
                "new.fr: an alignment file needs the output as one line per source sentence, each kept as given",
            ),
            ("mt", OUTPUT, Options::default(), "new.fr: the name 'mt' is taken (the master has source, reference, mt)"),
            (" ", OUTPUT, Options::default(), "new.fr: the system needs a name"),
            (
                "new",
                "a\nb  c\nd\ne\n",
                Options { tokenised: true, ..Options::default() },
                "new.fr: line 2: the sentence has two spaces in a row",
            ),
            (
                "new",
                OUTPUT,
                Options {
                    alignment: Some(AlignmentFile { path: bad_alignment.clone(), order: PairOrder::SourceTarget }),
                    ..Options::default()
                },
                "bad.alig: line 2: pair 0-9: target index 9 is out of range (new.fr has 4 tokens in this sentence)",
            ),
        ];
        for (name, text, options, expected) in cases {
            let before = tiny();
            let mut master = before.clone();
            let err = add(&mut master, name, text, &options).unwrap_err().to_string();
            assert!(err.contains(expected), "{err}\nexpected: {expected}");
            assert_eq!(master, before);
        }
    }

    #[test]
    fn outputs_are_read_from_text_files_only() {
        let dir = tempfile::tempdir().unwrap();
        let (text, binary) = (dir.path().join("new.fr"), dir.path().join("new.bin"));
        fs::write(&text, OUTPUT).unwrap();
        fs::write(&binary, b"\x7fELF\x00\x01").unwrap();
        let system = prepare_file(&tiny(), "new", &text, &Options::default()).unwrap();
        assert_eq!(system.corpus.sentences[1], "Elle est rouge .");
        let err = prepare_file(&tiny(), "new", &binary, &Options::default()).unwrap_err().to_string();
        assert!(err.ends_with("new.bin: this is a binary file, not text"), "{err}");
    }

    #[test]
    fn external_alignments_in_either_order() {
        let dir = tempfile::tempdir().unwrap();
        let forward = dir.path().join("f.alig");
        let reversed = dir.path().join("r.alig");
        fs::write(&forward, "3-3\n0-1\n0-0\n0-0\n").unwrap();
        fs::write(&reversed, "3-3\n1-0\n0-0\n0-0\n").unwrap();
        for (path, order) in [(forward, PairOrder::SourceTarget), (reversed, PairOrder::TargetSource)] {
            let mut master = tiny();
            let options = Options { alignment: Some(AlignmentFile { path, order }), ..Options::default() };
            add(&mut master, "new", OUTPUT, &options).unwrap();
            let new = &master.candidates[6];
            assert_eq!(new.pronoun, vec![TokenRef::new(1, 1)], "{order:?}");
            assert_eq!(new.antecedents, vec![vec![TokenRef::new(0, 3)]]);
        }
    }

    #[test]
    fn extra_parallel_text_is_read_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let (src, tgt) = (dir.path().join("x.en"), dir.path().join("x.fr"));
        fs::write(&src, "It is red.\nThe bicycle is red.\n").unwrap();
        fs::write(&tgt, "Elle est rouge.\nLa bicyclette est rouge.\n").unwrap();
        let extra = ParallelText { source: src.clone(), target: tgt.clone() };
        let options = Options { extra_parallel: Some(extra), ..Options::default() };
        let system = prepare(&tiny(), "new", Output::file(Path::new("new.fr"), &lines(OUTPUT)), &options).unwrap();
        assert!(matches!(system.aligned_by, AlignedBy::BuiltIn { training_pairs: 14, pronoun_repairs: Some(_), .. }));
        fs::write(&tgt, "Elle est rouge.\n").unwrap();
        let err = add(&mut tiny(), "new", OUTPUT, &options).unwrap_err().to_string();
        assert!(
            err.contains("x.fr: has 1 lines but") && err.contains("parallel text needs one line per sentence"),
            "{err}"
        );
    }

    #[test]
    fn a_system_prepared_for_an_older_state_is_not_added() {
        let mut master = tiny();
        let output = lines(OUTPUT);
        let first = prepare(&master, "a", Output::file(Path::new("a.fr"), &output), &Options::default()).unwrap();
        let second = prepare(&master, "b", Output::file(Path::new("b.fr"), &output), &Options::default()).unwrap();
        first.add_to(&mut master).unwrap();
        let before = master.clone();
        let err = second.add_to(&mut master).unwrap_err().to_string();
        assert!(err.contains("the master changed since the system was prepared"), "{err}");
        assert_eq!(master, before);
    }
}
