//! APT over a master (`protest apt-master`, the report's APT tables) has the semantics of
//! `protest apt CONFIG` with the French preset: the configuration written from the master gives
//! the same case for every candidate, on the sample and on the full news corpus.

use crate::common::{ok, project, shared_data};
use protest::ingest::from_texts::{self, Inputs, TranslationInput};
use protest::ingest::texts;
use protest::metrics::report::metrics::{Judges, metrics};
use protest::model::alignment::format_line;
use protest::model::{AnnotatorId, CorpusRole, Judgement, Languages, Master, Record};
use protest::scorers::apt::{self, AptConfig, Case, Preset, evaluate_master};
use protest::store::master_file;
use std::fs;
use std::path::Path;

/// Compares, for every MT system of `master`, its cases with those of `protest apt` run on the
/// configuration written from it, candidate by candidate; returns the cases compared.
fn consistent(master: &Master, dir: &Path) -> Vec<Case> {
    let ours = evaluate_master(master, &Preset::for_language(&master.languages.target));
    let mut cases = Vec::new();
    for system in master.corpora.iter().filter(|c| c.role == CorpusRole::System) {
        let ini = protest::workflow::metrics::apt_config(master, system.id, dir).unwrap();
        let mut found = Vec::new();
        apt::evaluate(&AptConfig::read(&ini).unwrap(), |instance, case| {
            found.push((instance.sentence, instance.position, case));
            Ok(())
        })
        .unwrap();
        assert_eq!(found.len(), master.examples.len(), "one instance per example");
        for (example, &(sentence, position, case)) in master.examples.iter().zip(&found) {
            assert_eq!((sentence, position), (example.sentence, example.token), "example {}", example.no);
            let candidate = master.candidates_of(example.no).find(|c| c.corpus == system.id).unwrap();
            let master_case = ours.cases.iter().find(|c| c.candidate == candidate.id).unwrap().case;
            assert_eq!(master_case, case, "example {} of '{}'", example.no, system.name);
            cases.push(case);
        }
    }
    cases
}

#[test]
fn apt_over_the_sample_master_is_protest_apt_with_the_french_preset() {
    let dir = tempfile::tempdir().unwrap();
    let sample = project("sample_batches/sample.master.json");
    let master = master_file::load(&sample).unwrap();
    let cases = consistent(&master, dir.path());
    assert_eq!(cases.len(), 60);
    let count = |c: Case| cases.iter().filter(|&&x| x == c).count();
    // `il est` against the reference's `c' est` is now equivalent (ce ~ il), no longer different.
    assert_eq!(Case::ALL.map(count), [23, 1, 30, 2, 3, 1]);

    // The command writes the same configuration, and `protest apt` runs it.
    let out = ok(dir.path(), &["apt-master", sample.to_str().unwrap(), "--write-config", "cfg"]);
    assert_eq!(out, "created the folder cfg\nmt: protest apt cfg/mt.ini\n");
    ok(&dir.path().join("cfg"), &["apt", "mt.ini"]);
    assert!(dir.path().join("cfg/mt.score").is_file() && dir.path().join("cfg/mt.detail").is_file());
}

