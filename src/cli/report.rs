use anyhow::Context;
use clap::Args;
use protest::report::{self, Format, TableKind};
use protest::{atomic, master_file};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The master to report on.
    master: PathBuf,
    /// Output format: text, csv, markdown or latex.
    #[arg(long, short, default_value = "text")]
    format: Format,
    /// Only this table (repeat for several): results, agreement, pairwise, scores, category-scores,
    /// auto-eval, rounds. All by default.
    #[arg(long = "table", short, value_name = "NAME")]
    tables: Vec<TableKind>,
    /// Write each table to DIR/NAME.EXT (txt, csv, md, tex) instead of printing.
    #[arg(long, short, value_name = "DIR")]
    output: Option<PathBuf>,
}

pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    let master = master_file::load(&args.master)?;
    let kinds = if args.tables.is_empty() { TableKind::ALL.to_vec() } else { args.tables };
    let tables = report::tables(&master, &kinds);
    match args.output {
        None => {
            let rendered: Vec<String> = tables.iter().map(|t| args.format.render(t)).collect();
            print!("{}", rendered.join("\n"));
        }
        Some(dir) => {
            std::fs::create_dir_all(&dir).with_context(|| format!("could not create {}", dir.display()))?;
            for table in &tables {
                let path = dir.join(format!("{}.{}", table.name, args.format.extension()));
                atomic::write_with(&path, |w| w.write_all(args.format.render(table).as_bytes()))?;
                println!("wrote {}", path.display());
            }
        }
    }
    Ok(())
}
