//! Finding the source pronouns of a run and their reference and candidate translations, one
//! sentence at a time from the five parallel files.
//!
//! - source pronouns: each source line is trimmed, lowercased and split at single spaces; a token
//!   one of whose parts (see the source separator) is in the source list is an instance, under
//!   that part; or the `sentence position` pairs of a positions file, under the whole token;
//! - a translation: the target positions aligned to the pronoun, ascending, and their lowercased
//!   tokens; with a target list each token gives its first part that is in the list, and a
//!   translation whose tokens give nothing is `OTHER`; no aligned position, no translation;
//! - the alignment heuristic then repairs translations whose words hold no target pronoun of the
//!   heuristic's list ([`crate::scorers::apt::pronoun_repair`] with [`Options::APT`]); the token it adds is
//!   taken as written in the file, not lowercased, exactly as the reference does.

use super::config::{CorpusFiles, SourcePronouns};
use super::rules::OTHER;
use super::words::{self, WordSet};
use crate::error::{Error, Result};
use crate::model::alignment::Links;
use crate::model::numbered_in_file;
use crate::scorers::apt::pronoun_repair::{self, Options, PronounLists};
use crate::scorers::links;
use crate::scorers::scan::{self, WordScan};
use crate::text_file::LineReader;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

/// A translation of one source pronoun.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translation {
    /// Aligned target positions (ascending; a position the heuristic added comes last).
    pub positions: Vec<u32>,
    /// The words compared (target-list words, `OTHER`, or the aligned tokens themselves).
    pub words: Vec<String>,
}

/// One source pronoun with its two translations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// Rank in the reference's order: source order, or the order of the positions file.
    pub index: usize,
    pub sentence: u32,
    pub position: u32,
    /// The source word (the part of the token that is in the source list).
    pub word: String,
    pub reference: Option<Translation>,
    pub candidate: Option<Translation>,
}

/// What decides how translations are read.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    pub target_list: Option<WordSet>,
    pub source_separator: Option<String>,
    pub target_separator: Option<String>,
    /// The alignment heuristic's lists; `None` (or no target words) switches it off.
    pub heuristic: Option<PronounLists>,
}

/// Which source tokens are instances.
#[derive(Clone)]
pub enum Finder {
    Words(WordSet),
    /// Per sentence, the instances listed in a positions file.
    Positions {
        path: PathBuf,
        by_sentence: BTreeMap<u32, Vec<Listed>>,
    },
}

/// One line of a positions file.
#[derive(Clone)]
pub struct Listed {
    index: usize,
    position: u32,
    line: usize,
}

impl Finder {
    pub fn load(pronouns: &SourcePronouns) -> Result<Finder> {
        match pronouns {
            SourcePronouns::Words(path) => Ok(Finder::Words(words::read_list(path)?.into_iter().collect())),
            SourcePronouns::Positions(path) => read_positions(path),
        }
    }

    /// The instances of one sentence, numbered from `next_index` on in word mode, added to
    /// `found` with their words added to `text`.
    fn find(
        &self,
        sentence: u32,
        tokens: &[&str],
        separator: Option<&str>,
        next_index: &mut usize,
        found: &mut Vec<Found>,
        text: &mut String,
    ) -> Result<()> {
        let mut word = |word: &str| {
            let start = text.len();
            text.push_str(word);
            start..text.len()
        };
        match self {
            Finder::Words(list) => {
                for (position, token) in (0u32..).zip(tokens) {
                    // Not `words::parts`, whose box is an allocation per token.
                    let part = match separator {
                        Some(separator) => token.split(separator).find(|part| list.contains(*part)),
                        None => token.split_whitespace().find(|part| list.contains(*part)),
                    };
                    if let Some(part) = part {
                        found.push(Found { index: *next_index, position, word: word(part) });
                        *next_index += 1;
                    }
                }
                Ok(())
            }
            Finder::Positions { path, by_sentence } => {
                for listed in by_sentence.get(&sentence).into_iter().flatten() {
                    let Some(token) = tokens.get(listed.position as usize) else {
                        return Err(Error::at_line(
                            path,
                            listed.line,
                            format!(
                                "position {} is past the end of source {} ({} tokens)",
                                listed.position,
                                numbered_in_file(sentence),
                                tokens.len()
                            ),
                        ));
                    };
                    found.push(Found { index: listed.index, position: listed.position, word: word(token) });
                }
                Ok(())
            }
        }
    }