#[test]
fn apt_over_the_full_news_corpus_master_is_protest_apt() {
    let Some(data) = shared_data("discomt-news-en-fr") else { return };
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let source = texts::read_corpus(&data.join("pronoun-test.tok.en")).unwrap();
    // The shipped MT alignment has 40 links past the end of their sentence, which import refuses.
    for (text, alignment) in
        [("pronoun-test.tok.fr", "pronoun-test.tok.en-fr.alig"), ("mt-output.fr", "mt-output.en-fr.alig")]
    {
        let target = texts::read_corpus(&data.join(text)).unwrap();
        let (links, _) = texts::read_alignment_lenient(&data.join(alignment), &source, &target).unwrap();
        fs::write(at(alignment), links.iter().map(|l| format_line(l) + "\n").collect::<String>()).unwrap();
    }
    // One example per source it/they.
    let mut suite = "@category\tit_they\tother\t-\n".to_owned();
    let mut n = 0;
    for (s, sentence) in source.iter().enumerate() {
        for (t, word) in sentence.split(' ').enumerate() {
            if matches!(word.to_lowercase().as_str(), "it" | "they") {
                n += 1;
                suite += &format!("{n}\t{s}\t{t}\t{word}\tit_they\t-\n");
            }
        }
    }
    fs::write(at("suite.tsv"), suite).unwrap();
    let inputs = Inputs {
        source: data.join("pronoun-test.tok.en"),
        reference: Some(TranslationInput {
            name: "reference".into(),
            text: data.join("pronoun-test.tok.fr"),
            alignment: at("pronoun-test.tok.en-fr.alig"),
        }),
        systems: vec![TranslationInput {
            name: "mt".into(),
            text: data.join("mt-output.fr"),
            alignment: at("mt-output.en-fr.alig"),
        }],
        documents: Some(data.join("doc-boundaries")),
        suite: at("suite.tsv"),
        languages: Languages::default(),
        description: String::new(),
        order: Default::default(),
        out_of_range: Default::default(),
    };
    let master = from_texts::build(&inputs, "news".into(), chrono::Utc::now()).unwrap();
    let config = at("config");
    fs::create_dir(&config).unwrap();
    let cases = consistent(&master, &config);
    assert_eq!(cases.len(), 1604);
    let count = |c: Case| cases.iter().filter(|&&x| x == c).count();
    // Without the list and the correction (the earlier apt-master) it was 570/70/750/23/182/9.
    assert_eq!(Case::ALL.map(count), [534, 88, 768, 23, 182, 9]);
}

#[test]
fn a_shared_complementiser_is_no_longer_the_same_pronoun() {
    // The tiny master's pleonastic "It" (example 2): the reference says "qu' il", the MT
    // "qu' elle", both aligned to the two tokens; the researcher judges the MT wrong.
    let mut master = master_file::load(&project("tests/fixtures/tiny/tiny.master.json")).unwrap();
    let example = master.examples.iter().find(|e| e.no.0 == 2).unwrap().clone();
    for corpus in master.corpora.iter_mut().filter(|c| c.role.is_translation()) {
        let pronoun = if corpus.role == CorpusRole::Reference { "il" } else { "elle" };
        corpus.sentences[example.sentence as usize] = format!("qu' {pronoun} pleut .");
        let mut links: Vec<Vec<(u32, u32)>> =
            corpus.alignment.as_ref().unwrap().sentences().map(<[_]>::to_vec).collect();
        assert_eq!(example.token, 0, "It is raining .");
        links[example.sentence as usize] = vec![(0, 0), (0, 1), (2, 2), (3, 3)];
        corpus.alignment = Some(protest::model::alignment::Alignment::new(links));
    }
    for candidate in master.candidates.iter_mut().filter(|c| c.example == example.no) {
        candidate.pronoun = (0..2).map(|t| protest::model::TokenRef::new(example.sentence, t)).collect();
    }
    let mt = master.candidates.iter().find(|c| c.example == example.no && c.corpus.0 == 2).unwrap().id;
    let mut record = Record::new(mt, AnnotatorId::RESEARCHER, master.created);
    record.pronoun = Judgement::No;
    master.records.put(record);
    master.reindex();
    assert_eq!(protest::store::validate::master(&master), vec![]);

    let m = metrics(&master, Judges::Verdicts);
    let case = m.apt.cases.iter().find(|c| c.candidate == mt).unwrap().case;
    assert_eq!(case, Case::Different, "qu' elle against qu' il: different pronouns");
    // apt-vs-human: case 3, judged ✗, no disagreement.
    let total = &m.agreement.total;
    assert_eq!((total.cases, total.incorrect, total.disagreement_count()), ([0, 0, 1], 1, 0));
}
