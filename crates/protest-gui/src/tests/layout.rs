//! Every view and every dialog at the window sizes annotators use, from the minimum up: every
//! interactive widget lies inside the window — whole, or cut only by the edge of a scroll area
//! inside it, which shows the rest by scrolling — no two overlap, and the buttons that finish a
//! dialog are in view, whole. The widgets are those of the accessibility tree (what kittest
//! finds and clicks), each with egui's own record of the part of it not clipped away.
//!
//! A new view or dialog is one line of [`VIEWS`] or [`DIALOGS`]: its name, how to get there from
//! the file opened, and the buttons that must be in view.

use super::*;
use super::{click, open_menu, press, press_with, type_into};
use egui::accesskit::{Action, Role};
use egui::{Key, Modifiers, Rect, Vec2};
use egui_kittest::kittest::{NodeT, Queryable};
use std::collections::HashMap;

/// The minimum, a small laptop, the tests' usual size and a large screen.
const SIZES: [Vec2; 4] =
    [Vec2::new(760.0, 480.0), Vec2::new(1024.0, 700.0), Vec2::new(1280.0, 820.0), Vec2::new(1920.0, 1080.0)];

/// A view or a dialog to check.
struct Case {
    name: &'static str,
    /// The file it is reached from.
    file: File,
    /// From the file just opened (category browser shown) to the view or dialog.
    reach: fn(&mut Harness<App>, &Files),
    /// Buttons that must be in view, whole, at every size.
    in_view: &'static [&'static str],
}

/// The files the cases start from.
#[derive(Debug, Clone, Copy)]
enum File {
    /// The bundled sample master, its two batches merged: every report table has numbers.
    Merged,
    /// The bundled sample master as it comes, its batches beside it.
    Sample,
    /// The sample master with six more MT systems (eight translations): a tall plan.
    Wide,
    /// Anna's bundled batch (annotator mode).
    Batch,
    /// The tiny fixture with Anna, whose records are conflict-checked.
    Tiny,
    /// The tiny fixture, opened again after a window could not save into it.
    Recovered,
    /// The tiny fixture whose MT system was cut from document-level output, one sentence with
    /// uncertain boundaries.
    Resegmented,
    /// The web page: Anna's part of the sample's task set 1, a remote session whose server the
    /// test answers for (`Files::post`).
    Page,
}

#[rustfmt::skip] // one line per case
const VIEWS: &[Case] = &[
    Case { name: "category browser", file: File::Merged, reach: |_, _| {}, in_view: &["Start annotating"] },
    Case { name: "category browser (annotator mode)", file: File::Batch, reach: |_, _| {}, in_view: &[] },
    Case { name: "translation window", file: File::Merged, reach: |h, _| press(h, Key::Enter), in_view: EXAMPLE },
    Case { name: "overview", file: File::Merged, reach: overview, in_view: EXAMPLE },
    Case { name: "translation window, boundaries uncertain", file: File::Resegmented, reach: uncertain, in_view: &["⬅ Categories", "Finish ⏵"] },
    Case { name: "report: results", file: File::Merged, reach: |h, _| report(h, "Annotation results"), in_view: REPORT },
    Case { name: "report: agreement", file: File::Merged, reach: |h, _| report(h, "Agreement"), in_view: REPORT },
    Case { name: "report: scores", file: File::Merged, reach: |h, _| report(h, "System scores"), in_view: REPORT },
    Case { name: "report: match", file: File::Merged, reach: |h, _| report(h, "Automatic match"), in_view: REPORT },
    Case { name: "report: metrics", file: File::Merged, reach: |h, _| report(h, "Automatic metrics"), in_view: REPORT },
    Case { name: "prediction results", file: File::Tiny, reach: predictions, in_view: &["‹ Back", "›"] },
    Case { name: "help", file: File::Tiny, reach: |h, _| press(h, Key::F1), in_view: &["Keys", "Annotation guidelines"] },
    Case { name: "work in progress", file: File::Merged, reach: working, in_view: &[] },
    Case { name: "File menu", file: File::Merged, reach: |h, _| click(h, "File"), in_view: &["Save a copy as…"] },
    Case { name: "Edit menu", file: File::Merged, reach: |h, _| click(h, "Edit"), in_view: &[] },
    Case { name: "View menu", file: File::Merged, reach: |h, _| click(h, "View"), in_view: &[] },
    Case { name: "Evaluate menu", file: File::Merged, reach: |h, _| click(h, "Evaluate"), in_view: &[] },
    Case { name: "Batches menu", file: File::Merged, reach: |h, _| click(h, "Batches"), in_view: &["Plan a task set…"] },
    Case { name: "Help menu", file: File::Merged, reach: |h, _| click(h, "Help"), in_view: &[] },
];

