//! Headless tests (egui_kittest) of the report view, the automatic reference match and the
//! add-system dialog: click as a researcher would, then compare with what the library and the
//! command line give and read the file back from disk.

use super::*;
use super::{Fixture, click, click_to_work, harness, press, saved, tiny, type_into};
use crate::dialogs::add_system::AddSystemDialog;
use crate::panels::report_table::{self, cell_name};
use crate::panels::score_chart;
use egui::{Key, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use protest::batches::merge::{self, Incoming};
use protest::metrics::report::metrics::Judges;
use protest::metrics::report::{self, Section, Table, TableKind};
use protest::model::{CandidateId, Master, Outcome};
use protest::store::batch_file;
use protest::store::master_file;
use std::time::{Duration, Instant};

fn sample_batches() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sample_batches")
}

/// The sample master with both annotated sample batches merged (sample_batches/README.md: the
/// master knows their task set, then `batch import`), saved in a temporary directory.
fn merged_sample() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sample.master.json");
    let mut master = master_file::load(&sample_batches().join("sample.master.json")).unwrap();
    let incoming: Vec<Incoming> = ["anna", "ben"]
        .iter()
        .map(|name| {
            let path = sample_batches().join(format!("sample.batch-1-{name}.json"));
            Incoming { batch: batch_file::load(&path).unwrap(), path }
        })
        .collect();
    let merge = merge::prepare(&master, &incoming).unwrap();
    assert_eq!(merge::apply(&mut master, &merge), 150);
    master_file::save(&master, &path).unwrap();
    Fixture { _dir: dir, path }
}

/// A harness tall enough to show the longest table whole.
fn tall_harness(path: &Path) -> Harness<'static, App> {
    let mut h = harness(path, None);
    h.set_size(Vec2::new(1400.0, 1600.0));
    h.settle();
    h
}

fn section(h: &mut Harness<App>, section: Section) {
    click(h, section.label());
    assert_eq!(h.state().report.section, section);
}

/// Every value of the section's tables, as the library computes them for the master on disk, is
/// in the view under its row and column.
fn shows_the_library_tables(h: &Harness<App>, path: &Path, section: Section) {
    shows_tables(h, report::tables(&saved(path), section.tables()));
}

/// Every value of these tables is in the view under its row and column.
fn shows_tables(h: &Harness<App>, tables: Vec<Table>) {
    for table in tables {
        if table.rows.is_empty() {
            // A table without rows says why in its first note.
            let why = report_table::shown(&table.notes[0]);
            assert!(h.query_by_label(&why).is_some(), "{}: no rows and no note “{why}”", table.name);
            continue;
        }
        let labels = table.full_labels();
        for (row, label) in table.rows.iter().zip(&labels) {
            for (cell, column) in row.cells.iter().zip(&table.columns) {
                let name = cell_name(label, &column.flat_label(), cell);
                assert!(has_cell(h, &name, &cell.plain()), "{}: no cell “{name}”", table.name);
            }
        }
    }
}

/// Whether a table cell showing `value` is named `name` (a label's text is its accessible value;
/// the name says where it is).
fn has_cell(h: &Harness<App>, name: &str, value: &str) -> bool {
    h.query_all_by_value(&report_table::shown(value)).any(|n| n.accesskit_node().label().as_deref() == Some(name))
}

