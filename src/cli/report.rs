use clap::Args;
use protest::metrics::report::{self, Format, TABLES, TableKind};
use protest::store::load_master_with_statuses;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The master to report on.
    master: PathBuf,
    /// Output format: text, csv, markdown, latex or json (one document with every table).
    #[arg(long, short, default_value = "text")]
    format: Format,
    /// Only this table (repeat for several). All by default.
    #[arg(long = "table", short, value_name = "NAME", value_parser = TableKind::parse, long_help = tables_help())]
    tables: Vec<&'static TableKind>,
    /// Write each table to DIR/NAME.EXT (txt, csv, md, tex) instead of printing.
    #[arg(long, short, value_name = "DIR")]
    output: Option<PathBuf>,
}

pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    let (master, replay, statuses) = load_master_with_statuses(&args.master)?;
    super::warn_about_journal(&args.master, &replay);
    let tables = match args.tables.is_empty() {
        true => report::tables_with_statuses(&master, &statuses, TABLES),
        false => report::tables_with_statuses(&master, &statuses, args.tables),
    };
    match args.output {
        None => {
            print!("{}", args.format.render_all(&tables));
        }
        Some(dir) => {
            for path in report::write_tables(&dir, &tables, args.format)? {
                println!("wrote {}", path.display());
            }
        }
    }
    super::leave_to_exit(master);
    Ok(())
}

/// `--table`'s long help: every table with what it shows, from the registry.
fn tables_help() -> String {
    let width = TABLES.iter().map(|t| t.name.len()).max().unwrap_or(0);
    let tables: Vec<String> = TABLES.iter().map(|t| format!("  {:width$}  {}", t.name, t.help)).collect();
    format!("Only this table (repeat for several). All by default, in this order:\n{}", tables.join("\n"))
}