#[rustfmt::skip] // one line per case
const DIALOGS: &[Case] = &[
    Case { name: "open", file: File::Tiny, reach: |h, _| press_with(h, Modifiers::COMMAND, Key::O), in_view: &["Open", "Cancel"] },
    Case { name: "add MT system", file: File::Tiny, reach: add_system, in_view: &["Check and align", "Cancel"] },
    Case { name: "add MT system, ready", file: File::Tiny, reach: system_ready, in_view: &["Add to the master", "Cancel"] },
    Case { name: "add MT system, paragraphs segmented", file: File::Tiny, reach: paragraphs_ready, in_view: &["Add to the master", "Cancel"] },
    Case { name: "old file", file: File::Tiny, reach: old_file, in_view: &["Convert", "Cancel"] },
    Case { name: "old file, its summary", file: File::Tiny, reach: old_summary, in_view: &["Write the converted file", "Back"] },
    Case { name: "save a copy", file: File::Tiny, reach: |h, _| open_menu(h, "File", "Save a copy as…"), in_view: &["Save the copy", "Cancel"] },
    Case { name: "annotators", file: File::Merged, reach: |h, _| open_menu(h, "Batches", "Annotators…"), in_view: &["Add", "Close"] },
    Case { name: "plan, 8 translations", file: File::Wide, reach: |h, _| open_menu(h, "Batches", "Plan a task set…"), in_view: &["Store “Task set 2” in the master", "Cancel"] },
    Case { name: "export batches", file: File::Merged, reach: |h, _| open_menu(h, "Batches", "Export batches…"), in_view: &["Export", "Cancel"] },
    Case { name: "import batches, checked", file: File::Sample, reach: merge_checked, in_view: &["Merge 150 new records", "Cancel"] },
    Case { name: "adjudication", file: File::Merged, reach: adjudication, in_view: &["Export the adjudication batch", "Cancel"] },
    Case { name: "go to, an example shown", file: File::Merged, reach: go_to, in_view: &["Close"] },
    Case { name: "export report tables", file: File::Merged, reach: export_tables, in_view: &["Save", "Cancel"] },
    Case { name: "conflict", file: File::Tiny, reach: conflict, in_view: &["Amend", "Keep as is"] },
    Case { name: "recovery", file: File::Recovered, reach: |_, _| {}, in_view: &["Apply them to this file", "Keep for later"] },
    Case { name: "prediction results", file: File::Tiny, reach: |h, _| open_menu(h, "File", "Open prediction results…"), in_view: &["Open", "Cancel"] },
];