#[test]
fn the_report_view_shows_the_numbers_of_protest_report_and_computes_them_once() {
    let f = merged_sample();
    let mut h = tall_harness(&f.path);
    click(&mut h, "Report");
    for s in [Section::Results, Section::Agreement, Section::Scores] {
        section(&mut h, s);
        shows_the_library_tables(&h, &f.path, s);
    }
    // Spot checks against the numbers checked by hand (sample_batches/README.md).
    section(&mut h, Section::Agreement);
    assert!(has_cell(&h, "Pronoun · Items: 30", "30"));
    assert!(has_cell(&h, "Pronoun · Disagreements: 4", "4"));
    assert!(has_cell(&h, "Antecedent · Disagreements: 1", "1"));
    section(&mut h, Section::Results);
    assert!(has_cell(&h, "Total · Count: 120", "120"));
    assert!(h.query_by_label(score_chart::LABEL).is_none(), "the chart is with the scores");
    section(&mut h, Section::Scores);
    assert!(h.query_by_label(score_chart::LABEL).is_some());
    h.run_steps(10);
    assert_eq!(h.state().report.computations, 1, "not recomputed every frame");

    // A round of the match is a change; its statistics and rounds show.
    section(&mut h, Section::AutoMatch);
    click(&mut h, "Run automatic evaluation");
    shows_the_library_tables(&h, &f.path, Section::AutoMatch);
    assert_eq!(h.state().report.computations, 2);

    // So is a judgement: the researcher judges a pronoun.
    click(&mut h, "Categories");
    click(&mut h, "Pleonastic “it”: 10 new");
    press(&mut h, Key::Y);
    press(&mut h, Key::Escape);
    click(&mut h, "Report");
    section(&mut h, Section::Results);
    assert_eq!(h.state().report.computations, 3);
    shows_the_library_tables(&h, &f.path, Section::Results);
    assert!(has_cell(&h, "Pleonastic “it” · Pronoun Researcher ✓: 1", "1"));
}

#[test]
fn the_metrics_section_sets_apt_against_the_human_verdicts() {
    let f = merged_sample();
    let mut h = tall_harness(&f.path);
    click(&mut h, "Report");
    section(&mut h, Section::Metrics);
    shows_the_library_tables(&h, &f.path, Section::Metrics);
    // Checked against `protest report -t apt -t apt-vs-human` on the merged sample.
    // APT-A 0.383 since APT reads the French pronoun among the aligned words (0.400 when it read every aligned word).
    assert!(has_cell(&h, "mt · APT-A: 0.383", "0.383"));
    assert!(has_cell(&h, "mt · APT case 3: 30", "30"));
    assert!(has_cell(&h, "mt · Human score: 0.636", "0.636"));
    assert!(has_cell(&h, "Addressee reference / Deictic singular “you” · Disagreement %: 100.0", "100.0"));
    assert!(has_cell(&h, "Total · Disagreement n: 15", "15"));
    // Two translations are too few to correlate; the view says so.
    assert!(h.query_by_label_contains("a correlation needs at least 3 translations").is_some());

    // Against one annotator's own judgements instead of the verdict.
    let master = saved(&f.path);
    let anna = master.annotators.iter().find(|a| a.name == "Anna").unwrap().id;
    let anna_tables = report::tables_judged_by(&master, Section::Metrics.tables(), Judges::Annotator(anna));
    assert_ne!(anna_tables, report::tables(&master, Section::Metrics.tables()), "the choice matters");
    click(&mut h, "Human judgements:");
    click(&mut h, "Anna's own");
    h.settle();
    assert_eq!(h.state().report.judges, Judges::Annotator(anna));
    shows_tables(&h, anna_tables);
    click(&mut h, "Human judgements:");
    click(&mut h, "the verdict (adjudicator, researcher, annotators)");
    h.settle();
    shows_the_library_tables(&h, &f.path, Section::Metrics);

    // A judgement changes the human side: the researcher judges a pronoun wrong.
    let before = report::tables(&saved(&f.path), [TableKind::named("apt").unwrap()]).remove(0);
    click(&mut h, "Categories");
    click(&mut h, "Pleonastic “it”: 10 new");
    press(&mut h, Key::N);
    press(&mut h, Key::Escape);
    click(&mut h, "Report");
    let after = report::tables(&saved(&f.path), [TableKind::named("apt").unwrap()]).remove(0);
    assert_ne!(before.rows, after.rows);
    shows_the_library_tables(&h, &f.path, Section::Metrics);
}