    /// What rules out most sentences before their source line is lowercased and tokenised: in
    /// word mode, a search for the listed words (see [`SourceFilter`]).
    fn filter(&self, separator: Option<&str>) -> SourceFilter {
        match self {
            // An empty separator splits everywhere: any byte may border a word.
            Finder::Words(_) if separator == Some("") => SourceFilter::None,
            Finder::Words(list) => {
                // A part is bordered by the line's ends, the spaces tokens are split at, and the
                // separator (or, without one, the white space parts are split at).
                let boundary = [scan::ASCII_WHITESPACE, separator.unwrap_or_default().as_bytes()].concat();
                // Lowercasing ASCII text gives ASCII text: no other word can be in it.
                let ascii = list.iter().filter(|w| w.is_ascii()).map(|w| w.as_bytes());
                SourceFilter::Words { scan: WordScan::new(ascii, &boundary), lowered: Vec::new() }
            }
            Finder::Positions { by_sentence, .. } => SourceFilter::Listed(by_sentence.keys().copied().collect()),
        }
    }

    /// A positions file naming a sentence the source does not have.
    fn check_sentences(&self, sentences: u32) -> Result<()> {
        if let Finder::Positions { path, by_sentence } = self
            && let Some((&sentence, listed)) = by_sentence.range(sentences..).next()
        {
            return Err(Error::at_line(
                path,
                listed[0].line,
                format!("{} does not exist; the source has {sentences} sentences", numbered_in_file(sentence)),
            ));
        }
        Ok(())
    }
}

/// Whether a source line may hold an instance; a line it rules out has none.
enum SourceFilter {
    None,
    /// Word mode: an ASCII line, lowercased as APT lowercases it (ASCII stays ASCII, at the same
    /// places), is searched for the listed words whole; other lines are let through.
    Words {
        scan: WordScan,
        lowered: Vec<u8>,
    },
    /// Positions mode: the sentences the file lists.
    Listed(BTreeSet<u32>),
}

impl SourceFilter {
    fn may_hold(&mut self, sentence: u32, line: &str) -> bool {
        match self {
            SourceFilter::Words { scan, lowered } if line.is_ascii() => {
                lowered.clear();
                lowered.extend_from_slice(line.as_bytes());
                lowered.make_ascii_lowercase();
                scan.finds(lowered)
            }
            SourceFilter::Listed(sentences) => sentences.contains(&sentence),
            _ => true,
        }
    }
}

/// A source pronoun found, its word in its chunk's text.
struct Found {
    index: usize,
    position: u32,
    word: Range<usize>,
}

/// `sentence position` pairs, 0-based, one per line; empty lines are skipped.
fn read_positions(path: &Path) -> Result<Finder> {
    let mut reader = LineReader::open(path)?;
    let mut by_sentence: BTreeMap<u32, Vec<Listed>> = BTreeMap::new();
    let mut index = 0;
    while reader.advance()? {
        let numbers: Vec<&str> = reader.line().split_whitespace().collect();
        if numbers.is_empty() {
            continue;
        }
        let pair = match numbers[..] {
            [s, p] => s.parse::<u32>().ok().zip(p.parse::<u32>().ok()),
            _ => None,
        };
        let Some((sentence, position)) = pair else {
            return Err(reader.error(format!(
                "expected `sentence position` (two whole numbers counted from 0), found {:?}",
                reader.line().trim()
            )));
        };
        by_sentence.entry(sentence).or_default().push(Listed { index, position, line: reader.line_number() });
        index += 1;
    }
    Ok(Finder::Positions { path: path.to_path_buf(), by_sentence })
}