/// The web page's views (docs/serve.md): the window in annotator mode without a File menu, with
/// what the page says of the server in the status line and, while the server is out of reach,
/// the banner with Retry.
#[rustfmt::skip] // one line per case
const PAGE: &[Case] = &[
    Case { name: "page: category browser", file: File::Page, reach: |_, _| {}, in_view: &["Edit", "Help"] },
    Case { name: "page: translation window, a change on its way", file: File::Page, reach: |h, _| { press(h, Key::Enter); press(h, Key::N) }, in_view: EXAMPLE },
    Case { name: "page: the server out of reach", file: File::Page, reach: server_gone, in_view: &["⬅ Categories", "Next ⏵", "Retry"] },
    Case { name: "page: the server out of reach, categories", file: File::Page, reach: |h, f| { server_gone(h, f); press(h, Key::Escape) }, in_view: &["Retry"] },
    Case { name: "page: conflict", file: File::Page, reach: |h, _| { press(h, Key::Enter); press(h, Key::Y); press(h, Key::ArrowRight) }, in_view: &["Amend", "Keep as is"] },
    Case { name: "page: two versions of an example", file: File::Page, reach: two_versions, in_view: &["Keep yours", "Keep the saved one"] },
    Case { name: "page: the link no longer works", file: File::Page, reach: link_gone, in_view: &["Download"] },
    Case { name: "page: help", file: File::Page, reach: |h, _| press(h, Key::F1), in_view: &["Keys", "Annotation guidelines"] },
    Case { name: "page: Edit menu", file: File::Page, reach: |h, _| click(h, "Edit"), in_view: &[] },
    Case { name: "page: View menu", file: File::Page, reach: |h, _| click(h, "View"), in_view: &[] },
    Case { name: "page: Help menu", file: File::Page, reach: |h, _| click(h, "Help"), in_view: &[] },
];

const EXAMPLE: &[&str] = &["⬅ Categories", "Next ⏵"];
const REPORT: &[&str] = &[
    "Annotation results",
    "Agreement",
    "System scores",
    "Automatic match",
    "Automatic metrics",
    "Run automatic evaluation",
    "Export all…",
];

#[test]
fn every_view_fits_the_window_at_every_size() {
    check(VIEWS);
}

#[test]
fn every_dialog_fits_the_window_at_every_size() {
    check(DIALOGS);
}

#[test]
fn the_web_page_fits_the_window_at_every_size() {
    check(PAGE);
}

/// The page's own screen while the annotator's part loads, or why it could not: its words
/// wrap within the window at every size.
#[test]
fn the_page_loading_its_part_fits_the_window_at_every_size() {
    let failed =
        "Your part could not be loaded: the server answered 503 Service Unavailable. Reload the page to try again.";
    for text in ["Loading your part…", failed] {
        let mut h = Harness::builder().build_ui(|ui| crate::views::waiting_ui(ui, text));
        for size in SIZES {
            h.set_size(size);
            h.run();
            let window = h.ctx.content_rect();
            let shown = h.get_by_label(text).rect();
            assert!(window.contains_rect(shown), "“{text}” {shown:?} at {size:?}");
        }
    }
}

fn check(cases: &[Case]) {
    let files = Files::new();
    let mut problems = Vec::new();
    for case in cases {
        let mut h = files.open(case.file);
        h.set_size(SIZES[0]);
        h.settle();
        (case.reach)(&mut h, &files);
        for size in SIZES {
            h.set_size(size);
            h.settle();
            let found = layout_problems(&h, case.in_view).into_iter().chain(developer_words(&h));
            problems.extend(found.map(|p| format!("{} at {}×{}: {p}", case.name, size.x, size.y)));
        }
        h.state_mut().shutdown();
    }
    problems.dedup();
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// Words for developers in the window's own words: every string literal of the crate outside its
/// tests, but those listed here with the reason they are not shown (a literal may be a path read
/// at build time, a key, a format).
#[test]
fn the_window_says_nothing_in_words_for_developers() {
    const NOT_SHOWN: [(&str, &str); 1] = [
        // The guidelines' file, read into the help window at build time: its name is not shown.
        ("help.rs", "../../../guidelines/annotation-guidelines.md"),
    ];
    let sample = "let a = \"shown --x\"; // \"a comment --y\"\nlet q = '\"'; let b = \"a \\\"quote\\\" --z\";";
    assert_eq!(string_literals(sample), ["shown --x", "a \\\"quote\\\" --z"], "the literals are found");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut files = vec![root.clone()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "tests") {
                continue;
            }
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        // A file's own tests (`mod tests` at its end) are not shown either.
        let shipped = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
        for literal in string_literals(shipped) {
            let flagged = DEVELOPER_WORDS.iter().any(|w| literal.contains(w));
            if flagged && !NOT_SHOWN.iter().any(|&(file, l)| file == name && literal == l) {
                found.push(format!("{name}: “{literal}”"));
            }
        }
    }
    assert!(found.is_empty(), "words for developers:\n{}", found.join("\n"));
}

