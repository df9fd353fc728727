use crate::cli::masters::{read_master, with_master};
use crate::cli::options::{Output, created};
use crate::cli::printer::Printer;
use anyhow::Context;
use clap::Args;
use protest::metrics::auto_eval::aligned_by::{self, AlignedBy, SystemMatches};
use protest::metrics::auto_eval::{self, Precision};
use protest::model::{Master, MatchRule, Round};
use protest::workflow;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct AutoEvalArgs {
    /// The master to evaluate; the results are stored in it.
    master: PathBuf,
    /// Print what the round would settle without changing the file.
    #[arg(long)]
    dry_run: bool,
    /// What to compare: `minimal` (the pronoun forms among the aligned tokens, annotators'
    /// minimal selections) or `aligned` (every aligned token, the rule of earlier versions).
    /// Stored with the results for later rounds; without it the stored rule is used (`minimal`
    /// for a master never evaluated).
    #[arg(long, value_parser = rule_parser())]
    rule: Option<MatchRule>,
    /// Leave out the agreement judge (French targets): only the reference match settles
    /// candidates in this round.
    #[arg(long)]
    no_agreement: bool,
    /// Output format: text, or json for scripts (docs/json-output.md).
    #[arg(long, short, value_enum, default_value_t = Output::Text)]
    format: Output,
}

impl AutoEvalArgs {
    /// Whether stdout holds a JSON document ([`Printer`]).
    pub fn prints_json(&self) -> bool {
        self.format == Output::Json
    }
}

/// `--rule`'s values, listed for the shells' completion (the stored names work too).
fn rule_parser() -> impl clap::builder::TypedValueParser<Value = MatchRule> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values =
        [PossibleValue::new("minimal").alias("minimal_tokens"), PossibleValue::new("aligned").alias("aligned_tokens")];
    PossibleValuesParser::new(values).map(|name| match name.as_str() {
        "minimal" | "minimal_tokens" => MatchRule::MinimalTokens,
        _ => MatchRule::AlignedTokens,
    })
}

pub fn run(args: AutoEvalArgs, p: &Printer) -> anyhow::Result<()> {
    let print = |master: &Master| -> anyhow::Result<()> {
        let round = master.auto_eval.rounds.last().context("a round was just added")?;
        let reference = master.reference().map(|c| c.name.as_str());
        let precision = Precision::of(master);
        let systems = aligned_by::per_system(master);
        match args.format {
            Output::Text => {
                p.out(describe(round, reference))?;
                p.out_line(describe_precision(&precision, round.agreement))?;
                p.out(describe_aligned_by(&systems))?;
            }
            Output::Json => p.json(&json(round, reference, &precision, &systems, &args))?,
        }
        Ok(())
    };
    // Read before the master is opened: a clock outside the years a file holds is refused first.
    let now = created(None)?;
    if args.dry_run {
        let mut master = read_master(p, &args.master)?;
        master.auto_eval.rule = args.rule.unwrap_or(master.auto_eval.rule);
        master.auto_eval = auto_eval::run_with(&master, now, judges(&args));
        print(&master)?;
        return p.say(format_args!("dry run: {} not changed", args.master.display()));
    }
    with_master(p, &args.master, |store| {
        workflow::auto_eval::run(store, args.rule, judges(&args), now)?;
        print(store.master())
    })?;
    p.say(format_args!("stored in {}", args.master.display()))
}

fn judges(args: &AutoEvalArgs) -> auto_eval::Judges {
    auto_eval::Judges { agreement: !args.no_agreement }
}

/// What the round did, for scripts: the round as stored, with the counts the text derives.
fn json(
    r: &Round,
    reference: Option<&str>,
    precision: &Precision,
    systems: &[SystemMatches],
    args: &AutoEvalArgs,
) -> serde_json::Value {
    serde_json::json!({
        "master": args.master.display().to_string(),
        "stored": !args.dry_run,
        "reference": reference,
        "round": r,
        "candidates": r.candidates(),
        "to_humans": r.candidates() - r.automatic(),
        "matches_with_verdict": precision.matches_with_verdict,
        "matches_judged_incorrect": precision.judged_incorrect,
        "agreements_with_verdict": precision.agreements_with_verdict,
        "agreements_judged_incorrect": precision.agreements_judged_incorrect,
        "disagreements_with_verdict": precision.disagreements_with_verdict,
        "disagreements_judged_correct": precision.disagreements_judged_correct,
        "matches_aligned_by": systems,
    })
}