/// Reads the five files in step and hands over the instances of each sentence that has some.
///
/// Two stages on two threads: a thread of its own reads the files in step, rules out the sentences
/// without a source pronoun ([`SourceFilter`]), finds the instances of the others and reads the
/// links of their source pronouns ([`InStep`]); this one finds the instances' translations.
pub struct InstanceReader<'a> {
    chunks: Receiver<Chunk>,
    /// Chunks used up, handed back to the first stage to be filled again: one allocation per
    /// chunk, not per line, made and freed on one thread.
    used: SyncSender<Chunk>,
    stage: Option<JoinHandle<()>>,
    chunk: Chunk,
    /// The next sentence of `chunk`.
    next: usize,
    paths: Paths,
    finder: &'a Finder,
    reading: &'a Reading,
    /// Token lists kept from sentence to sentence (see [`words::reuse`]).
    tokens: [Vec<&'static str>; 3],
}

/// The text files, for what the second stage says about them.
struct Paths {
    reference: PathBuf,
    candidate: PathBuf,
    reference_links: PathBuf,
    candidate_links: PathBuf,
}

/// Sentences with instances, in file order, all their text in one string and all their links in
/// one list; then, in the last chunk, how the files ended.
#[derive(Default)]
struct Chunk {
    text: String,
    links: Links,
    found: Vec<Found>,
    sentences: Vec<Lines>,
    last: Option<Last>,
}

/// After the last sentence of the last chunk.
enum Last {
    /// How many sentences there were, and whether the other files ended as they should.
    End(u32, Result<()>),
    Failed(Error),
}

/// A sentence with instances: the source pronouns found, the lines, the links of the source
/// pronouns (and, with the alignment heuristic, of the source tokens on its list), as places in
/// their [`Chunk`].
struct Lines {
    sentence: u32,
    found: Range<usize>,
    source: Range<usize>,
    reference: Range<usize>,
    candidate: Range<usize>,
    reference_links: Result<Range<usize>>,
    candidate_links: Result<Range<usize>>,
}

/// Sentences handed over at a time.
const CHUNK: usize = 256;

impl<'a> InstanceReader<'a> {
    pub fn open(files: &CorpusFiles, finder: &'a Finder, reading: &'a Reading) -> Result<Self> {
        let in_step = InStep {
            source: LineReader::open(&files.source)?,
            reference: LineReader::open(&files.reference)?,
            candidate: LineReader::open(&files.candidate)?,
            reference_links: LineReader::open(&files.reference_alignment)?,
            candidate_links: LineReader::open(&files.candidate_alignment)?,
            filter: finder.filter(reading.source_separator.as_deref()),
            finder: finder.clone(),
            separator: reading.source_separator.clone(),
            heuristic_sources: reading.heuristic.as_ref().map(|lists| {
                // Whole tokens: bordered by the spaces the line is split at, or its ends. A word
                // with a space is never a token.
                let words = lists.source.iter().filter(|w| !w.contains(' ')).map(|w| w.as_bytes());
                WordScan::new(words, b" ")
            }),
            next_index: 0,
            sentence: 0,
            lowered: String::new(),
            positions: Vec::new(),
            links: Vec::new(),
            whole_tokens: match finder {
                // Lowercased ASCII is ASCII: no other word is in such a line. A word with a space
                // in it is never a token; the list has no empty word.
                Finder::Words(list) if reading.source_separator.is_none() => {
                    let ascii = list.iter().filter(|w| w.is_ascii() && !w.contains(' ')).map(|w| w.as_bytes());
                    Some(WordScan::new(ascii, b" "))
                }
                _ => None,
            },
            matches: Vec::new(),
        };
        let (sender, chunks) = sync_channel(4);
        let (used, spare) = sync_channel(4);
        let stage = std::thread::spawn(move || in_step.run(&sender, &spare));
        Ok(InstanceReader {
            chunks,
            used,
            stage: Some(stage),
            chunk: Chunk::default(),
            next: 0,
            paths: Paths {
                reference: files.reference.clone(),
                candidate: files.candidate.clone(),
                reference_links: files.reference_alignment.clone(),
                candidate_links: files.candidate_alignment.clone(),
            },
            finder,
            reading,
            tokens: Default::default(),
        })
    }