/// What an annotator or a researcher should not have to read: command-line options, the
/// documentation's file names, SQL's NULL, commands to type, database columns.
const DEVELOPER_WORDS: [&str; 5] = ["--", ".md", "NULL", "protest ", "annotator_id"];

/// The string literals of Rust source, as written (escapes and line continuations kept).
fn string_literals(source: &str) -> Vec<String> {
    let mut literals = Vec::new();
    let mut chars = source.chars().peekable();
    let mut previous = ' ';
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                // A comment, to the end of the line.
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            // A character literal: '"' or '\''.
            '\'' if previous != '&' && chars.peek().is_some_and(|&n| n == '"' || n == '\\') => {
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                }
            }
            '"' => {
                let mut literal = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            literal.push(c);
                            literal.extend(chars.next());
                        }
                        '"' => break,
                        c => literal.push(c),
                    }
                }
                literals.push(literal);
            }
            _ => {}
        }
        previous = c;
    }
    literals
}

/// Words for developers in what the window shows (every label and value of the accessibility
/// tree): command-line options, the documentation's file names, SQL's NULL, commands to type.
/// Annotators and researchers read the window; the command line has its own words.
pub(super) fn developer_words(h: &Harness<App>) -> Vec<String> {
    let shown: Vec<String> = h
        .query_all_by(|_| true)
        .flat_map(|node| {
            let node = node.accesskit_node();
            [node.label(), node.value()]
        })
        .flatten()
        .collect();
    shown
        .into_iter()
        .filter(|text| DEVELOPER_WORDS.iter().any(|w| text.contains(w)))
        .map(|text| format!("words for developers: “{text}”"))
        .collect()
}

/// A widget as laid out: where it is whole, the part of it not clipped away, its layer, its name.
#[derive(Debug, Clone)]
pub(super) struct Placed {
    /// Its node's id in the accessibility tree.
    pub(super) id: u64,
    pub(super) name: String,
    pub(super) whole: Rect,
    pub(super) shown: Rect,
    layer: egui::LayerId,
}

/// What is wrong with the window as last drawn: widgets cut by its edge or overlapping, and
/// buttons of `in_view` not wholly in view.
fn layout_problems(h: &Harness<App>, in_view: &[&str]) -> Vec<String> {
    let window = h.ctx.content_rect();
    let mut problems = Vec::new();
    let placed = interactive(h);
    for w in &placed {
        if w.shown.width() < 0.5 || w.shown.height() < 0.5 {
            continue; // scrolled out of view
        }
        // Past an edge of the window, it must be cut by a scroll area inside the window, not
        // by the window's edge (which shows nothing more when scrolled).
        let cut_by_window = (w.whole.left() < window.left() - 0.5 && w.shown.left() <= window.left() + 0.5)
            || (w.whole.right() > window.right() + 0.5 && w.shown.right() >= window.right() - 0.5)
            || (w.whole.top() < window.top() - 0.5 && w.shown.top() <= window.top() + 0.5)
            || (w.whole.bottom() > window.bottom() + 0.5 && w.shown.bottom() >= window.bottom() - 0.5);
        if cut_by_window || !window.expand(0.5).contains_rect(w.shown) {
            problems.push(format!("“{}” {:?} is cut by the window's edge", w.name, w.whole));
        }
    }
    for (i, a) in placed.iter().enumerate() {
        for b in &placed[i + 1..] {
            let overlap = a.shown.intersect(b.shown);
            let nested = a.whole.contains_rect(b.whole) || b.whole.contains_rect(a.whole);
            if a.layer == b.layer && overlap.width() > 1.0 && overlap.height() > 1.0 && !nested {
                problems.push(format!("“{}” {:?} overlaps “{}” {:?}", a.name, a.shown, b.name, b.shown));
            }
        }
    }
    for label in in_view {
        let shown = placed.iter().find(|w| w.name == *label);
        match shown {
            Some(w) if w.shown == w.whole && window.contains_rect(w.whole) => {}
            Some(w) => problems.push(format!("“{label}” {:?} is not wholly in view ({:?} shown)", w.whole, w.shown)),
            None => problems.push(format!("“{label}” is not there")),
        }
    }
    problems
}

