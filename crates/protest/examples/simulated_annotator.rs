//! A stand-in for a person annotating a batch, so that the whole study of docs/batches.md (plan,
//! export, annotate, merge, adjudicate, report) can be replayed by a script
//! (`scripts/replay-study`). Its judgements are **not** human judgements: a candidate counts as
//! correct when its pronoun, read as the automatic match reads it, is the reference's, and each
//! persona then errs in its own way, drawn from a seed.
//!
//! ```sh
//! cargo run -p protest --example simulated_annotator -- MASTER BATCH PERSONA SEED
//! ```
//!
//! PERSONA is `lenient` (says ✓ to a third of the wrong ones), `strict` (✗ to a fifth of the
//! right ones), `careful` (one in twenty either way) or `adjudicator` (never errs). A candidate
//! with nothing aligned to its pronoun is tagged `bad_translation` (cannot be judged) half the
//! time. Every record is checked against the conflict rules as annotator mode checks it.

use protest::annotate::conflicts;
use protest::annotate::edit::{self, Edit};
use protest::batches::{export, plan};
use protest::metrics::auto_eval::matching::Comparison;
use protest::model::{CorpusRole, Judgement, Master, MatchRule, Record, Role, tags};
use protest::store::batch_file::Batch;
use protest::store::{Store, master_file};
use rand::{Rng, SeedableRng};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [master, batch, persona, seed] = &args[..] else {
        eprintln!("usage: simulated_annotator MASTER BATCH lenient|strict|careful|adjudicator SEED");
        return ExitCode::FAILURE;
    };
    let errs: (f64, f64) = match persona.as_str() {
        "lenient" => (0.33, 0.0),
        "strict" => (0.0, 0.2),
        "careful" => (0.05, 0.05),
        "adjudicator" => (0.0, 0.0),
        other => {
            eprintln!("unknown persona '{other}'");
            return ExitCode::FAILURE;
        }
    };
    match annotate(master.as_ref(), batch.as_ref(), errs, seed.parse().unwrap_or(0)) {
        Ok(n) => {
            println!("{batch}: {n} candidates annotated ({persona}, simulated)");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Whether a master candidate's pronoun is the reference's, as the automatic match reads it;
/// `None` when nothing is aligned to it.
fn truth(master: &Master, id: protest::model::CandidateId) -> Option<bool> {
    let candidate = master.candidate(id)?;
    let (_, category) = master.example_of(candidate)?;
    let comparison = Comparison::new(MatchRule::MinimalTokens, &master.languages.target);
    let words = |c: &protest::model::Candidate| {
        master.corpus(c.corpus).map(|corpus| comparison.candidate(corpus, c, category.anaphoric).pronoun)
    };
    let own = words(candidate)?;
    if own.is_empty() {
        return None;
    }
    let corpus = master.corpus(candidate.corpus)?;
    if corpus.role == CorpusRole::Reference {
        return Some(true);
    }
    let reference = master
        .candidates_of(candidate.example)
        .find(|c| master.corpus(c.corpus).is_some_and(|k| k.role == CorpusRole::Reference))?;
    Some(words(reference)? == own)
}

fn annotate(
    master_path: &std::path::Path,
    batch_path: &std::path::Path,
    (say_yes_wrongly, say_no_wrongly): (f64, f64),
    seed: u64,
) -> Result<usize, Box<dyn std::error::Error>> {
    let master = master_file::load(master_path)?;
    let (mut store, _) = Store::<Batch>::open(batch_path)?;
    let who = store.doc().annotator().id;
    let task_set = master.task_set(store.doc().task_set).ok_or("no such task set")?;
    let in_master = export::layout(&master, task_set, who).order;
    let mut rng = plan::rng(seed, u64::from(who.0));
    let mut random = rand_chacha::ChaCha8Rng::seed_from_u64(rng.random());
    let order = store.doc().order();
    for (local, &original) in order.iter().zip(&in_master) {
        let content = store.master();
        let candidate = content.candidate(*local).ok_or("a batch candidate is missing")?.clone();
        let category = content.example_of(&candidate).map(|(_, c)| c.clone()).ok_or("no example")?;
        let now = chrono::Utc::now();
        let mut record = Record::new(*local, who, now);
        let apply = |r: Record, e: Edit| edit::apply(content, *local, who, Some(&r), e, now);
        match truth(&master, original) {
            None if random.random_bool(0.5) => record = apply(record, Edit::AddTag(tags::BAD_TRANSLATION.into()))?,
            found => {
                let right = found.unwrap_or(false);
                let yes = if right { !random.random_bool(say_no_wrongly) } else { random.random_bool(say_yes_wrongly) };
                let judgement = if yes { Judgement::Yes } else { Judgement::No };
                record = apply(record, Edit::Judge(Role::Pronoun, judgement))?;
                if yes {
                    for &t in &candidate.pronoun {
                        record = apply(record, Edit::ToggleToken(Role::Pronoun, t))?;
                    }
                }
                if category.anaphoric && candidate.antecedents.iter().all(|h| !h.is_empty()) {
                    record = apply(record, Edit::Judge(Role::Antecedent, Judgement::Yes))?;
                    for &t in candidate.antecedents.iter().flatten() {
                        if !record.selected.antecedent.contains(&t) {
                            record = apply(record, Edit::ToggleToken(Role::Antecedent, t))?;
                        }
                    }
                }
                if category.politeness {
                    record = apply(record, Edit::AddTag(tags::POLITENESS_UNKNOWN.into()))?;
                }
            }
        }
        let record = conflicts::settle(&record, conflicts::failing(content, &record));
        store.put(record)?;
    }
    store.close()?;
    Ok(order.len())
}