#[test]
fn the_automatic_match_is_stored_and_the_browser_shows_what_still_needs_a_human() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    let filter = "Only those needing a human";
    assert!(h.get_by_label(filter).accesskit_node().is_disabled(), "no round yet");

    click(&mut h, "Report");
    section(&mut h, Section::AutoMatch);
    click_to_work(&mut h, "Run automatic evaluation", "Running the automatic evaluation…");
    let master = saved(&f.path);
    assert_eq!(master.auto_eval.rounds.len(), 1);
    assert_eq!(master.auto_eval.entry(CandidateId(4)).map(|e| e.outcome), Some(Outcome::Match));
    // Candidate 2 ("Elle … bicyclette") is settled by the agreement judge.
    assert_eq!(master.auto_eval.entry(CandidateId(2)).map(|e| e.outcome), Some(Outcome::Agreement));
    let summary = "Round 1: 1 of 3 MT candidates match, 1 agree and 0 disagree with their antecedent (2 settled this \
                   round); 1 left to humans.";
    assert!(h.query_all_by_label(summary).count() >= 1, "the notice and the view say what it settled");
    shows_the_library_tables(&h, &f.path, Section::AutoMatch);

    click(&mut h, "Categories");
    assert!(h.query_by_label("Pleonastic “it”: 2 new").is_some());
    click(&mut h, filter);
    // Candidate 4 (MT "Il" = reference "Il") is settled; the reference's own candidate 3 is not.
    assert!(h.query_by_label("Pleonastic “it”: 1 new").is_some());
    click(&mut h, "Pleonastic “it”: 1 new");
    match &h.state().view {
        View::Example(walk) => assert_eq!(walk.set, [CandidateId(3)]),
        View::Browser | View::Report | View::Predictions => panic!("the set did not open"),
    }
    assert!(h.query_by_label_contains("matched automatically").is_none());
    press(&mut h, Key::Escape);

    click(&mut h, filter);
    click(&mut h, "Pleonastic “it”: 2 new");
    press(&mut h, Key::ArrowRight);
    assert!(h.query_by_label("✔ matched automatically: same words as the reference translation (round 1)").is_some());
    press(&mut h, Key::Escape);
    click(&mut h, "Inter-sentential “it”, subject: 2 new");
    press(&mut h, Key::ArrowRight);
    let agrees =
        "✔ correct by agreement: 'elle' (feminine singular) and 'bicyclette' (feminine singular) agree (round 1)";
    assert!(h.query_by_label(agrees).is_some(), "the header says what the judge settled");
    press(&mut h, Key::Escape);

    // The menu runs another round.
    click(&mut h, "Evaluate");
    click(&mut h, "Run automatic evaluation");
    assert_eq!(saved(&f.path).auto_eval.rounds.len(), 2);
}

/// The tiny fixture's source as an MT system might print it in French: untokenised.
pub(super) const NEW_OUTPUT: &str = "J'ai un vélo.\nElle est rouge.\nIl pleut.\nBienvenue !\n";

/// The tiny fixture's MT system writing "un bateau … Elle": a feminine pronoun for a masculine
/// noun, which the agreement judge settles as incorrect.
fn tiny_with_a_disagreement() -> Fixture {
    let f = tiny();
    std::fs::write(&f.path, TINY.replace("J' ai une bicyclette .", "J' ai un bateau .")).unwrap();
    f
}

#[test]
fn a_disagreement_is_shown_and_counted_apart_from_the_human_verdict_that_overrules_it() {
    let f = tiny_with_a_disagreement();
    let mut h = tall_harness(&f.path);
    click(&mut h, "Evaluate");
    click(&mut h, "Run automatic evaluation");
    assert_eq!(saved(&f.path).auto_eval.entry(CandidateId(2)).map(|e| e.outcome), Some(Outcome::Disagreement));

    // Settled: the browser's filter leaves it out, as it does a match.
    click(&mut h, "Only those needing a human");
    assert!(h.query_by_label("Inter-sentential “it”, subject: 1 new").is_some(), "the reference's candidate only");
    click(&mut h, "Only those needing a human");

    // The report counts it as incorrect by the judge, not as a human verdict.
    click(&mut h, "Report");
    section(&mut h, Section::Scores);
    assert!(has_cell(&h, "mt · Incorrect disagreement: 1", "1"));
    assert!(has_cell(&h, "mt · Incorrect judged: 0", "0"));
    section(&mut h, Section::AutoMatch);
    assert!(has_cell(&h, "mt · Disagreement ✗: 1", "1"));
    assert!(has_cell(&h, "mt · Judge overruled: 0", "0"));

    // The header says so; then the researcher judges the pronoun correct, which counts instead.
    click(&mut h, "Categories");
    click(&mut h, "Inter-sentential “it”, subject: 2 new");
    press(&mut h, Key::ArrowRight);
    let disagrees = "✖ incorrect by agreement: 'elle' (feminine singular) and 'bateau' (masculine singular) disagree in \
                     gender (round 1)";
    assert!(h.query_by_label(disagrees).is_some(), "the header says what the judge settled");
    press(&mut h, Key::Y);
    press(&mut h, Key::Escape);
    click(&mut h, "Report");
    section(&mut h, Section::Scores);
    assert!(has_cell(&h, "mt · Correct judged: 1", "1"));
    assert!(has_cell(&h, "mt · Incorrect disagreement: 0", "0"));
    section(&mut h, Section::AutoMatch);
    assert!(has_cell(&h, "mt · Judge overruled: 1", "1"));
    shows_the_library_tables(&h, &f.path, Section::AutoMatch);
}

