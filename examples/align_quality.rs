//! How well the built-in aligner reproduces the DiscoMT news corpus's shipped source↔MT
//! alignment: the MT output is aligned afresh (trained on the source paired with both the
//! reference and the MT output) and compared link by link, for all links and for the links of
//! source `it` / `they`. Figures are recorded in docs/alignment.md.
//!
//!     cargo run --release --example align_quality -- [DATA_DIR]
//!
//! DATA_DIR defaults to the nearest `shared/data/discomt-news-en-fr` above the current folder.

use protest::align::quality::{self, Agreement, LinkScore};
use protest::align::{Aligner, Settings, grow_diag_final_and};
use protest::alignment::{self, Links};
use protest::tokens;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let data = match std::env::args().nth(1) {
        Some(d) => PathBuf::from(d),
        None => find_data().ok_or_else(|| anyhow::anyhow!("no shared/data/discomt-news-en-fr above here; pass it"))?,
    };
    let source = lines(&data.join("pronoun-test.tok.en"))?;
    let reference = lines(&data.join("pronoun-test.tok.fr"))?;
    let mt = lines(&data.join("mt-output.fr"))?;
    let (shipped, dropped) = shipped_alignment(&data.join("mt-output.en-fr.alig"), &source, &mt)?;
    println!(
        "{} sentences; {dropped} shipped MT links point past the end of their sentence and are ignored",
        source.len()
    );

    let started = Instant::now();
    let pairs = source.iter().zip(&reference).chain(source.iter().zip(&mt)).map(|(s, t)| (s.as_str(), t.as_str()));
    let aligner = Aligner::train(pairs, &Settings::default());
    let trained = started.elapsed();
    let directional: Vec<(Links, Links)> = source.iter().zip(&mt).map(|(s, t)| aligner.directional(s, t)).collect();
    let symmetric: Vec<Links> = source
        .iter()
        .zip(&mt)
        .zip(&directional)
        .map(|((s, t), (f, b))| grow_diag_final_and(tokens::token_count(s), tokens::token_count(t), f, b))
        .collect();
    let total = started.elapsed();
    println!(
        "training on {} sentence pairs: {:.2} s; training and aligning the MT output: {:.2} s",
        2 * source.len(),
        trained.as_secs_f64(),
        total.as_secs_f64()
    );

    let pronouns: Vec<(usize, u32)> = source
        .iter()
        .enumerate()
        .flat_map(|(i, s)| {
            tokens::tokens(s)
                .enumerate()
                .filter(|(_, w)| matches!(w.to_lowercase().as_str(), "it" | "they"))
                .map(move |(t, _)| (i, t as u32))
        })
        .collect();
    let is_pronoun = |sentence: usize, token: u32| pronouns.binary_search(&(sentence, token)).is_ok();
    println!("source it/they tokens: {}\n", pronouns.len());
    println!("{:<26} {:>22} {:>22} {:>10}", "alignment", "all links P / R / F1", "it/they P / R / F1", "it/they agree");
    let forward: Vec<Links> = directional.iter().map(|d| d.0.clone()).collect();
    let backward: Vec<Links> = directional.iter().map(|d| d.1.clone()).collect();
    for (name, links) in
        [("source→MT (forward)", &forward), ("MT→source (backward)", &backward), ("grow-diag-final-and", &symmetric)]
    {
        let all = quality::link_score(links, &shipped, |_, _| true);
        let pron = quality::link_score(links, &shipped, is_pronoun);
        let agree = quality::target_agreement(links, &shipped, pronouns.iter().copied());
        println!("{name:<26} {:>22} {:>22} {:>10}", prf(all), prf(pron), share(agree));
    }
    Ok(())
}

/// The shipped alignment without links outside their sentence; also how many were dropped.
fn shipped_alignment(path: &Path, source: &[String], target: &[String]) -> anyhow::Result<(Vec<Links>, usize)> {
    let mut dropped = 0;
    let mut out = Vec::with_capacity(source.len());
    for (i, line) in lines(path)?.iter().take(source.len()).enumerate() {
        let links =
            alignment::parse_line(line).map_err(|m| anyhow::anyhow!("{}: line {}: {m}", path.display(), i + 1))?;
        let (n, m) = (tokens::token_count(&source[i]) as u32, tokens::token_count(&target[i]) as u32);
        let before = links.len();
        let kept: Links = links.into_iter().filter(|&(s, t)| s < n && t < m).collect();
        dropped += before - kept.len();
        out.push(kept);
    }
    Ok((out, dropped))
}

fn prf(s: LinkScore) -> String {
    format!("{:.1} / {:.1} / {:.1}", 100.0 * s.precision(), 100.0 * s.recall(), 100.0 * s.f1())
}

fn share(a: Agreement) -> String {
    format!("{:.1} %", 100.0 * a.share())
}

fn lines(path: &Path) -> anyhow::Result<Vec<String>> {
    Ok(protest::import::text::read_lines(path)?)
}

fn find_data() -> Option<PathBuf> {
    let here = std::env::current_dir().ok()?;
    here.ancestors().map(|a| a.join("shared/data/discomt-news-en-fr")).find(|p| p.is_dir())
}
