//! JSON, for scripts: a table as one object with the values CSV has — the same columns, the
//! data and total rows labelled with the headings above them — numbers as JSON numbers and no
//! value as `null` (docs/reports.md#json has an example).

use super::super::table::{Cell, RowKind, Table};
use serde_json::{Value, json};

pub fn render(table: &Table) -> String {
    let mut text = serde_json::to_string_pretty(&value(table)).expect("a JSON value always serialises");
    text.push('\n');
    text
}

/// Several tables as one JSON document: `{"tables": [...]}`, each as [`render`] writes it.
pub fn render_all(tables: &[Table]) -> String {
    let all = json!({ "tables": tables.iter().map(value).collect::<Vec<_>>() });
    let mut text = serde_json::to_string_pretty(&all).expect("a JSON value always serialises");
    text.push('\n');
    text
}

/// The table as a JSON value.
pub fn value(table: &Table) -> Value {
    let rows: Vec<Value> = table
        .rows
        .iter()
        .zip(table.full_labels())
        .filter(|(row, _)| row.kind != RowKind::Heading)
        .map(|(row, label)| {
            json!({
                "label": label,
                "total": row.kind == RowKind::Total,
                "values": row.cells.iter().map(cell).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "name": table.name,
        "title": table.title,
        "label_header": table.label_header,
        "columns": table.columns.iter().map(|c| c.flat_label()).collect::<Vec<_>>(),
        "rows": rows,
        "notes": table.notes,
    })
}

/// A cell as CSV writes it, typed: a count as an integer, a measurement as a number at full
/// precision, text as a string, nothing as `null`.
fn cell(cell: &Cell) -> Value {
    match cell {
        Cell::Count(n) => json!(n),
        Cell::Number { value: Some(v), .. } if v.is_finite() => json!(v),
        Cell::Text(t) => json!(t),
        Cell::Empty | Cell::NotApplicable | Cell::Number { .. } => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use crate::metrics::report::table::tests::sample;
    use serde_json::{Value, json};

    #[test]
    fn the_values_of_csv_typed() {
        let table = sample();
        let v: Value = serde_json::from_str(&super::render(&table)).unwrap();
        assert_eq!(v["name"], "sample");
        assert_eq!(v["columns"], json!(["Count", "Pronoun A ✓", "Pronoun A ✗", "Pronoun B ✓", "Antecedent A ✓"]));
        let rows = v["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 4, "headings are left out, as in CSV");
        assert_eq!(rows[0]["label"], "Anaphoric / Inter “it” / Subject");
        assert_eq!(rows[0]["values"], json!([3, 2, 1, 3, 3]));
        assert_eq!(rows[2]["values"][4], Value::Null, "– is null");
        assert_eq!((rows[3]["label"].clone(), rows[3]["total"].clone()), (json!("Total"), json!(true)));
        let all: Value = serde_json::from_str(&super::render_all(&[table.clone(), table])).unwrap();
        assert_eq!(all["tables"].as_array().unwrap().len(), 2);
    }
}