    /// Takes the next chunk from the first stage when this one is used up; false after the last
    /// sentence.
    fn sentence_at_hand(&mut self) -> Result<bool> {
        while self.next == self.chunk.sentences.len() {
            match self.chunk.last.take() {
                Some(Last::End(sentences, ends)) => {
                    self.finder.check_sentences(sentences)?;
                    ends?;
                    return Ok(false);
                }
                Some(Last::Failed(error)) => return Err(error),
                None => {}
            }
            match self.chunks.recv() {
                Ok(chunk) => {
                    let _ = self.used.try_send(std::mem::replace(&mut self.chunk, chunk));
                    self.next = 0;
                }
                // The first stage ends only after its last chunk, or by a panic.
                Err(_) => match self.stage.take().map(JoinHandle::join) {
                    Some(Err(panic)) => std::panic::resume_unwind(panic),
                    _ => return Ok(false),
                },
            }
        }
        Ok(true)
    }

    /// The instances of the next sentence that may have some (often none), or `None` after the
    /// last sentence.
    pub fn next_sentence(&mut self) -> Result<Option<Vec<Instance>>> {
        if !self.sentence_at_hand()? {
            return Ok(None);
        }
        let chunk = &mut self.chunk;
        let lines = &mut chunk.sentences[self.next];
        self.next += 1;
        let sentence = lines.sentence;
        let text = |range: &Range<usize>| &chunk.text[range.clone()];
        let links =
            |range: &mut Result<Range<usize>>| std::mem::replace(range, Ok(0..0)).map(|range| &chunk.links[range]);
        let [source_tokens, reference_tokens, candidate_tokens] = &mut self.tokens;
        // The source tokens as written only for the alignment heuristic's "taken" test.
        let mut raw_source = words::reuse(std::mem::take(source_tokens));
        if self.reading.heuristic.is_some() {
            // The "taken" test looks at the source tokens the links name, no further.
            let named = [&lines.reference_links, &lines.candidate_links]
                .into_iter()
                .filter_map(|range| range.as_ref().ok())
                .flat_map(|range| &chunk.links[range.clone()])
                .map(|&(s, _)| s as usize + 1)
                .max()
                .unwrap_or(0);
            raw_source.extend(words::tokens(text(&lines.source)).take(named));
        }
        let reference = Side::read(
            text(&lines.reference),
            links(&mut lines.reference_links),
            words::reuse(std::mem::take(reference_tokens)),
            [&self.paths.reference, &self.paths.reference_links],
            sentence,
        );
        let candidate = reference.and_then(|reference| {
            let candidate = Side::read(
                text(&lines.candidate),
                links(&mut lines.candidate_links),
                words::reuse(std::mem::take(candidate_tokens)),
                [&self.paths.candidate, &self.paths.candidate_links],
                sentence,
            )?;
            Ok((reference, candidate))
        });
        let (reference, candidate) = candidate?;
        let instances = chunk.found[lines.found.clone()]
            .iter()
            .map(|f| {
                Ok(Instance {
                    index: f.index,
                    sentence,
                    position: f.position,
                    reference: reference.translate(f.position, &raw_source, self.reading)?,
                    candidate: candidate.translate(f.position, &raw_source, self.reading)?,
                    word: text(&f.word).to_owned(),
                })
            })
            .collect::<Result<_>>()
            .map(Some);
        *source_tokens = words::reuse(raw_source);
        *reference_tokens = words::reuse(reference.target.raw);
        *candidate_tokens = words::reuse(candidate.target.raw);
        instances
    }
}

