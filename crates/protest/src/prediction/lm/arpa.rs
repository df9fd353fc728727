//! The ARPA text format of backoff language models (docs/pronoun-prediction.md, "The baseline
//! and its language model"): what SRILM, IRSTLM and KenLM's `lmplz` write and KenLM reads.
//!
//! ```text
//! \data\
//! ngram 1=4
//! ngram 2=2
//!
//! \1-grams:
//! -1.2  <unk>  0
//! 0  <s>  -0.3
//! -0.5  </s>  0
//! -0.4  oui  -0.2
//!
//! \2-grams:
//! -0.1  <s> oui
//! -0.2  oui </s>
//!
//! \end\
//! ```
//!
//! Each entry is a log10 probability, the n-gram's words and, below the highest order, an
//! optional log10 backoff weight, separated by tabs or spaces. Comment lines (`#`) may come
//! before `\data\`. Like KenLM, the reader takes a missing `<unk>` to have log10 probability −100
//! and a positive log probability to be 0, saying so; it refuses a file without `<s>` or `</s>`,
//! an n-gram whose words are not all unigrams, an n-gram listed twice, and an n-gram whose
//! context is not listed — each refusal naming the file and line.

use super::model::{Builder, MAX_ORDER, Model, Refusal, WordId};
use crate::error::{Error, Result};
use crate::text_file::LineReader;
use std::io::{self, Write};
use std::path::Path;

/// The log10 probability KenLM gives `<unk>` when a model does not list it.
pub const MISSING_UNKNOWN_PROB: f32 = -100.0;

/// A model read from a file, with what the reader had to assume.
#[derive(Debug)]
pub struct Loaded {
    pub model: Model,
    /// Said once each, in KenLM's sense: the file is usable, but not quite as written.
    pub warnings: Vec<String>,
}

/// Reads an ARPA file, plain or gzip-compressed.
pub fn read(path: &Path) -> Result<Loaded> {
    let mut lines = crate::prediction::data::open_lines(path)?;
    let (counts, mut header_read) = read_counts(&mut lines)?;
    let order = counts.len();
    let mut builder = Builder::new(order);
    let mut positive = 0usize;
    let mut ids: Vec<WordId> = Vec::with_capacity(order);
    for (n, &count) in (1..=order).zip(&counts) {
        if !std::mem::take(&mut header_read) {
            expect_header(&mut lines, n)?;
        }
        for _ in 0..count {
            if !lines.advance()? || lines.line().trim().is_empty() {
                return Err(wrong_count(&lines, n, count));
            }
            let line = lines.line();
            let mut fields = line.split_ascii_whitespace();
            let mut prob = parse_weight(&lines, fields.next(), "log10 probability")?;
            if prob > 0.0 {
                positive += 1;
                prob = 0.0;
            }
            ids.clear();
            let mut first = None;
            for _ in 0..n {
                let Some(word) = fields.next() else {
                    return Err(lines.error(format!("a {n}-gram needs {n} words after its probability")));
                };
                if n == 1 {
                    first = Some(word);
                } else {
                    ids.push(builder.id(word).ok_or_else(|| {
                        lines.error(format!("'{word}' is not among the 1-grams, which must list every word"))
                    })?);
                }
            }
            let backoff = match fields.next() {
                None => 0.0,
                Some(_) if n == order => {
                    return Err(lines.error(format!("a {n}-gram of the highest order has no backoff weight")));
                }
                some => parse_weight(&lines, some, "log10 backoff weight")?,
            };
            if fields.next().is_some() {
                return Err(lines.error(format!("more fields than a {n}-gram's probability, words and backoff weight")));
            }
            let added = match first {
                Some(word) => builder.add_unigram(word, prob, backoff),
                None => builder.add(&ids, prob, backoff),
            };
            added.map_err(|refusal| match refusal {
                Refusal::Duplicate => lines.error("this n-gram is listed twice"),
                Refusal::ContextMissing => lines.error(format!(
                    "the context of this {n}-gram (its first {} words) is not listed as a {}-gram",
                    n - 1,
                    n - 1
                )),
            })?;
        }
    }
    expect_end(&mut lines, order, counts[order - 1])?;
    let (model, added_unknown) = builder
        .finish(MISSING_UNKNOWN_PROB)
        .map_err(|marker| Error::whole_file(path, format!("the model has no {marker} among its 1-grams")))?;
    let mut warnings = Vec::new();
    if added_unknown {
        warnings.push(format!("the model has no <unk>: unknown words get log10 probability {MISSING_UNKNOWN_PROB}"));
    }
    if positive > 0 {
        warnings.push(format!("{positive} positive log10 probabilities were taken as 0"));
    }
    Ok(Loaded { model, warnings })
}

