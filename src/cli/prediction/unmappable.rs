//! What `prediction extract` and `prediction import` say of the examples they cannot map.

use crate::cli::printer::Printer;

/// Lists the examples given no placeholder or candidate, with the reason of each.
pub fn list_unmappable(
    p: &Printer,
    unmappable: &[protest::prediction::extract::Unmappable],
    what: &str,
) -> anyhow::Result<()> {
    if unmappable.is_empty() {
        return Ok(());
    }
    p.say(format_args!("{} example{} {what}:", unmappable.len(), if unmappable.len() == 1 { "" } else { "s" }))?;
    for u in unmappable {
        p.say(format_args!("  example {}: {}", u.example, u.reason))?;
    }
    Ok(())
}