/// The first stage: the five files in step.
struct InStep {
    source: LineReader,
    reference: LineReader,
    candidate: LineReader,
    reference_links: LineReader,
    candidate_links: LineReader,
    filter: SourceFilter,
    /// The caller's, copied for this thread.
    finder: Finder,
    separator: Option<String>,
    /// The alignment heuristic's source pronouns, whose links it looks at too.
    heuristic_sources: Option<WordScan>,
    next_index: usize,
    sentence: u32,
    /// The source line lowercased, kept from line to line.
    lowered: String,
    /// The source pronouns' positions in a sentence.
    positions: Vec<u32>,
    /// An alignment line's links, kept from line to line.
    links: Links,
    /// In word mode without a source separator: the listed words, to be found whole in a line of
    /// printable ASCII, whose tokens are then the listed words between single spaces.
    whole_tokens: Option<WordScan>,
    /// A line's pronouns found whole: position and place in the lowercased line.
    matches: Vec<(u32, Range<usize>)>,
}

impl InStep {
    /// Hands over the sentences in chunks until the end, an error, or the second stage hanging up.
    fn run(mut self, sender: &SyncSender<Chunk>, spare: &Receiver<Chunk>) {
        loop {
            let mut chunk = spare.try_recv().unwrap_or_default();
            chunk.text.clear();
            chunk.links.clear();
            chunk.found.clear();
            chunk.sentences.clear();
            while chunk.sentences.len() < CHUNK && chunk.last.is_none() {
                if let Err(last) = self.next(&mut chunk) {
                    chunk.last = Some(last);
                }
            }
            let last = chunk.last.is_some();
            if sender.send(chunk).is_err() || last {
                return;
            }
        }
    }

    /// Adds the next sentence to `chunk` if it has an instance.
    fn next(&mut self, chunk: &mut Chunk) -> std::result::Result<(), Last> {
        if !self.source.advance().map_err(Last::Failed)? {
            let sentences = self.sentence;
            return Err(Last::End(sentences, self.check_ends()));
        }
        let sentence = self.sentence;
        self.sentence += 1;
        for reader in [&mut self.reference, &mut self.candidate, &mut self.reference_links, &mut self.candidate_links] {
            let more = reader.advance().map_err(Last::Failed)?;
            if !more {
                return Err(Last::Failed(Error::whole_file(
                    reader.path(),
                    format!(
                        "has fewer lines than the source {} (line {} is missing)",
                        self.source.path().display(),
                        sentence + 1
                    ),
                )));
            }
        }
        let found = chunk.found.len();
        self.find(sentence, chunk)?;
        if chunk.found.len() == found {
            return Ok(());
        }
        self.positions.clear();
        self.positions.extend(chunk.found[found..].iter().map(|f| f.position));
        if let Some(scan) = &self.heuristic_sources {
            // The heuristic's "taken" test: the links of the source tokens, as written, on its
            // list — found without splitting the line (a token's position is the spaces before it).
            let line = self.source.line().trim().as_bytes();
            let position = |at: usize| memchr::memchr_iter(b' ', &line[..at]).count() as u32;
            self.positions.extend(scan.each(line).map(|(at, _)| position(at)));
        }
        let mut text = |line: &str| {
            let start = chunk.text.len();
            chunk.text.push_str(line);
            start..chunk.text.len()
        };
        let (source, reference, candidate) =
            (text(self.source.line()), text(self.reference.line()), text(self.candidate.line()));
        let scratch = &mut self.links;
        let mut links = |reader: &LineReader| {
            let read = links::links_of(reader.line(), &self.positions, scratch);
            let start = chunk.links.len();
            chunk.links.extend_from_slice(scratch);
            read.map(|()| start..chunk.links.len()).map_err(|m| reader.error(m))
        };
        let (reference_links, candidate_links) = (links(&self.reference_links), links(&self.candidate_links));
        chunk.sentences.push(Lines {
            sentence,
            found: found..chunk.found.len(),
            source,
            reference,
            candidate,
            reference_links,
            candidate_links,
        });
        Ok(())
    }