/// The interactive widgets of the accessibility tree (those that can be clicked or focused, but
/// labels, whose text can be selected), with egui's record of where they are and what of them
/// is not clipped away.
fn interactive(h: &Harness<App>) -> Vec<Placed> {
    placed(h, |node| {
        let acts = node.supports_action(Action::Click) || node.supports_action(Action::Focus);
        acts && !matches!(node.role(), Role::Label)
    })
}

/// The widgets of the accessibility tree that `pick` chooses, with egui's record of where they
/// are and what of them is not clipped away.
pub(super) fn placed(h: &Harness<App>, pick: impl Fn(&egui::accesskit::Node) -> bool) -> Vec<Placed> {
    let laid_out: HashMap<u64, (Rect, Rect, egui::LayerId)> = h.ctx.viewport(|v| {
        v.prev_pass
            .widgets
            .layers()
            .flat_map(|(layer, widgets)| widgets.iter().map(move |w| (w.id.value(), (w.rect, w.interact_rect, *layer))))
            .collect()
    });
    h.query_all_by(|node| pick(node.data()))
        .filter_map(|node| {
            let accessible = node.accesskit_node();
            let name = accessible.label().or_else(|| accessible.value()).unwrap_or_default();
            let id = accessible.locate().0.0;
            let &(whole, shown, layer) = laid_out.get(&id)?;
            Some(Placed { id, name, whole, shown, layer })
        })
        .collect()
}

/// A copy of the bundled sample in `folder`, its two batches' records merged: every report table
/// has numbers, every example everyone's annotations.
pub(super) fn merged_sample(folder: &Path) -> PathBuf {
    let merged = settings::sample_copy(Some(folder.to_path_buf())).unwrap();
    let batches: Vec<PathBuf> =
        ["anna", "ben"].map(|who| merged.with_file_name(format!("sample.batch-1-{who}.json"))).into();
    protest::workflow::on_master(&merged, |store| {
        let incoming = protest::workflow::merge::read(&batches)?;
        protest::workflow::merge::run(store, &incoming, true)
    })
    .unwrap();
    merged
}

/// The master at `sample` with six more MT systems, copies of its own (eight translations), at
/// `to`.
pub(super) fn wide_master(sample: &Path, to: &Path) {
    let mut m = protest::store::master_file::load(sample).unwrap();
    let mt = m.corpora.iter().find(|c| c.name == "mt").unwrap().clone();
    let theirs: Vec<_> = m.candidates.iter().filter(|c| c.corpus == mt.id).cloned().collect();
    for k in 1..=6u32 {
        let mut corpus = mt.clone();
        corpus.id = protest::model::CorpusId(mt.id.0 + k);
        corpus.name = format!("system-{k}");
        for c in &theirs {
            let next = protest::model::CandidateId(m.candidates.iter().map(|c| c.id.0).max().unwrap() + 1);
            m.candidates.push(protest::model::Candidate { id: next, corpus: corpus.id, ..c.clone() });
        }
        m.corpora.push(corpus);
    }
    protest::store::master_file::save(&m, to).unwrap();
}

/// The files of the cases, made once for all of them.
struct Files {
    dir: tempfile::TempDir,
    /// The server of the page last opened (`File::Page`).
    post: std::cell::RefCell<super::web::Post>,
}

