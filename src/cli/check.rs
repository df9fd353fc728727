use protest::{master_file, summary::Summary};
use std::path::Path;

pub fn run(file: &Path) -> anyhow::Result<()> {
    let master = master_file::load(file)?;
    println!("{}: valid", file.display());
    print!("{}", Summary::of(&master));
    Ok(())
}
