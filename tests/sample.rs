//! The bundled sample master is what its documented rebuild command produces, and it covers all
//! 13 PROTEST categories.

use protest::store::master_file;
use std::path::Path;
use std::process::Command;

#[test]
fn rebuild_command_reproduces_the_sample_master() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sample.master.json");
    let status = Command::new("bash")
        .arg(root.join("sample_batches/rebuild.sh"))
        .arg(&out)
        .env("PROTEST", env!("CARGO_BIN_EXE_protest"))
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let committed = std::fs::read(root.join("sample_batches/sample.master.json")).unwrap();
    assert!(
        std::fs::read(&out).unwrap() == committed,
        "sample.master.json is out of date: run sample_batches/rebuild.sh"
    );
}

#[test]
fn sample_covers_every_category() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let master = master_file::load(&root.join("sample_batches/sample.master.json")).unwrap();
    assert_eq!(master.categories.len(), 13);
    for category in &master.categories {
        let n = master.examples.iter().filter(|e| e.category == category.name).count();
        let minimum = if category.function == "addressee" { 2 } else { 3 };
        assert!(n >= minimum, "{} has {n} examples", category.name);
        if category.anaphoric {
            assert!(master.examples.iter().filter(|e| e.category == category.name).all(|e| !e.antecedents.is_empty()));
        }
    }
}