/// The `\data\` section: how many n-grams of each order follow. Ends at an empty line, or at
/// the `\1-grams:` line (then read already: the second value is true).
fn read_counts(lines: &mut LineReader) -> Result<(Vec<usize>, bool)> {
    loop {
        match lines.next_line()? {
            Some(line) if line.trim() == "\\data\\" => break,
            Some(line) if line.trim().is_empty() || line.starts_with('#') => {}
            Some(line) if line.starts_with("mmap lm ") => {
                return Err(lines.error("a KenLM binary model: give the ARPA file it was built from"));
            }
            Some(_) => return Err(lines.error("expected \\data\\: not a language model in the ARPA format")),
            None => return Err(Error::whole_file(lines.path(), "empty: not a language model in the ARPA format")),
        }
    }
    let mut counts = Vec::new();
    let mut header_read = false;
    while let Some(line) = lines.next_line()? {
        let line = line.trim();
        if line.is_empty() {
            if counts.is_empty() {
                continue;
            }
            break;
        }
        if line == "\\1-grams:" && !counts.is_empty() {
            header_read = true;
            break;
        }
        let Some((n, count)) = line.strip_prefix("ngram ").and_then(|rest| rest.split_once('=')) else {
            return Err(lines.error("expected 'ngram N=COUNT' in the \\data\\ section"));
        };
        let (Ok(n), Ok(count)) = (n.trim().parse::<usize>(), count.trim().parse::<usize>()) else {
            return Err(lines.error("expected 'ngram N=COUNT' with whole numbers"));
        };
        if n != counts.len() + 1 {
            return Err(lines.error(format!("expected the count of {}-grams here", counts.len() + 1)));
        }
        if n > MAX_ORDER {
            return Err(lines.error(format!("a model of order {n}: orders up to {MAX_ORDER} are read")));
        }
        counts.push(count);
    }
    if counts.is_empty() {
        return Err(Error::whole_file(lines.path(), "the \\data\\ section gives no n-gram counts"));
    }
    Ok((counts, header_read))
}

/// The `\N-grams:` line, after any empty lines.
fn expect_header(lines: &mut LineReader, n: usize) -> Result<()> {
    let wanted = format!("\\{n}-grams:");
    loop {
        match lines.next_line()? {
            Some(line) if line.trim().is_empty() => {}
            Some(line) if line.trim() == wanted => return Ok(()),
            Some(_) => return Err(lines.error(format!("expected {wanted}"))),
            None => return Err(Error::whole_file(lines.path(), format!("the file ends before {wanted}"))),
        }
    }
}

/// `\end\`, after any empty lines; what follows it is not read.
fn expect_end(lines: &mut LineReader, order: usize, count: usize) -> Result<()> {
    loop {
        match lines.next_line()? {
            Some(line) if line.trim().is_empty() => {}
            Some(line) if line.trim() == "\\end\\" => return Ok(()),
            Some(_) => return Err(wrong_count(lines, order, count)),
            None => return Err(Error::whole_file(lines.path(), "the file ends without \\end\\")),
        }
    }
}

fn wrong_count(lines: &LineReader, n: usize, count: usize) -> Error {
    lines.error(format!("the \\data\\ section says there are {count} {n}-grams, but they end before this line"))
}

fn parse_weight(lines: &LineReader, field: Option<&str>, what: &str) -> Result<f32> {
    let field = field.ok_or_else(|| lines.error(format!("expected a {what}")))?;
    match field.parse::<f32>() {
        Ok(value) if !value.is_nan() && value != f32::INFINITY => Ok(value),
        _ => Err(lines.error(format!("'{field}' is not a {what}"))),
    }
}

