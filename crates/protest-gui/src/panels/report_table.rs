//! Draws a report table (`protest::metrics::report::Table`) as the renderers lay it out: grouped column
//! headers over their columns, heading rows for the pronoun functions, nested labels, numbers on
//! the right, a rule over totals and the notes underneath. Cells show `Cell::plain`, the text the
//! terminal output prints, and name themselves for screen readers (row, column, value).

use egui::{Align, Align2, FontId, Layout, RichText, Stroke, TextStyle, Ui, vec2};
use egui_extras::{Column, TableBuilder};
use protest::metrics::report::{Cell, RowKind, Table};

const INDENT: f32 = 18.0;
/// Padding inside a column, on top of the widest text.
const PADDING: f32 = 14.0;

/// The table with its notes.
pub fn show(ui: &mut Ui, table: &Table) {
    let widths = column_widths(ui, table);
    let line = ui.text_style_height(&TextStyle::Body) + 4.0;
    let depth = table.header_depth();
    let header_lines = table.header_lines();
    let labels = table.full_labels();
    let spacing = ui.spacing().item_spacing.x;
    let total_width = widths.iter().sum::<f32>() + spacing * (widths.len() - 1) as f32;
    // The table scrolls sideways when the view is narrower; the report scrolls down as a whole.
    // egui keeps a sideways bar in view at the bottom of the report even while its table is below
    // the fold, over whatever is there (the chart): the bar comes with the table's first line.
    let below_the_fold = ui.cursor().top() >= ui.clip_rect().bottom();
    let bar = if below_the_fold {
        egui::scroll_area::ScrollBarVisibility::AlwaysHidden
    } else {
        egui::scroll_area::ScrollBarVisibility::VisibleWhenNeeded
    };
    egui::ScrollArea::horizontal().id_salt(("report table", table.name)).scroll_bar_visibility(bar).show(ui, |ui| {
        let mut builder = TableBuilder::new(ui)
            .id_salt(table.name)
            .striped(true)
            .vscroll(false)
            .cell_layout(Layout::left_to_right(Align::Center));
        for &w in &widths {
            builder = builder.column(Column::exact(w).clip(false)); // group labels span columns
        }
        builder
            .header(line * depth as f32 + 4.0, |mut header| {
                header.col(|ui| {
                    ui.with_layout(Layout::bottom_up(Align::Min), |ui| {
                        ui.label(RichText::new(shown(&table.label_header)).strong());
                    });
                });
                for column in 0..table.columns.len() {
                    header.col(|ui| {
                        header_cell(ui, table, &header_lines, column, &widths[1..], spacing, line);
                    });
                }
            })
            .body(|mut body| {
                for (row, label) in table.rows.iter().zip(&labels) {
                    body.row(line + 2.0, |mut cells| {
                        cells.col(|ui| {
                            if row.kind == RowKind::Total {
                                // One rule over the whole row, as in the papers' tables.
                                let x = ui.max_rect().left();
                                let stroke = ui.visuals().widgets.noninteractive.fg_stroke;
                                ui.painter().hline(x..=x + total_width, ui.max_rect().top() - 1.0, stroke);
                            }
                            ui.add_space(INDENT * row.depth as f32);
                            let text = RichText::new(shown(&row.label));
                            let text = if row.kind == RowKind::Data { text } else { text.strong() };
                            ui.label(text);
                        });
                        // Heading rows have no cells; empty ones keep the stripes whole.
                        for _ in row.cells.len()..table.columns.len() {
                            cells.col(|_| {});
                        }
                        for (cell, column) in row.cells.iter().zip(&table.columns) {
                            cells.col(|ui| {
                                let text = RichText::new(shown(&cell.plain()));
                                let text = if row.kind == RowKind::Total { text.strong() } else { text };
                                let layout = if cell.is_numeric() {
                                    Layout::right_to_left(Align::Center)
                                } else {
                                    Layout::left_to_right(Align::Center)
                                };
                                ui.with_layout(layout, |ui| {
                                    ui.label(text).accessible_name(cell_name(label, &column.flat_label(), cell));
                                });
                            });
                        }
                    });
                }
            });
    });
    notes(ui, table);
}

pub fn notes(ui: &mut Ui, table: &Table) {
    for note in &table.notes {
        ui.add(egui::Label::new(RichText::new(shown(note)).small().weak()).wrap());
    }
}