fn describe(r: &Round, reference: Option<&str>) -> String {
    let to_humans = r.candidates() - r.automatic();
    let against = match reference {
        Some(name) => format!("'{name}' and"),
        None => "(no reference corpus)".into(),
    };
    let mut out = format!(
        "Round {}: {} MT candidates compared with {against} {} translations judged correct\n",
        r.round,
        r.candidates(),
        r.judged_references
    );
    out += &format!("  rule            {}\n", r.rule.name());
    out += &format!("  match           {:>5}   settled this round: {}", r.matches, r.settled);
    if r.unsettled > 0 {
        out += &format!(", no longer settled: {}", r.unsettled);
    }
    out += "\n";
    if r.agreement {
        out += &format!("  agreement       {:>5}   pronoun and antecedent agree (correct)\n", r.agreements);
        out += &format!("  disagreement    {:>5}   they disagree in gender (incorrect)\n", r.disagreements);
        out += &format!("  contradicted    {:>5}   matched, but the judge disagrees\n", r.contradicted);
    }
    out += &format!("  mismatch        {:>5}\n", r.mismatches);
    out += &format!("  no translation  {:>5}\n", r.no_translation);
    out += &format!("  no reference    {:>5}\n", r.no_reference);
    if r.uncertain_boundaries > 0 {
        // A short label, so that the count stands in the column of the others.
        out += &format!(
            "  uncertain       {:>5}   sentence boundaries inferred with low confidence\n",
            r.uncertain_boundaries
        );
    }
    out += &format!("  to humans       {:>5}\n", to_humans);
    out
}

/// The precision of the match and of the judge as far as humans have judged what they settled.
fn describe_precision(p: &Precision, judge: bool) -> String {
    let mut out =
        format!("  judged ✗ by humans: {} of {} matches with a verdict", p.judged_incorrect, p.matches_with_verdict);
    if judge {
        out += &format!(
            "\n  judged the other way by humans: {} of {} agreements, {} of {} disagreements with a verdict",
            p.agreements_judged_incorrect,
            p.agreements_with_verdict,
            p.disagreements_judged_correct,
            p.disagreements_with_verdict
        );
    }
    out
}

/// Each system's matches by how the words they compared were aligned.
fn describe_aligned_by(systems: &[SystemMatches]) -> String {
    let width = systems.iter().map(|s| s.system.chars().count()).max().unwrap_or(0);
    let mut out = String::from(
        "  matches by how their words were aligned (bridge: through the reference; aligner: the built-in aligner, least sure; given: with the corpus):\n",
    );
    for s in systems {
        let counts: Vec<String> = AlignedBy::ALL.iter().map(|&by| format!("{} {}", by.name(), s.count(by))).collect();
        out += &format!("    {:<width$}  {}\n", s.system, counts.join("  "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_count_stands_in_one_column() {
        let round = Round {
            round: 2,
            run: chrono::Utc::now(),
            judged_references: 4,
            matches: 120,
            mismatches: 3000,
            no_translation: 7,
            no_reference: 12,
            uncertain_boundaries: 35,
            agreements: 40,
            disagreements: 9,
            contradicted: 2,
            settled: 5,
            unsettled: 1,
            rule: MatchRule::MinimalTokens,
            agreement: true,
        };
        let text = describe(&round, Some("reference"));
        let rows: Vec<&str> = text.lines().skip(2).collect();
        assert_eq!(rows.len(), 9, "{text}");
        // Each count ends at the same column.
        let ends: Vec<usize> = rows.iter().map(|l| l.find(|c: char| c.is_ascii_digit()).unwrap()).collect();
        let last_digit =
            |l: &str, start: usize| start + l[start..].find(|c: char| !c.is_ascii_digit()).unwrap_or(l.len() - start);
        let ends: Vec<usize> = rows.iter().zip(ends).map(|(l, s)| last_digit(l, s)).collect();
        assert!(ends.iter().all(|&e| e == ends[0]), "{text}");
        assert!(
            text.contains("  uncertain          35   sentence boundaries inferred with low confidence\n"),
            "{text}"
        );
        assert!(text.contains("  mismatch         3000\n"), "{text}");
    }
}