fn open_add_system(h: &mut Harness<App>, output: &Path, name: &str) {
    click(h, "File");
    click(h, "Add MT system…");
    type_into(h, "Output", output.to_str().unwrap());
    type_into(h, "Name", name);
}

/// Clicks "Check and align" and lets frames run until the worker is done.
pub(super) fn check_and_wait(h: &mut Harness<App>) {
    h.get_by_label("Check and align").click();
    let started = Instant::now();
    loop {
        h.step();
        if !h.state().modal.as_ref().and_then(Modal::get::<AddSystemDialog>).is_some_and(AddSystemDialog::is_working) {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "the worker did not finish");
        std::thread::sleep(Duration::from_millis(20));
    }
    h.settle();
}

/// Adds `text` as the system `name` through the dialog: the report, with these lines, comes
/// first and nothing is added before the user says so. The master as saved afterwards.
fn add_through_the_dialog(h: &mut Harness<App>, f: &Fixture, text: &str, name: &str, report: &[&str]) -> Master {
    let output = f.path.with_file_name(format!("{name}.fr"));
    std::fs::write(&output, text).unwrap();
    open_add_system(h, &output, name);
    check_and_wait(h);
    assert!(h.query_by_label(&format!("Ready to add “{name}”")).is_some());
    for line in report {
        assert!(h.query_by_label(line).is_some(), "{line}");
    }
    assert_eq!(saved(&f.path).corpora.len(), 3, "nothing is added before the user says so");
    // Adding saves the whole master: off the UI thread.
    click_to_work(h, "Add to the master", &format!("Adding the system “{name}”…"));
    saved(&f.path)
}

#[test]
fn a_system_is_added_from_an_untokenised_file() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    let report = ["4 sentences, 3 candidates (ids 7–9)", "pronoun aligned in 3 of 3 candidates"];
    let master = add_through_the_dialog(&mut h, &f, NEW_OUTPUT, "newmt", &report);
    let corpus = master.corpora.iter().find(|c| c.name == "newmt").expect("the new corpus is saved");
    assert_eq!(corpus.sentences[1], "Elle est rouge .");
    assert_eq!(master.candidates.iter().filter(|c| c.corpus == corpus.id).count(), 3);
    assert!(h.query_by_label_contains("Added the system “newmt”: its 3 candidates are new").is_some());
    assert!(h.query_by_label("Add an MT system").is_none(), "the dialog closed");

    // Its candidates are new in the browser, and its pronoun is highlighted in its window.
    assert!(h.query_by_label("Pleonastic “it”: 3 new").is_some());
    click(&mut h, "Inter-sentential “it”, subject: 3 new");
    press(&mut h, Key::ArrowRight);
    press(&mut h, Key::ArrowRight);
    assert!(h.query_by_label_contains("translation: newmt").is_some());
    assert!(h.query_by_label("Elle").is_some(), "the pronoun's translation can be selected");
    assert!(h.query_by_label("vélo").is_some(), "so can the antecedent head's");
}

