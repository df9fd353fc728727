use super::{InFile, with_master};
use clap::{Args, Subcommand};
use protest::{annotators, master_file};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct AnnotatorArgs {
    #[command(subcommand)]
    command: AnnotatorCommand,
}

#[derive(Debug, Subcommand)]
enum AnnotatorCommand {
    /// Add an annotator to a master (names are unique, ignoring case).
    Add { master: PathBuf, name: String },
    /// Rename an annotator; their id, records and task-set parts stay theirs.
    Rename { master: PathBuf, old: String, new: String },
    /// List the annotators of a master with the number of records each has (as saved).
    List { master: PathBuf },
}

pub fn run(args: AnnotatorArgs) -> anyhow::Result<()> {
    match args.command {
        AnnotatorCommand::Add { master, name } => {
            let id = with_master(&master, |store| Ok(store.update(|m| annotators::add(m, &name).in_file(&master))?))?;
            println!("added {} (id {id}) to {}", name.trim(), master.display());
        }
        AnnotatorCommand::Rename { master, old, new } => {
            let id =
                with_master(
                    &master,
                    |store| Ok(store.update(|m| annotators::rename(m, &old, &new).in_file(&master))?),
                )?;
            println!("renamed annotator {id} to {} in {}", new.trim(), master.display());
        }
        AnnotatorCommand::List { master } => {
            let m = master_file::load(&master)?;
            if m.annotators.is_empty() {
                println!("{} has no annotators yet", master.display());
            }
            let width = m.annotators.iter().map(|a| a.name.chars().count()).max().unwrap_or(0).max(4);
            for a in &m.annotators {
                let records = m.records.iter().filter(|r| r.annotator == a.id).count();
                println!("{:>4}  {:width$}  {records} records", a.id, a.name);
            }
        }
    }
    Ok(())
}
