//! The values of options several commands share: `--format` (text or JSON; or a report table's
//! format) and `--created`.

use clap::ValueEnum;

/// What a command prints on stdout: text to read, or JSON for scripts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Output {
    Text,
    Json,
}

/// The time to record: `--created` when given (checked, as the clock is, to be in the years a
/// file holds), else the clock's time, refused when the clock is set outside them.
pub fn created(given: Option<chrono::DateTime<chrono::Utc>>) -> anyhow::Result<chrono::DateTime<chrono::Utc>> {
    use protest::model::clock;
    match given {
        Some(t) if clock::in_range(t) => Ok(t),
        Some(t) => anyhow::bail!("--created {}: a time in the years 1970–9999 is needed", t.to_rfc3339()),
        None => Ok(clock::now()?),
    }
}

/// `--format` of the commands printing report tables: text, csv, markdown, latex or json (the
/// extensions txt, md, tex too); listed, so that shells complete them rather than file names.
pub fn format_parser() -> impl clap::builder::TypedValueParser<Value = protest::metrics::report::Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    use protest::metrics::report::Format;
    let values = Format::ALL.map(|f| PossibleValue::new(f.name()).alias(f.extension()));
    PossibleValuesParser::new(values).map(|s| s.parse::<Format>().expect("one of the listed formats"))
}