impl Files {
    fn new() -> Files {
        let dir = tempfile::tempdir().unwrap();
        let sample = settings::sample_copy(Some(dir.path().join("sample"))).unwrap();
        let merged = merged_sample(&dir.path().join("merged"));
        // Wide: six more MT systems, copies of the sample's.
        let wide = dir.path().join("wide.master.json");
        wide_master(&sample, &wide);
        let batch = dir.path().join("sample").join("sample.batch-1-anna.json");
        let tiny = dir.path().join("tiny.master.json");
        std::fs::write(&tiny, TINY).unwrap();
        protest::workflow::on_master(&tiny, |store| protest::workflow::annotators::add(store, "Anna")).unwrap();
        std::fs::write(dir.path().join("new.fr"), super::report::NEW_OUTPUT).unwrap();
        std::fs::write(dir.path().join("llm.fr"), "J'ai un vélo. Elle est rouge.\n\nIl pleut. Bienvenue !\n").unwrap();
        let resegmented = dir.path().join("resegmented").join("tiny.master.json");
        std::fs::create_dir_all(resegmented.parent().unwrap()).unwrap();
        let mut m = protest::store::master_file::load(&tiny).unwrap();
        let mt = m.corpora.iter_mut().find(|c| c.name == "mt").unwrap();
        mt.segmentation =
            Some(protest::model::Segmentation { joined: vec![2], low_confidence: vec![2], ..Default::default() });
        protest::store::master_file::save(&m, &resegmented).unwrap();
        super::prediction::write_files(dir.path());
        let old = dir.path().join("museum.master.db");
        std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/legacy/museum.master.db"), old)
            .unwrap();
        // Recovered: a window judged, the file was changed elsewhere, the window went.
        let recovered = dir.path().join("recovered").join("tiny.master.json");
        std::fs::create_dir_all(recovered.parent().unwrap()).unwrap();
        std::fs::copy(&tiny, &recovered).unwrap();
        let data = dir.path().join("data");
        let mut h = super::saving::harness_with_data(&recovered, &data);
        super::saving::judged_then_detached(&mut h, &recovered);
        drop(h);
        let _ = (merged, wide, batch);
        Files { dir, post: Default::default() }
    }

    fn path(&self, file: File) -> PathBuf {
        let d = self.dir.path();
        match file {
            File::Merged => d.join("merged").join("sample.master.json"),
            File::Sample => d.join("sample").join("sample.master.json"),
            File::Wide => d.join("wide.master.json"),
            File::Batch => d.join("sample").join("sample.batch-1-anna.json"),
            File::Tiny => d.join("tiny.master.json"),
            File::Recovered => d.join("recovered").join("tiny.master.json"),
            File::Resegmented => d.join("resegmented").join("tiny.master.json"),
            File::Page => PathBuf::new(), // not a file: the server sends the part
        }
    }

    /// The app on the file, as the user would have it.
    fn open(&self, file: File) -> Harness<'static, App> {
        let path = self.path(file);
        match file {
            File::Page => {
                let (h, post) = super::web::page();
                *self.post.borrow_mut() = post;
                h
            }
            File::Recovered => super::saving::harness_with_data(&path, &self.dir.path().join("data")),
            File::Tiny => super::harness(&path, Some(ANNA)),
            _ => super::harness(&path, None),
        }
    }
}

/// A judgement made on the page, which the server did not store: the example changed since (in
/// another tab), with a long remark.
fn two_versions(h: &mut Harness<App>, files: &Files) {
    press(h, Key::Enter);
    press(h, Key::N);
    files.post.borrow().answer_last_with(|sent| {
        let protest::store::journal::Entry::Put(mine) = &sent[0].entry else { panic!("{sent:?}") };
        let mut theirs = mine.clone();
        theirs.pronoun = protest::model::Judgement::Yes;
        theirs.remarks = "a remark made in another tab, long enough to wrap in the narrowest window ".repeat(3);
        let conflicts = vec![protest::web::protocol::Conflicting { id: sent[0].id.clone(), stored: Some(theirs) }];
        Ok(protest::web::protocol::Answers { conflicts, ..Default::default() })
    });
    h.settle();
}

