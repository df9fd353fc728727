//! What the corpus measurements share: their arguments and reading the corpus files.

use std::path::{Path, PathBuf};

/// What the measurements return: any error, printed by `main`.
pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// `[DATA_DIR] [--show N]`: the corpus folder, by default the nearest
/// `shared/data/discomt-news-en-fr` above the current folder, and how many examples to print.
pub struct Args {
    pub data: PathBuf,
    pub show: usize,
}

impl Args {
    pub fn parse() -> Result<Args> {
        let mut args = std::env::args().skip(1);
        let (mut data, mut show) = (None, 0);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--show" => show = args.next().and_then(|n| n.parse().ok()).unwrap_or(20),
                _ => data = Some(PathBuf::from(arg)),
            }
        }
        Ok(Args { data: data_dir(data)?, show })
    }
}

/// The corpus folder given, or the nearest `shared/data/discomt-news-en-fr` above the current one.
pub fn data_dir(given: Option<PathBuf>) -> Result<PathBuf> {
    match given {
        Some(d) => Ok(d),
        None => Ok(std::env::current_dir()?
            .ancestors()
            .map(|a| a.join("shared/data/discomt-news-en-fr"))
            .find(|p| p.is_dir())
            .ok_or("no shared/data/discomt-news-en-fr above here; pass it")?),
    }
}

/// The lines of a corpus file.
pub fn lines(path: &Path) -> Result<Vec<String>> {
    Ok(protest::ingest::texts::read_lines(path)?)
}
