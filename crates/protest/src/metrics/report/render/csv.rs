//! CSV: one header line with each column's whole header path, then the data and total rows, each
//! labelled with the headings above it. Heading rows and notes are left out; cells without a value
//! are empty so that spreadsheets see numbers.

use super::super::table::{RowKind, Table};

pub fn render(table: &Table) -> String {
    let mut out = ::csv::Writer::from_writer(Vec::new());
    let header = std::iter::once(table.label_header.clone()).chain(table.columns.iter().map(|c| c.flat_label()));
    let rows = table.rows.iter().zip(table.full_labels()).filter(|(row, _)| row.kind != RowKind::Heading);
    // Writing to a Vec cannot fail, and every record has the header's length.
    out.write_record(header).expect("writing CSV to memory");
    for (row, label) in rows {
        out.write_record(std::iter::once(label).chain(row.cells.iter().map(|c| c.data())))
            .expect("writing CSV to memory");
    }
    String::from_utf8(out.into_inner().expect("writing CSV to memory")).expect("CSV of UTF-8 strings is UTF-8")
}

#[cfg(test)]
mod tests {
    use crate::metrics::report::table::tests::sample;

    #[test]
    fn header_paths_labels_and_empty_cells() {
        let csv = super::render(&sample());
        let mut reader = ::csv::Reader::from_reader(csv.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(header, ["Category", "Count", "Pronoun A ✓", "Pronoun A ✗", "Pronoun B ✓", "Antecedent A ✓"]);
        let rows: Vec<Vec<String>> = reader.records().map(|r| r.unwrap().iter().map(String::from).collect()).collect();
        assert_eq!(rows.len(), 4, "headings are left out");
        assert_eq!(rows[0], ["Anaphoric / Inter “it” / Subject", "3", "2", "1", "3", "3"]);
        assert_eq!(rows[2], ["Pleonastic", "1", "1", "1", "1", ""]);
        assert_eq!(rows[3][0], "Total");
    }

    #[test]
    fn quotes_fields_that_need_it() {
        let mut table = sample();
        table.rows[3].label = "They, \"singular\"".into();
        let csv = super::render(&table);
        assert!(csv.contains("\"Anaphoric / They, \"\"singular\"\"\""), "{csv}");
    }
}
