//! Which task a data file is of, read from the file itself, so that every command and the window
//! choose the same scorer for the same data: DiscoMT 2015 for English–French tokenised text (its
//! data), WMT 2016/17 for lemmatised text (`lemma|TAG` tokens, their data) and for every other
//! pair. A scorer or a pair given by the user is taken as given.

use super::data::{self, PLACEHOLDER};
use super::{Pair, Scorer, Task};
use crate::error::{Error, Result};
use crate::shell::Shell;
use std::path::Path;

/// How many lines of a file are looked at to tell its layout.
const SAMPLE_LINES: usize = 200;

/// Whether these target sentences are lemmatised with part-of-speech tags (`lemma|TAG`), as the
/// WMT 2016/17 data is: most of their words (placeholders aside) hold a `|` between two parts.
pub fn lemmatised<'a>(targets: impl IntoIterator<Item = &'a str>) -> bool {
    let (mut words, mut tagged) = (0usize, 0usize);
    for word in targets.into_iter().flat_map(|t| t.split(' ')).filter(|w| !w.is_empty()) {
        if word.starts_with(PLACEHOLDER) {
            continue;
        }
        words += 1;
        tagged += usize::from(word.split_once('|').is_some_and(|(lemma, tag)| !lemma.is_empty() && !tag.is_empty()));
    }
    words > 0 && 2 * tagged > words
}

/// The scorer for data of `pair` whose target side is (or is not) [`lemmatised`].
pub fn scorer_for(pair: Pair, lemmatised: bool) -> Scorer {
    if pair == Pair::EnFr && !lemmatised { Scorer::Discomt2015 } else { Scorer::Wmt16 }
}

/// The task of the data file at `path`: `scorer` and `pair` where given; else the pair its name
/// says (`TEDdev.en-fr.data`; English–French for the DiscoMT 2015 scorer, which has no other)
/// and the scorer its layout says ([`scorer_for`]). Reads the file's first lines only; a remedy
/// is worded for `shell`.
pub fn task_of_file(path: &Path, scorer: Option<Scorer>, pair: Option<Pair>, shell: Shell) -> Result<Task> {
    let lemmatised = || -> Result<bool> {
        let mut reader = data::open_data(path)?;
        let mut targets = Vec::new();
        while targets.len() < SAMPLE_LINES && reader.advance()? {
            if let Some(columns) = data::columns(reader.line(), reader.terminated()) {
                targets.push(columns[3].to_owned());
            }
        }
        Ok(lemmatised(targets.iter().map(String::as_str)))
    };
    let (pair, scorer) = match (pair.or_else(|| Pair::from_file_name(path)), scorer) {
        (Some(pair), Some(scorer)) => (pair, scorer),
        (Some(pair), None) => (pair, scorer_for(pair, lemmatised()?)),
        (None, Some(Scorer::Discomt2015)) => (Pair::EnFr, Scorer::Discomt2015),
        // Tokenised text may be of any pair (WMT 2016/17 has untagged examples too): not guessed.
        (None, _) => {
            let remedy = shell.says("give --pair", "choose it");
            return Err(Error::whole_file(path, format!("the file's name does not say the language pair: {remedy}")));
        }
    };
    Task::new(scorer, pair).map_err(|m| Error::whole_file(path, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_says_the_scorer() {
        assert!(!lemmatised(["Il y a quelqu' un qui REPLACE_22 le titre ."]));
        assert!(lemmatised(["il|PRON avoir|VER:pres REPLACE_2 un|DET:ART chat|NOM .|SENT"]));
        assert!(!lemmatised(["a|b c d e"]), "a stray bar is not a layout");
        assert!(!lemmatised(["REPLACE_0"]));
        assert_eq!(scorer_for(Pair::EnFr, false), Scorer::Discomt2015);
        assert_eq!(scorer_for(Pair::EnFr, true), Scorer::Wmt16);
        assert_eq!(scorer_for(Pair::EnDe, false), Scorer::Wmt16);
    }

    #[test]
    fn a_files_task() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, target: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, format!("ce\tc'\tIt is .\t{target}\t0-0 1-1 2-2\n")).unwrap();
            path
        };
        let discomt = write("TEDdev.en-fr.data", "REPLACE_0 est .");
        let wmt = write("wmt16.en-fr.data", "REPLACE_0 être|VER .|SENT");
        let unnamed = write("test.data", "REPLACE_0 est .");
        let task = |path: &Path, scorer, pair| {
            task_of_file(path, scorer, pair, Shell::CommandLine).map(|t| (t.scorer, t.pair))
        };
        assert_eq!(task(&discomt, None, None).unwrap(), (Scorer::Discomt2015, Pair::EnFr));
        assert_eq!(task(&wmt, None, None).unwrap(), (Scorer::Wmt16, Pair::EnFr));
        assert_eq!(task(&unnamed, Some(Scorer::Discomt2015), None).unwrap(), (Scorer::Discomt2015, Pair::EnFr));
        let err = task(&unnamed, None, None).unwrap_err().to_string();
        assert!(err.contains("test.data: the file's name does not say the language pair: give --pair"), "{err}");
        assert_eq!(task(&discomt, Some(Scorer::Wmt16), None).unwrap(), (Scorer::Wmt16, Pair::EnFr), "as asked");
        assert_eq!(task(&unnamed, None, Some(Pair::EnDe)).unwrap(), (Scorer::Wmt16, Pair::EnDe));
        let lemmas = write("lemmas.data", "REPLACE_0 être|VER .|SENT");
        let err = task(&lemmas, None, None).unwrap_err().to_string();
        assert!(err.contains("lemmas.data") && err.contains("does not say the language pair: give --pair"), "{err}");
        let err = task(&unnamed, Some(Scorer::Wmt16), None).unwrap_err().to_string();
        assert!(err.contains("test.data: the file's name does not say the language pair"), "wmt16 has five: {err}");
        let err = task(&lemmas, Some(Scorer::Discomt2015), Some(Pair::EnDe)).unwrap_err().to_string();
        assert!(err.contains("scores en-fr only"), "{err}");
    }
}
