//! Opens a master as the app does (`Store::open`: read, parse, validate, replay the journal, take
//! the lock) and reports the time taken and the peak memory of the process — the memory figure
//! of docs/performance.md:
//!
//! ```sh
//! cargo run --release --example open_master -- FILE
//! ```

use protest::model::Master;
use protest::store::Store;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: open_master FILE");
        return ExitCode::FAILURE;
    };
    let start = Instant::now();
    let (store, opened) = match Store::<Master>::open(path.as_ref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let m = store.master();
    println!(
        "opened in {seconds:.2} s: {} sentences × {} corpora, {} candidates, {} records ({} recovered from the journal); peak memory {}",
        m.sentence_count(),
        m.corpora.len(),
        m.candidates.len(),
        m.records.len(),
        opened.recovered,
        peak_memory().unwrap_or_else(|| "unknown (no /proc/self/status)".into())
    );
    ExitCode::SUCCESS
}

/// The process's peak resident set size, as Linux reports it.
fn peak_memory() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib: u64 =
        status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(format!("{} MiB", kib / 1024))
}
