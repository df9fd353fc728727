use crate::cli::masters::{read_master, with_master};
use crate::cli::printer::Printer;
use clap::{Args, Subcommand};
use protest::workflow;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct AnnotatorArgs {
    #[command(subcommand)]
    command: AnnotatorCommand,
}

#[derive(Debug, Subcommand)]
enum AnnotatorCommand {
    /// Add an annotator to a master (names are unique, ignoring case).
    Add {
        /// The master file (.json) to change.
        master: PathBuf,
        /// The annotator's name.
        name: String,
    },
    /// Rename an annotator; their id, records and task-set parts stay theirs.
    Rename {
        /// The master file (.json) to change.
        master: PathBuf,
        /// The annotator's name now.
        old: String,
        /// The new name.
        new: String,
    },
    /// Remove an annotator who has no records and no part of a task set.
    Remove {
        /// The master file (.json) to change.
        master: PathBuf,
        /// The annotator's name.
        name: String,
    },
    /// List the annotators of a master with the number of records each has (as saved).
    List {
        /// The master file (.json).
        master: PathBuf,
    },
}

pub fn run(args: AnnotatorArgs, p: &Printer) -> anyhow::Result<()> {
    match args.command {
        AnnotatorCommand::Add { master, name } => {
            let id = with_master(p, &master, |store| Ok(workflow::annotators::add(store, &name)?))?;
            p.say(format_args!("added {} (id {id}) to {}", name.trim(), master.display()))?;
        }
        AnnotatorCommand::Rename { master, old, new } => {
            let id = with_master(p, &master, |store| Ok(workflow::annotators::rename(store, &old, &new)?))?;
            p.say(format_args!("renamed annotator {id} to {} in {}", new.trim(), master.display()))?;
        }
        AnnotatorCommand::Remove { master, name } => {
            let id = with_master(p, &master, |store| Ok(workflow::annotators::remove(store, &name)?))?;
            p.say(format_args!("removed {} (id {id}) from {}", name.trim(), master.display()))?;
        }
        AnnotatorCommand::List { master } => {
            let m = read_master(p, &master)?;
            if m.annotators.is_empty() {
                p.out_line(format_args!("{} has no annotators yet", master.display()))?;
            }
            let width = m.annotators.iter().map(|a| a.name.chars().count()).max().unwrap_or(0).max(4);
            for a in &m.annotators {
                let records = m.records.iter().filter(|r| r.annotator == a.id).count();
                p.out_line(format_args!("{:>4}  {:width$}  {records} records", a.id, a.name))?;
            }
        }
    }
    Ok(())
}
