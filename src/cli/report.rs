use crate::cli::masters::{leave_to_exit, warn_about_journal};
use crate::cli::options::format_parser;
use crate::cli::output_folder::OutputFolder;
use crate::cli::printer::Printer;
use clap::Args;
use protest::metrics::report::{self, Format, TABLES, TableKind};
use protest::store::load_master_with_statuses;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The master to report on.
    master: PathBuf,
    /// Output format: text, csv, markdown, latex or json (one document with every table).
    #[arg(long, short, default_value = "text", value_parser = format_parser())]
    format: Format,
    /// Only this table (repeat for several). All by default.
    #[arg(long = "table", short, value_name = "NAME", value_parser = table_parser(), hide_possible_values = true,
          long_help = tables_help())]
    tables: Vec<&'static TableKind>,
    /// Write each table to DIR/NAME.EXT (txt, csv, md, tex, json) instead of printing; DIR is
    /// created if it is not there.
    #[arg(long, short, value_name = "DIR")]
    output: Option<PathBuf>,
}

impl ReportArgs {
    /// Whether stdout holds a JSON document ([`Printer`]).
    pub fn prints_json(&self) -> bool {
        self.format == Format::Json && self.output.is_none()
    }
}

pub fn run(args: ReportArgs, p: &Printer) -> anyhow::Result<()> {
    let (master, replay, statuses) = load_master_with_statuses(&args.master)?;
    warn_about_journal(p, &args.master, &replay);
    let tables = match args.tables.is_empty() {
        true => report::tables_with_statuses(&master, &statuses, TABLES),
        false => report::tables_with_statuses(&master, &statuses, args.tables),
    };
    match args.output {
        None => {
            p.out(args.format.render_all(&tables))?;
        }
        Some(dir) => {
            let folder = OutputFolder::make(p, &dir)?;
            let written = protest::workflow::metrics::write_tables(&dir, &tables, args.format)?;
            folder.keep();
            for path in written {
                p.say(format_args!("wrote {}", path.display()))?;
            }
        }
    }
    leave_to_exit(master);
    Ok(())
}

/// `--table`'s values: the registry's table names, listed for the shells' completion.
fn table_parser() -> impl clap::builder::TypedValueParser<Value = &'static TableKind> {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(TABLES.iter().map(|t| t.name))
        .map(|name| TableKind::named(&name).expect("a listed table"))
}

/// `--table`'s long help: every table with what it shows, from the registry.
fn tables_help() -> String {
    let width = TABLES.iter().map(|t| t.name.len()).max().unwrap_or(0);
    let tables: Vec<String> = TABLES.iter().map(|t| format!("  {:width$}  {}", t.name, t.help)).collect();
    format!("Only this table (repeat for several). All by default, in this order:\n{}", tables.join("\n"))
}