/// A judgement made on the page, and the server no longer knows the link: the banner with
/// Download.
fn link_gone(h: &mut Harness<App>, files: &Files) {
    press(h, Key::Enter);
    press(h, Key::N);
    files.post.borrow().answer_last_with(|_| Err(protest::session::remote::Failure::NotALink));
    h.settle();
}

/// A judgement made on the page, and the server out of reach when it was sent: the banner.
fn server_gone(h: &mut Harness<App>, files: &Files) {
    press(h, Key::Enter);
    press(h, Key::N);
    files.post.borrow().answer_last(false);
    h.settle();
    assert!(h.query_by_label("Retry").is_some(), "the banner says the change is not saved");
}

fn report(h: &mut Harness<App>, section: &str) {
    click(h, "Report");
    click(h, section);
}

fn overview(h: &mut Harness<App>, _: &Files) {
    press(h, Key::Enter);
    press(h, Key::O);
}

fn predictions(h: &mut Harness<App>, files: &Files) {
    super::prediction::open_files(h, files.dir.path());
}

/// The progress of long work, held on the screen.
fn working(h: &mut Harness<App>, _: &Files) {
    crate::work::hold(true);
    h.get_by_label("Report").click();
    h.run_steps(3);
    assert!(h.state().is_busy());
    // Released by the first `settle` of the sizes: seen at the minimum size at least.
    let problems = layout_problems(h, &[]);
    assert!(problems.is_empty(), "the work screen at the minimum size: {problems:?}");
    crate::work::hold(false);
}

fn add_system(h: &mut Harness<App>, files: &Files) {
    open_menu(h, "File", "Add MT system…");
    type_into(h, "Output", files.dir.path().join("new.fr").to_str().unwrap());
    type_into(h, "Name", "newmt");
}

fn system_ready(h: &mut Harness<App>, files: &Files) {
    add_system(h, files);
    super::report::check_and_wait(h);
}

/// The report of document-level output, with how it was cut into sentences.
fn paragraphs_ready(h: &mut Harness<App>, files: &Files) {
    open_menu(h, "File", "Add MT system…");
    type_into(h, "Output", files.dir.path().join("llm.fr").to_str().unwrap());
    type_into(h, "Name", "llm");
    super::report::check_and_wait(h);
    assert!(h.query_by_label("segmented: 4 sentences — 4 split").is_some());
}

/// The MT system's pleonastic "it" of sentence 3, cut with low confidence: the mark under it.
fn uncertain(h: &mut Harness<App>, _: &Files) {
    click(h, super::PLEONASTIC_NEW);
    press(h, Key::ArrowRight);
    assert!(h.query_all_by_label_contains("Boundaries uncertain").count() > 0);
}

fn old_file(h: &mut Harness<App>, files: &Files) {
    open_menu(h, "File", "Import old PROTEST file…");
    type_into(h, "The old file", files.dir.path().join("museum.master.db").to_str().unwrap());
}

fn old_summary(h: &mut Harness<App>, files: &Files) {
    old_file(h, files);
    click(h, "Convert");
}

fn merge_checked(h: &mut Harness<App>, _: &Files) {
    open_menu(h, "Batches", "Import annotated batches…");
    click(h, "+ sample.batch-1-anna.json");
    click(h, "+ sample.batch-1-ben.json");
    click(h, "Check");
}

fn adjudication(h: &mut Harness<App>, _: &Files) {
    open_menu(h, "Batches", "Adjudication…");
    type_into(h, "Adjudicator", "Clara");
}

fn go_to(h: &mut Harness<App>, _: &Files) {
    press_with(h, Modifiers::COMMAND, Key::G);
    h.get_by_label("Example number").type_text("1");
    h.settle();
    click(h, "Show every translation");
}

fn export_tables(h: &mut Harness<App>, _: &Files) {
    click(h, "Report");
    click(h, "Export all…");
}

fn conflict(h: &mut Harness<App>, _: &Files) {
    click(h, super::PLEONASTIC_NEW);
    press(h, Key::Y); // correct, but no token selected: rule 4
    press(h, Key::ArrowRight);
}