    /// Finds the source pronouns of the current line into `chunk`.
    fn find(&mut self, sentence: u32, chunk: &mut Chunk) -> std::result::Result<(), Last> {
        let line = self.source.line();
        match &self.whole_tokens {
            // The usual line: its pronouns found whole in it, lowercased, without splitting it.
            Some(scan) if printable_ascii(line) => {
                self.lowered.clear();
                self.lowered.push_str(line);
                self.lowered.make_ascii_lowercase();
                let trimmed = self.lowered.trim_matches(' ');
                let position = |at: usize| memchr::memchr_iter(b' ', &trimmed.as_bytes()[..at]).count() as u32;
                self.matches.clear();
                self.matches.extend(scan.each(trimmed.as_bytes()).map(|(at, len)| (position(at), at..at + len)));
                self.matches.sort_unstable_by_key(|(position, _)| *position);
                for (position, word) in self.matches.drain(..) {
                    let start = chunk.text.len();
                    chunk.text.push_str(&trimmed[word]);
                    chunk.found.push(Found { index: self.next_index, position, word: start..chunk.text.len() });
                    self.next_index += 1;
                }
            }
            _ => {
                if !self.filter.may_hold(sentence, line) {
                    return Ok(());
                }
                self.lowered.clear();
                words::lower_into(line, &mut self.lowered);
                let source_tokens: Vec<&str> = words::tokens(&self.lowered).collect();
                self.finder
                    .find(
                        sentence,
                        &source_tokens,
                        self.separator.as_deref(),
                        &mut self.next_index,
                        &mut chunk.found,
                        &mut chunk.text,
                    )
                    .map_err(Last::Failed)?;
            }
        }
        Ok(())
    }