/// The text as drawn: egui's bundled fonts have no ✓ (U+2713) or ✗ (U+2717), so their heavy
/// forms stand in. Screen readers and exports get the library's own text.
pub fn shown(text: &str) -> String {
    text.replace('✓', "✔").replace('✗', "✖")
}

/// How a cell is named for screen readers (and found by the tests): "Row label · column: value".
pub fn cell_name(row_label: &str, column: &str, cell: &Cell) -> String {
    format!("{row_label} · {column}: {}", cell.plain())
}

/// A value column's header cell: its own label at the bottom, and on each line above, the group
/// that starts at this column, its label centred over the group's columns with a rule under it.
/// Group labels are painted, not laid out, so they do not widen the cell they start in; screen
/// readers get each column's whole path from the cells' names.
fn header_cell(
    ui: &mut Ui,
    table: &Table,
    header_lines: &[Vec<protest::metrics::report::table::Span>],
    column: usize,
    widths: &[f32],
    spacing: f32,
    line: f32,
) {
    let top = ui.max_rect().top() + 2.0;
    let left = ui.max_rect().left();
    let font = TextStyle::Body.resolve(ui.style());
    let color = ui.visuals().strong_text_color();
    let rule = Stroke::new(1.0, ui.visuals().weak_text_color());
    let (own, groups) = header_lines.split_last().expect("a table has at least one header line");
    for (level, spans) in groups.iter().enumerate() {
        let Some(span) = spans.iter().find(|s| s.start == column) else { continue };
        let Some(label) = &span.label else { continue };
        let width: f32 =
            widths[span.start..span.start + span.len].iter().sum::<f32>() + spacing * (span.len - 1) as f32;
        let rect = egui::Rect::from_min_size(egui::pos2(left, top + line * level as f32), vec2(width, line));
        ui.painter().text(rect.center(), Align2::CENTER_CENTER, shown(label), font.clone(), color);
        ui.painter().hline(rect.x_range().shrink(3.0), rect.bottom() - 1.0, rule);
    }
    if let Some(label) = own.iter().find(|s| s.start == column).and_then(|s| s.label.as_ref()) {
        let align = if is_numeric_column(table, column) { Align::Max } else { Align::Min };
        ui.with_layout(Layout::bottom_up(align), |ui| ui.label(RichText::new(shown(label)).strong()));
    }
}

fn is_numeric_column(table: &Table, column: usize) -> bool {
    table.rows.iter().filter_map(|r| r.cells.get(column)).all(Cell::is_numeric)
}

/// Widths that fit every label and value: the label column fits the indented row labels, a value
/// column its own header label and values, and a group's label fits over its columns.
fn column_widths(ui: &Ui, table: &Table) -> Vec<f32> {
    let body = TextStyle::Body.resolve(ui.style());
    let measure = |text: &str, font: &FontId| {
        ui.fonts_mut(|f| f.layout_no_wrap(shown(text), font.clone(), egui::Color32::PLACEHOLDER).size().x)
    };
    // Bold text is a little wider; egui draws "strong" in the same font, so a margin suffices.
    let labels = table
        .rows
        .iter()
        .map(|r| measure(&r.label, &body) + INDENT * r.depth as f32)
        .chain([measure(&table.label_header, &body)])
        .fold(0.0, f32::max);
    let mut widths = vec![labels + PADDING];
    for (i, column) in table.columns.iter().enumerate() {
        let own = column.path.last().map_or(0.0, |l| measure(l, &body));
        let values = table.rows.iter().filter_map(|r| r.cells.get(i)).map(|c| measure(&c.plain(), &body));
        widths.push(values.fold(own, f32::max) + PADDING);
    }
    // Widen the columns of a group whose label is wider than they are together.
    let spacing = ui.spacing().item_spacing.x;
    for spans in table.header_lines() {
        for span in spans {
            let Some(label) = &span.label else { continue };
            let columns = &mut widths[1 + span.start..1 + span.start + span.len];
            let have: f32 = columns.iter().sum::<f32>() + spacing * (span.len - 1) as f32;
            let need = measure(label, &body) + PADDING;
            if need > have {
                let extra = (need - have) / span.len as f32;
                columns.iter_mut().for_each(|w| *w += extra);
            }
        }
    }
    widths
}