/// Writes a model in the ARPA format, order by order: `counts` n-grams of each order, each
/// given by `entries(n, out)`, which writes the order's entries with [`write_entry`].
pub fn write(
    out: &mut dyn Write,
    counts: &[usize],
    mut entries: impl FnMut(usize, &mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    writeln!(out, "\\data\\")?;
    for (n, count) in (1..).zip(counts) {
        writeln!(out, "ngram {n}={count}")?;
    }
    for n in 1..=counts.len() {
        write!(out, "\n\\{n}-grams:\n")?;
        entries(n, out)?;
    }
    write!(out, "\n\\end\\\n")
}

/// One entry: `prob<TAB>words<TAB>backoff`, the backoff only below the highest order. Numbers
/// are written in the fewest digits that read back as the same single-precision value.
pub fn write_entry<'w>(
    out: &mut dyn Write,
    prob: f32,
    words: impl IntoIterator<Item = &'w str>,
    backoff: Option<f32>,
) -> io::Result<()> {
    write!(out, "{}", Weight(prob))?;
    let mut separator = '\t';
    for word in words {
        write!(out, "{separator}{word}")?;
        separator = ' ';
    }
    match backoff {
        Some(backoff) => writeln!(out, "\t{}", Weight(backoff)),
        None => writeln!(out),
    }
}

/// A weight as lmplz writes it, without a negative zero.
struct Weight(f32);

impl std::fmt::Display for Weight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0 == 0.0 { f.write_str("0") } else { write!(f, "{}", self.0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// tests/fixtures/lm/hand.arpa: a trigram model written by hand, with a trigram
    /// (`<s> elle est`) whose bigram suffix (`elle est`) is not listed.
    const HAND: &str = include_str!("../../../../../tests/fixtures/lm/hand.arpa");

    fn load(text: &str) -> Result<Loaded> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.arpa");
        std::fs::write(&path, text).unwrap();
        read(&path)
    }

    fn score(model: &Model, sentence: &str) -> f32 {
        model.sentence(super::super::words(sentence))
    }

    /// Each sentence's probability worked out by hand, word by word (the longest n-gram listed,
    /// plus the backoff weights of the longer contexts).
    #[test]
    fn the_hand_made_model_gives_the_hand_computed_probabilities() {
        let loaded = load(HAND).unwrap();
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        let model = loaded.model;
        assert_eq!(model.order(), 3);
        assert_eq!(model.counts(), [7, 6, 3]);
        let cases = [
            // <s> il: −0.4; <s> il est: −0.2; il est là: −0.15; là </s> −0.45 + b(est là) −0.15
            ("il est là", -0.4 - 0.2 - 0.15 - 0.45 - 0.15),
            // <s> elle −0.35; <s> elle est −0.05 (reached through the unlisted elle est);
            // est </s> −0.6 + b(elle est), which is not listed: 0
            ("elle est", -0.35 - 0.05 - 0.6),
            // est −0.9 + b(<s>) −0.5; il −0.8 + b(est) −0.2; </s> −0.7 + b(il) −0.3
            ("est il", -0.9 - 0.5 - 0.8 - 0.2 - 0.7 - 0.3),
            // mange is <unk>: −1.5 + b(il) −0.3 + b(<s> il) −0.1; </s> −0.7 (<unk> backs off by 0)
            ("il mange", -0.4 - 1.5 - 0.3 - 0.1 - 0.7),
            // </s> −0.7 + b(<s>) −0.5
            ("", -0.7 - 0.5),
            // <s> elle −0.35; </s> −0.7 + b(elle) 0 + b(<s> elle) 0
            ("elle", -0.35 - 0.7),
        ];
        for (sentence, expected) in cases {
            let got = score(&model, sentence);
            assert!((got - expected).abs() < 1e-5, "{sentence:?}: {got} ≠ {expected}");
        }
        assert_eq!(model.index("mange"), model.index("<unk>"));
        assert!(model.knows("là") && !model.knows("mange"));
    }

    #[test]
    fn states_keep_only_the_context_that_can_still_matter() {
        let model = load(HAND).unwrap().model;
        let begin = model.begin();
        let (_, after_il) = model.score(&begin, model.index("il"));
        assert_eq!(after_il.words(), [model.index("il"), model.index("<s>")]);
        // <unk> begins no n-gram: nothing before it can matter any more.
        let (_, after_unknown) = model.score(&after_il, model.index("mange"));
        assert_eq!(after_unknown.words(), [model.index("<unk>")]);
        let (_, after_est) = model.score(&after_unknown, model.index("est"));
        let (_, after_est_again) = model.score(&model.begin(), model.index("est"));
        // <s> est is not listed: what preceded est no longer matters, <s> or <unk>.
        assert_eq!(after_est, after_est_again);
        assert_eq!(after_est.words(), [model.index("est")]);
    }