    /// After the last source line: the texts must end too; alignments may have empty lines left.
    fn check_ends(&mut self) -> Result<()> {
        for (reader, alignment) in [
            (&mut self.reference, false),
            (&mut self.candidate, false),
            (&mut self.reference_links, true),
            (&mut self.candidate_links, true),
        ] {
            while reader.advance()? {
                if !(alignment && reader.line().trim().is_empty()) {
                    return Err(reader.error(format!(
                        "the source {} has only {} lines; this file has more",
                        self.source.path().display(),
                        self.sentence
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Whether a line is printable ASCII (no control character, no white space but the space): all
/// bytes at once, without stopping early, which the compiler turns into SIMD.
fn printable_ascii(line: &str) -> bool {
    line.bytes().fold(true, |printable, b| printable & (b.wrapping_sub(b' ') < 0x60))
}

/// One translation side of a sentence: its text and alignment, its tokens split once for all
/// the sentence's instances — as far as its instances can look ([`Side::read`]).
struct Side<'r> {
    /// The text file and the alignment file.
    paths: [&'r Path; 2],
    sentence: u32,
    links: &'r [(u32, u32)],
    target: Target<'r>,
}

impl<'r> Side<'r> {
    fn read(
        text: &'r str,
        links: Result<&'r [(u32, u32)]>,
        mut tokens: Vec<&'r str>,
        paths: [&'r Path; 2],
        sentence: u32,
    ) -> Result<Side<'r>> {
        let links = links?;
        // The tokens up to the last aligned one and the alignment heuristic's window after it:
        // a translation reads its aligned tokens, the heuristic those of its window around them
        // and whether the sentence ends before the window does — which it still sees, the
        // tokens being cut after the window's end. Tokens further on (often most of the
        // sentence: a pronoun comes early) are not split. A link past the end of the sentence
        // asks for more tokens than it has: the error names them all.
        let needed = links.iter().map(|&(_, t)| t as usize + 1).max().unwrap_or(0) + Options::APT.window as usize;
        tokens.extend(words::tokens(text).take(needed));
        Ok(Side { paths, sentence, links, target: Target { raw: tokens } })
    }

    fn translate(&self, position: u32, raw_source: &[&str], reading: &Reading) -> Result<Option<Translation>> {
        translation(self.links, &self.target, raw_source, position, reading).map_err(|PastTheEnd(t)| {
            let line = self.sentence as usize + 1;
            Error::at_line(
                self.paths[1],
                line,
                format!(
                    "pair {position}-{t}: target index {t} is past the end of line {line} of {} ({} tokens)",
                    self.paths[0].display(),
                    self.target.raw.len()
                ),
            )
        })
    }
}

/// The tokens of a target sentence as written. An aligned token is lowercased with
/// [`words::lower`] when it is read: lowercasing maps no character to or from white space, so the
/// lowercased line's tokens are the tokens lowercased — and only the aligned few need it.
pub struct Target<'t> {
    pub raw: Vec<&'t str>,
}

/// An alignment link to a target index the sentence does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PastTheEnd(pub u32);

/// The translation of the source pronoun at `position` given the links of its sentence: the
/// reading of the module documentation, then the alignment heuristic when `reading` has one.
/// `raw_source` is the source sentence as written (the heuristic's "taken" test). The one
/// definition for parallel files (`protest apt`) and for masters ([`super::master`]).
pub fn translation(
    links: &[(u32, u32)],
    target: &Target,
    raw_source: &[&str],
    position: u32,
    reading: &Reading,
) -> std::result::Result<Option<Translation>, PastTheEnd> {
    let positions: Vec<u32> = links.iter().filter(|&&(s, _)| s == position).map(|&(_, t)| t).collect();
    if positions.is_empty() {
        return Ok(None);
    }
    let mut words = Vec::with_capacity(positions.len());
    for &t in &positions {
        let raw = *target.raw.get(t as usize).ok_or(PastTheEnd(t))?;
        // Most tokens are lowercase ASCII already: lowercased without a copy.
        let token = match raw.bytes().all(|b| b.is_ascii() && !b.is_ascii_uppercase()) {
            true => Cow::Borrowed(raw),
            false => Cow::Owned(words::lower(raw)),
        };
        match &reading.target_list {
            Some(list) => {
                // Not `words::parts`, whose box is an allocation per token.
                let part = match reading.target_separator.as_deref() {
                    Some(separator) => token.split(separator).find(|part| list.contains(*part)),
                    None => token.split_whitespace().find(|part| list.contains(*part)),
                };
                if let Some(part) = part {
                    words.push(part.to_owned());
                }
            }
            None => words.push(token.into_owned()),
        }
    }
    if words.is_empty() {
        words.push(OTHER.to_owned());
    }
    let mut translation = Translation { positions, words };
    if let Some(lists) = &reading.heuristic {
        repair(&mut translation, links, target, raw_source, lists);
    }
    Ok(Some(translation))
}

/// APT's use of the alignment heuristic: only for a translation none of whose words is a
/// target pronoun of the heuristic's list, anchored on its aligned positions.
fn repair(
    translation: &mut Translation,
    links: &[(u32, u32)],
    target: &Target,
    raw_source: &[&str],
    lists: &PronounLists,
) {
    if translation.words.iter().any(|w| lists.target.contains(w)) {
        return;
    }
    let found = pronoun_repair::search(raw_source, &target.raw, links, &translation.positions, lists, &Options::APT);
    if let Some(t) = found {
        translation.positions.push(t);
        if translation.words == [OTHER] {
            translation.words.clear();
        }
        translation.words.push(target.raw[t as usize].to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The source pronouns found whole in a line of printable ASCII, and those of any other line,
    /// are the module's reading: the line lowercased, trimmed and split at single spaces, a token
    /// an instance under its first white-space part that is listed.
    #[test]
    fn pronouns_found_whole_are_the_listed_tokens() {
        let lines =
            ["It is it .", "  they  said IT ", "it\tis", "Ça it", "its bit it's", "they-it it", "", "x They", "ït it"];
        let list = ["it", "they", "it's"];
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, text: String| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let files = CorpusFiles {
            source: file("source", lines.join("\n")),
            reference: file("reference", "a b c\n".repeat(lines.len())),
            candidate: file("candidate", "a b c\n".repeat(lines.len())),
            reference_alignment: file("reference.alig", "0-0 1-2\n".repeat(lines.len())),
            candidate_alignment: file("candidate.alig", "1-1\n".repeat(lines.len())),
        };
        let finder = Finder::Words(list.iter().map(|w| w.to_string()).collect());
        let reading = Reading::default();
        let mut reader = InstanceReader::open(&files, &finder, &reading).unwrap();
        let mut found = Vec::new();
        while let Some(instances) = reader.next_sentence().unwrap() {
            found.extend(instances.into_iter().map(|i| (i.index, i.sentence, i.position, i.word)));
        }
        let mut expected = Vec::new();
        for (sentence, line) in (0u32..).zip(lines) {
            let lowered = words::lower(line);
            for (position, token) in (0u32..).zip(words::tokens(&lowered)) {
                if let Some(part) = token.split_whitespace().find(|part| list.contains(part)) {
                    expected.push((expected.len(), sentence, position, part.to_owned()));
                }
            }
        }
        assert_eq!(found, expected);
        assert_eq!(expected.len(), 10);
    }

    /// Translations read from tokens cut after the last aligned one and the heuristic's window
    /// are those of the whole sentences: windows that run past the end, reach it exactly or stop
    /// short of it; "taken" tokens at the edge of the cut; a link past the end and its message.
    #[test]
    fn translations_of_cut_tokens_are_those_of_whole_sentences() {
        let sources = ["it is it .", "so it goes , they say", "it", "they know it well now , it"];
        let targets = ["il est il .", "ainsi il va , ils disent", "x y", "ils le savent bien maintenant , il"];
        let alignments = ["0-1 2-0", "1-2 4-3 4-4", "0-0", "0-2 2-0 6-6 1-1"];
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, lines: &[&str]| {
            let path = dir.path().join(name);
            std::fs::write(&path, lines.join("\n")).unwrap();
            path
        };
        let files = CorpusFiles {
            source: file("source", &sources),
            reference: file("reference", &targets),
            candidate: file("candidate", &targets),
            reference_alignment: file("reference.alig", &alignments),
            candidate_alignment: file("candidate.alig", &["0-1 2-1", "1-0 4-1", "0-1", "0-0 2-2 6-3"]),
        };
        let finder = Finder::Words(["it", "they"].iter().map(|w| w.to_string()).collect());
        let reading = Reading {
            target_list: Some(["il", "ils", "elle"].iter().map(|w| w.to_string()).collect()),
            heuristic: Some(PronounLists::new(["it", "they"], ["il", "ils", "le"])),
            ..Reading::default()
        };
        let mut reader = InstanceReader::open(&files, &finder, &reading).unwrap();
        let mut found = Vec::new();
        while let Some(instances) = reader.next_sentence().unwrap() {
            found.extend(instances);
        }
        let mut expected = Vec::new();
        let candidate_alignments = std::fs::read_to_string(&files.candidate_alignment).unwrap();
        for (sentence, ((source, target), (reference_line, candidate_line))) in
            (0u32..).zip(sources.iter().zip(targets).zip(alignments.iter().zip(candidate_alignments.lines())))
        {
            let raw_source: Vec<&str> = words::tokens(source).collect();
            let target = Target { raw: words::tokens(target).collect() };
            let (reference_links, candidate_links) = (
                crate::model::alignment::parse_line(reference_line).unwrap(),
                crate::model::alignment::parse_line(candidate_line).unwrap(),
            );
            for (position, token) in (0u32..).zip(&raw_source) {
                if ["it", "they"].contains(token) {
                    let read =
                        |links: &[(u32, u32)]| translation(links, &target, &raw_source, position, &reading).unwrap();
                    expected.push(Instance {
                        index: expected.len(),
                        sentence,
                        position,
                        word: token.to_string(),
                        reference: read(&reference_links),
                        candidate: read(&candidate_links),
                    });
                }
            }
        }
        assert_eq!(found, expected);
        assert!(expected.iter().any(|i| i.candidate.as_ref().is_some_and(|t| t.positions.len() == 2)), "a repair");

        // A link past the end: the message counts every token of the line.
        std::fs::write(&files.candidate_alignment, "0-9\n1-0\n0-0\n0-0").unwrap();
        let mut reader = InstanceReader::open(&files, &finder, &reading).unwrap();
        let error = reader.next_sentence().unwrap_err().to_string();
        assert!(error.contains("target index 9 is past the end of line 1") && error.contains("(4 tokens)"), "{error}");
    }
}