#[test]
fn a_document_level_output_is_shown_segmented_before_it_is_added_and_marked_after() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    // The tiny master's two documents, each as one paragraph.
    let text = "J'ai un vélo. Elle est rouge.\n\nIl pleut. Bienvenue !\n";
    let report = ["layout: documents separated by an empty line (2 documents)", "segmented: 4 sentences — 4 split"];
    let master = add_through_the_dialog(&mut h, &f, text, "llm", &report);
    let corpus = master.corpora.iter().find(|c| c.name == "llm").expect("the new corpus is saved");
    assert_eq!(corpus.sentences, ["J' ai un vélo .", "Elle est rouge .", "Il pleut .", "Bienvenue !"]);
    assert_eq!(corpus.segmentation.as_ref().map(|s| s.split.len()), Some(4));

    // Its translations say that their boundaries were inferred; the others' do not.
    click(&mut h, "Pleonastic “it”: 3 new");
    let note = "✂ Boundaries inferred: split from a longer line";
    let mut marked = Vec::new();
    for _ in 0..3 {
        let of_llm = h.query_all_by_label_contains("translation: llm").count() > 0;
        marked.push((of_llm, h.query_all_by_label(note).count() > 0));
        press(&mut h, Key::ArrowRight);
    }
    assert_eq!(marked.iter().filter(|&&(llm, note)| llm && note).count(), 1, "{marked:?}");
    assert!(marked.iter().all(|&(llm, note)| llm == note), "{marked:?}");
}

#[test]
fn what_cannot_be_vouched_for_stands_out_in_the_report_and_the_form_gives_it_room() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    // The first two sentences run into one at a comma: the boundary between them is a guess.
    let output = f.path.with_file_name("runin.fr");
    std::fs::write(&output, "J'ai un vélo, elle est rouge.\n\nIl pleut. Bienvenue !\n").unwrap();
    open_add_system(&mut h, &output, "runin");
    assert!(h.query_by_label_contains("paired with its 2 translations and with the new output").is_some());
    check_and_wait(&mut h);
    assert!(h.query_by_label("Ready to add “runin”").is_some());
    let flagged = "⚠ low confidence: 1 sentence (left to people by the automatic match): 1";
    assert!(h.query_by_label(flagged).is_some(), "the sentence, as a warning");
    // The second has the reference's own words for its sentence: its boundaries are known.
    let vouched = "vouched for by a translation in the master (the same words for the sentence): 1 sentence: 2";
    assert!(h.query_by_label(vouched).is_some(), "said plainly");
    assert!(h.query_by_label("segmented: 4 sentences — 4 split").is_some(), "what went well, plain");
    assert!(h.query_by_label("Output").is_none(), "the form waits behind Change the options");
    click(&mut h, "Change the options");
    assert!(h.query_by_label("Output").is_some());
}

#[test]
fn a_folder_with_one_file_per_document_is_added_as_a_system() {
    let f = tiny();
    let mut h = harness(&f.path, None);
    // What an LLM pipeline writes: a file per document, paragraphs between empty lines.
    let folder = f.path.with_file_name("llm-docs");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("doc1.txt"), "J'ai un vélo.\n\nElle est rouge.\n").unwrap();
    std::fs::write(folder.join("doc2.txt"), "Il pleut. Bienvenue !\n").unwrap();
    open_add_system(&mut h, &folder, "llm");
    check_and_wait(&mut h);
    assert!(h.query_by_label("layout: one file per document (2 files)").is_some());
    assert!(h.query_by_label("segmented: 4 sentences — 2 kept as given, 2 split").is_some());
    click_to_work(&mut h, "Add to the master", "Adding the system “llm”…");
    let master = saved(&f.path);
    let corpus = master.corpora.iter().find(|c| c.name == "llm").expect("the new corpus is saved");
    assert_eq!(corpus.sentences, ["J' ai un vélo .", "Elle est rouge .", "Il pleut .", "Bienvenue !"]);
}

