//! The report view's exports are byte for byte the files `protest report` writes: the annotation
//! window (`protest_gui::App`, headless under egui_kittest) and the built binary on the same
//! master. Here, not among the GUI crate's own tests, because only this package has both.

use crate::common::{merged_sample, ok};
use egui::{Key, Modifiers, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use protest::metrics::report::TABLES;
use protest_gui::App;
use protest_gui::settings::Settings;
use std::path::Path;

const FOLDER: &str = "Folder to write the tables to (one file each: results.csv, …)";

/// The app on `master`, in a window tall enough to show the longest table whole.
fn tall_harness(master: &Path) -> Harness<'static, App> {
    let app = App::new(Settings::default(), Some(master.to_path_buf()), None);
    let mut harness = Harness::builder()
        .with_size(Vec2::new(1400.0, 1600.0))
        .with_step_dt(1.0 / 60.0)
        // work that outlasts its grace period adds a frame or two before the result is drawn
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut App| app.ui(ui), app);
    settle(&mut harness);
    harness
}

/// Runs frames until nothing moves, with the long work the window started (opening the file,
/// computing the report) finished.
fn settle(h: &mut Harness<App>) {
    h.run();
    while h.state().is_busy() {
        h.state_mut().finish_work();
        h.run();
    }
}

fn click(h: &mut Harness<App>, label: &str) {
    h.get_by_label(label).click();
    settle(h);
}

/// Types into a field, replacing what it holds.
fn type_into(h: &mut Harness<App>, label: &str, text: &str) {
    h.get_by_label(label).click();
    settle(h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    settle(h);
    h.get_by_label(label).type_text(text);
    settle(h);
}

/// `protest report MASTER --format FORMAT --output DIR [--table NAME]`.
fn cli_report(master: &Path, format: &str, dir: &Path, table: Option<&str>) {
    let mut args = vec!["report", master.to_str().unwrap(), "--format", format, "--output", dir.to_str().unwrap()];
    if let Some(t) = table {
        args.extend(["--table", t]);
    }
    ok(master.parent().unwrap(), &args);
}

#[test]
fn exports_are_the_files_the_command_line_writes() {
    let f = merged_sample();
    let master = f.path().join("sample.master.json");
    let out = tempfile::tempdir().unwrap();
    let cli = tempfile::tempdir().unwrap();
    let mut h = tall_harness(&master);
    click(&mut h, "Report");

    click(&mut h, "Export the table results");
    click(&mut h, "LaTeX");
    let file = out.path().join("table one.tex");
    type_into(&mut h, "File to write", file.to_str().unwrap());
    click(&mut h, "Save");
    cli_report(&master, "latex", cli.path(), Some("results"));
    assert_eq!(std::fs::read(&file).unwrap(), std::fs::read(cli.path().join("results.tex")).unwrap());
    assert!(h.query_by_label_contains(&format!("as {}.", file.display())).is_some(), "it says where it saved");

    // An existing file is replaced only when asked twice.
    std::fs::write(&file, "keep me").unwrap();
    click(&mut h, "Export the table results");
    type_into(&mut h, "File to write", file.to_str().unwrap());
    click(&mut h, "Save");
    assert!(h.query_by_label_contains("exists. Save again to replace it.").is_some());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
    click(&mut h, "Save");
    assert_eq!(std::fs::read(&file).unwrap(), std::fs::read(cli.path().join("results.tex")).unwrap());

    click(&mut h, "Export all…");
    click(&mut h, "CSV (spreadsheets)");
    let folder = out.path().join("all tables");
    type_into(&mut h, FOLDER, folder.to_str().unwrap());
    click(&mut h, "Save");
    cli_report(&master, "csv", cli.path(), None);
    for kind in TABLES {
        let name = format!("{}.csv", kind.name);
        assert_eq!(
            std::fs::read(folder.join(&name)).unwrap(),
            std::fs::read(cli.path().join(&name)).unwrap(),
            "{name}"
        );
    }

    // A place that cannot be written is reported in the dialog.
    click(&mut h, "Export all…");
    type_into(&mut h, FOLDER, file.to_str().unwrap());
    click(&mut h, "Save");
    assert!(h.query_by_label_contains("Could not write").is_some());
    assert!(h.query_by_label(FOLDER).is_some(), "the dialog stays open");
}
