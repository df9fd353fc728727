use protest::{Error, batch, master_file, summary::Summary};
use std::path::Path;

pub fn run(file: &Path) -> anyhow::Result<()> {
    let bytes = std::fs::read(file).map_err(|e| Error::io(file, e))?;
    if batch::is_batch(&bytes) {
        let batch = batch::from_bytes(file, &bytes)?;
        println!("{}: valid", file.display());
        print!("{}", batch.summary());
        return Ok(());
    }
    let master = master_file::from_bytes(file, &bytes)?;
    println!("{}: valid", file.display());
    print!("{}", Summary::of(&master));
    Ok(())
}