#[test]
fn a_translation_with_uncertain_boundaries_is_marked_as_such() {
    let f = tiny();
    let mut master: Master = saved(&f.path);
    let mt = master.corpora.iter_mut().find(|c| c.name == "mt").unwrap();
    mt.segmentation =
        Some(protest::model::Segmentation { joined: vec![2], low_confidence: vec![2], ..Default::default() });
    protest::store::master_file::save(&master, &f.path).unwrap();
    let mut h = harness(&f.path, None);
    click(&mut h, "Pleonastic “it”: 2 new");
    let uncertain = "⚠ Boundaries uncertain: joined from several lines — this translation may hold words of a \
                     neighbouring sentence or lack some of its own";
    let mut found = false;
    for _ in 0..2 {
        found |= h.query_all_by_label(uncertain).count() > 0;
        press(&mut h, Key::ArrowRight);
    }
    assert!(found, "the mark is shown under the MT system's sentence 3");
}

#[test]
fn a_pronoun_the_aligner_alone_aligned_is_marked_as_least_sure() {
    use protest::model::link_origin::OriginLinks;
    use protest::model::{LinkOrigin, LinkOrigins};
    let f = tiny();
    let mut master: Master = saved(&f.path);
    // The MT system's links recorded as given, but for sentence 3's ("It rains"), guessed.
    let mt = master.corpora.iter_mut().find(|c| c.name == "mt").unwrap();
    let alignment = mt.alignment.clone().unwrap();
    let sentences = (0..alignment.len() as u32).map(|s| {
        let origin = if s == 2 { LinkOrigin::Aligner } else { LinkOrigin::Given };
        OriginLinks { links: alignment.sentence(s).iter().map(|&l| (l, origin)).collect(), bridge: None }
    });
    mt.link_origins = Some(LinkOrigins::build(sentences.collect()).1);
    protest::store::master_file::save(&master, &f.path).unwrap();
    let mut h = harness(&f.path, None);
    click(&mut h, "Pleonastic “it”: 2 new");
    let note = "⚠ Pronoun aligned by the built-in aligner alone (least sure)";
    let mut seen = Vec::new();
    for _ in 0..2 {
        let of_mt = h.query_all_by_label_contains("translation: mt").count() > 0;
        let noted = h.query_all_by_label(note).count() > 0;
        // The colour key explains the dashed line where there is one.
        let keyed = h.query_all_by_label(crate::panels::translation::GUESSED_KEY).count() > 0;
        assert_eq!(noted, keyed, "the key says what the dashed line means exactly where it is drawn");
        seen.push((of_mt, noted));
        press(&mut h, Key::ArrowRight);
    }
    assert_eq!(seen.iter().filter(|&&(mt, noted)| mt && noted).count(), 1, "{seen:?}");
    assert!(seen.iter().all(|&(mt, noted)| mt == noted), "only the MT system's candidate: {seen:?}");
}

#[test]
fn adding_a_system_refuses_a_wrong_line_count_or_a_taken_name() {
    let f = tiny();
    let before = saved(&f.path);
    let short = f.path.with_file_name("short.fr");
    std::fs::write(&short, "Une phrase.\n\nDeux.\n\nTrois.\n").unwrap();
    let mut h = harness(&f.path, None);
    open_add_system(&mut h, &short, "newmt");
    check_and_wait(&mut h);
    assert!(h.query_by_label_contains("short.fr: has 5 lines in 3 parts separated by empty lines").is_some());

    let good = f.path.with_file_name("good.fr");
    std::fs::write(&good, NEW_OUTPUT).unwrap();
    type_into(&mut h, "Output", good.to_str().unwrap());
    type_into(&mut h, "Name", "mt");
    check_and_wait(&mut h);
    assert!(h.query_by_label_contains("the name 'mt' is taken").is_some());
    click(&mut h, "Cancel");
    assert!(!Modal::is::<AddSystemDialog>(&h.state().modal));
    assert_eq!(saved(&f.path), before, "the master is unchanged");
    // Esc closes it too.
    open_add_system(&mut h, &good, "other");
    assert!(Modal::is::<AddSystemDialog>(&h.state().modal));
    press(&mut h, Key::Escape);
    assert!(!Modal::is::<AddSystemDialog>(&h.state().modal));
}
