//! Benchmarks at 1×, 10× and 100× PROTEST (results in docs/performance.md): open, check, next
//! example, durable save, full save, full report, batch plan, export and import.
//!
//! The masters are generated with `protest::ingest::synth` into a temporary folder at start-up (never
//! committed), from the DiscoMT news corpus: `PROTEST_NEWS_CORPUS`, else
//! ../shared/data/discomt-news-en-fr beside the repository, else the sample's inputs. `PROTEST_BENCH_SCALES=1,10`
//! limits the sizes (default 1,10,100).
//!
//! Run: `cargo bench --bench scale` (a filter such as `cargo bench --bench scale -- 100x` runs
//! one size).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use protest::annotate::window;
use protest::annotate::{browse, conflicts};
use protest::batches::{merge, plan};
use protest::ingest::synth::{self, Params, Sources};
use protest::metrics::report::{self, TABLES};
use protest::model::{AnnotatorId, CandidateId, Judgement, Master, Record};
use protest::store::Store;
use protest::store::{batch_file, master_file};
use protest::workflow::{self, export::Exporting};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn sources() -> Sources {
    let dir = std::env::var_os("PROTEST_NEWS_CORPUS").map(PathBuf::from).unwrap_or_else(|| {
        // The news corpus in ../shared/ beside the repository, else the sample's excerpt of it.
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let shared = manifest.ancestors().map(|d| d.join("shared/data/discomt-news-en-fr")).find(|d| d.is_dir());
        shared.unwrap_or_else(|| manifest.join("../sample_batches/inputs"))
    });
    Sources::in_folder(&dir).expect("a corpus to build masters from")
}