    #[test]
    fn a_missing_unk_is_taken_as_kenlm_takes_it_and_said() {
        let text = HAND.replace("-1.5\t<unk>\t0\n", "").replace("ngram 1=7", "ngram 1=6");
        let loaded = load(&text).unwrap();
        assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
        assert!(loaded.warnings[0].contains("-100"));
        let expected = -0.4 - 100.0 - 0.3 - 0.1 - 0.7;
        assert!((score(&loaded.model, "il mange") - expected).abs() < 1e-4);
    }

    #[test]
    fn positive_probabilities_are_taken_as_zero_and_said() {
        let loaded = load(&HAND.replace("-0.05\t<s> elle est", "0.5\t<s> elle est")).unwrap();
        assert!(loaded.warnings[0].contains("1 positive"), "{:?}", loaded.warnings);
        assert!((score(&loaded.model, "elle est") - (-0.35 - 0.6)).abs() < 1e-5);
    }

    #[test]
    fn comments_spaces_and_a_header_without_empty_line_are_read() {
        let text = format!("# made by hand\n\n{}", HAND.replace('\t', " ").replace("ngram 3=3\n\n", "ngram 3=3\n"));
        let model = load(&text).unwrap().model;
        assert!((score(&model, "il est là") - (-1.35)).abs() < 1e-5);
    }

    #[test]
    fn broken_models_are_refused_naming_the_line() {
        let cases = [
            (HAND.replace("-0.35\t<s> elle\n", "").replace("ngram 2=6", "ngram 2=5"), "line 25", "context"),
            (HAND.replace("-0.45\tlà </s>", "-0.45\til est"), "line 21", "twice"),
            (HAND.replace("-0.45\tlà </s>", "-0.45\tlà ici"), "line 21", "'ici' is not among the 1-grams"),
            (HAND.replace("ngram 2=6", "ngram 2=7"), "line 22", "there are 7 2-grams"),
            (HAND.replace("ngram 2=6", "ngram 2=5"), "line 21", "expected \\3-grams:"),
            (HAND.replace("-0.9\test", "-0,9\test"), "line 11", "'-0,9' is not a log10 probability"),
            (HAND.replace("-0.2\t<s> il est", "-0.2\t<s> il est\t-0.1"), "line 24", "no backoff weight"),
            (HAND.replace("-0.3\til est\t-0.25", "-0.3\til est\t-0.25\tx"), "line 17", "more fields"),
            (HAND.replace("-0.3\til est\t-0.25", "-0.3\til"), "line 17", "needs 2 words"),
            ("\\data\\\nngram 1=2\n\n\\1-grams:\n-1\t<s>\n-1\tun\n\n\\end\\\n".to_string(), "", "no </s>"),
            ("\\data\\\nngram 1=2\n\n\\1-grams:\n-1\t</s>\n-1\tun\n\n\\end\\\n".to_string(), "", "no <s>"),
            (HAND.replace("\\end\\\n", ""), "", "without \\end\\"),
            (HAND.replace("ngram 2=6", "ngram 3=6"), "line 3", "count of 2-grams"),
            ("hello\n".to_string(), "line 1", "not a language model"),
            (String::new(), "", "not a language model"),
            ("\\data\\\nngram 9=1\n".to_string(), "line 2", "count of 1-grams"),
        ];
        for (text, place, message) in cases {
            let error = load(&text).unwrap_err().to_string();
            assert!(error.contains(place) && error.contains(message), "{message}: {error}");
            assert!(error.contains("model.arpa"), "{error}");
        }
    }

    #[test]
    fn entries_are_written_as_lmplz_writes_them() {
        let mut out = Vec::new();
        write(&mut out, &[2, 1], |n, out| match n {
            1 => {
                write_entry(out, -0.0, ["<s>"], Some(-0.875))?;
                write_entry(out, -1.25, ["</s>"], Some(0.0))
            }
            _ => write_entry(out, -0.5, ["<s>", "</s>"], None),
        })
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "\\data\\\nngram 1=2\nngram 2=1\n\n\\1-grams:\n0\t<s>\t-0.875\n-1.25\t</s>\t0\n\n\\2-grams:\n-0.5\t<s> \
             </s>\n\n\\end\\\n"
        );
    }
}