fn scales() -> Vec<usize> {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` runs each benchmark once without
    // it, and the smallest size is enough for that.
    let default = if std::env::args().any(|a| a == "--bench") { "1,10,100" } else { "1" };
    std::env::var("PROTEST_BENCH_SCALES")
        .unwrap_or_else(|_| default.into())
        .split(',')
        .map(|s| s.trim().parse().expect("PROTEST_BENCH_SCALES: numbers separated by commas"))
        .collect()
}

/// A generated master on disk, with a journal of `JOURNALED` changes beside it, as a file is
/// after an annotation session that ended in a crash.
struct Fixture {
    times: usize,
    path: PathBuf,
}

const JOURNALED: u32 = 1_000;

fn fixture(dir: &Path, sources: &Sources, times: usize) -> Fixture {
    let master = synth::generate(sources, &Params::protest(times)).expect("generation");
    let path = dir.join(format!("{times}x.master.json"));
    master_file::save(&master, &path).expect("saving the master");
    let (mut store, _) = Store::<Master>::open(&path).expect("opening the master");
    for c in 1..=JOURNALED {
        store.put(record(&master, CandidateId(c), Judgement::Yes)).expect("journaling");
    }
    Fixture { times, path }
}

fn record(master: &Master, candidate: CandidateId, pronoun: Judgement) -> Record {
    let mut r = Record::new(candidate, AnnotatorId(1), master.created);
    r.pronoun = pronoun;
    r
}

fn configure<'a>(
    c: &'a mut Criterion,
    name: &str,
    times: usize,
) -> criterion::BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    // The machine is shared: keep large cases short.
    group.sample_size(if times >= 100 { 10 } else { 20 });
    group.warm_up_time(Duration::from_millis(if times >= 100 { 100 } else { 500 }));
    group.measurement_time(Duration::from_secs(if times >= 100 { 5 } else { 3 }));
    group
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let sources = sources();
    for times in scales() {
        let f = fixture(dir.path(), &sources, times);
        let id = BenchmarkId::from_parameter(format!("{}x", f.times));

        // Open: read, parse and validate the file, replay its journal, take the lock.
        configure(c, "open", times)
            .bench_function(id.clone(), |b| b.iter(|| black_box(Store::<Master>::open(&f.path).expect("open"))));
        // `protest check`: the same reading, without the lock.
        configure(c, "check", times).bench_function(id.clone(), |b| {
            b.iter(|| black_box(protest::store::load_with_journal::<Master>(&f.path).expect("check")))
        });

        let (mut store, _) = Store::<Master>::open(&f.path).expect("open");
        let order = browse::example_order(store.master());
        let annotator = AnnotatorId(1);

        // Leaving one example for the next: conflict check and settling of the record being
        // left, the category browser's counts brought up to date for it, and the next
        // candidate's translation window.
        let mut browser = browse::BrowserRows::new(store.master(), annotator, &order, None);
        let mut at = 0;
        configure(c, "next_example", times).bench_function(id.clone(), |b| {
            b.iter(|| {
                let m = store.master();
                let left =
                    m.records.get(order[at], annotator).cloned().unwrap_or_else(|| record(m, order[at], Judgement::No));
                let settled = conflicts::settle(&left, conflicts::failing(m, &left));
                browser.update(m, left.candidate);
                at = (at + 1) % order.len();
                let next = m.candidate(order[at]).expect("candidate");
                let view = window::of_candidate(m, next, m.records.get(next.id, annotator));
                black_box((settled, view))
            })
        });

        // The parts of the above, to see where the time goes.
        configure(c, "window", times).bench_function(id.clone(), |b| {
            b.iter(|| {
                let m = store.master();
                at = (at + 1) % order.len();
                let next = m.candidate(order[at]).expect("candidate");
                black_box(window::of_candidate(m, next, m.records.get(next.id, annotator)))
            })
        });
        configure(c, "browser_update", times).bench_function(id.clone(), |b| {
            b.iter(|| {
                at = (at + 1) % order.len();
                browser.update(store.master(), order[at]);
            })
        });
        // Building the browser from scratch (opening a file, switching annotator or corpus).
        configure(c, "browser_build", times).bench_function(id.clone(), |b| {
            b.iter(|| black_box(browse::browse(store.master(), annotator, &order, None)))
        });

        // The full report: every table of `protest report`, as the report view shows them.
        configure(c, "report", times)
            .bench_function(id.clone(), |b| b.iter(|| black_box(report::tables(store.master(), TABLES))));

        // A durable save of one record: validated, appended to the journal, fsynced (and, once
        // the journal has grown past `store::FOLD_BYTES`, folded, as it is in use).
        let mut n = 0u32;
        configure(c, "durable_put", times).bench_function(id.clone(), |b| {
            b.iter(|| {
                n += 1;
                let candidate = order[n as usize % order.len()];
                let judgement = if n.is_multiple_of(2) { Judgement::Yes } else { Judgement::No };
                let r = record(store.master(), candidate, judgement);
                store.put(r).expect("put");
            })
        });

        // A full save (what closing the file, structural changes and a full journal cost).
        configure(c, "full_save", times).bench_function(id.clone(), |b| b.iter(|| store.save().expect("save")));
        store.close().expect("close");

        batches(c, &f, dir.path(), &id);
    }
}

/// Batch export (plan a task set for the two annotators, make and write their batches: what
/// `protest batch export` and the window run, `workflow::export::run`) and import (read the
/// batches back and prepare their merge, `workflow::merge::prepare`: nothing changes, every
/// record is already in).
fn batches(c: &mut Criterion, f: &Fixture, dir: &Path, id: &BenchmarkId) {
    let master = master_file::load(&f.path).expect("load");
    let names: Vec<String> = master.annotators.iter().map(|a| a.name.clone()).collect();
    let request = plan::Request::everything(&master, names.len() as u32, 25 * f.times as u32, 7);
    configure(c, "batch_plan", f.times).bench_function(id.clone(), |b| {
        b.iter(|| black_box(plan::plan(&master, &request, plan::every, master.created).expect("plan")))
    });
    let planned = plan::plan(&master, &request, plan::every, master.created).expect("plan");
    let exporting = Exporting {
        task_set: planned.task_set.id,
        names: names.clone(),
        folder: dir.join(format!("{}x batches", f.times)),
        replace: true,
        created: master.created,
    };
    let mut with_plan = master;
    with_plan.task_sets.push(planned.task_set);
    let path = dir.join(format!("{}x.planned.master.json", f.times));
    master_file::save(&with_plan, &path).expect("saving the planned master");
    let (mut store, _) = Store::<Master>::open(&path).expect("opening the planned master");
    let mut written = Vec::new();
    configure(c, "batch_export", f.times).bench_function(id.clone(), |b| {
        b.iter(|| written = workflow::export::run(&mut store, &exporting).expect("export").files)
    });
    configure(c, "batch_import", f.times).bench_function(id.clone(), |b| {
        b.iter(|| {
            let incoming: Vec<_> = written
                .iter()
                .map(|w| merge::Incoming {
                    path: w.path.clone(),
                    batch: batch_file::load_current(&w.path).expect("load"),
                })
                .collect();
            black_box(workflow::merge::prepare(&store, &incoming).expect("prepare"))
        })
    });
    store.close().expect("close");
}

criterion_group!(scale, benches);
criterion_main!(scale);
