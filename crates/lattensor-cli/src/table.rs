//! `lattensor table`: the promotion table over the 28 lattice types (the 23
//! dtypes, low-precision ones included, and the five weak kinds).
//!
//! The cells are computed once by [`cells`] from
//! `lattensor::promote::result_type_in`; the four formats only lay them out.

use std::fmt::Write as _;

use lattensor::promote::result_type_in;
use lattensor::{Error, LatticeType, PromotionMode};

use crate::TableFormat;
use crate::escape::{json_str, xml};

/// One cell: the promoted type, or the refusal and what ALL mode would give.
pub enum Cell {
    /// The mode allows the pair.
    Ok(LatticeType),
    /// The mode refuses it.
    Refused {
        /// ALL mode's answer (the natural explicit cast target).
        suggestion: LatticeType,
        /// The library's error message.
        message: String,
    },
}

/// The table: `cells()[row][col]` for rows and columns in `LatticeType::ALL` order.
pub fn cells(mode: PromotionMode) -> Vec<Vec<Cell>> {
    LatticeType::ALL.iter().map(|&a| LatticeType::ALL.iter().map(|&b| cell(a, b, mode)).collect()).collect()
}

fn cell(a: LatticeType, b: LatticeType, mode: PromotionMode) -> Cell {
    match result_type_in(&[a, b], mode) {
        Ok(t) => Cell::Ok(t),
        Err(e) => {
            // Promotion errors carry ALL's answer; for any other error fall
            // back to the lattice join, which is what ALL mode computes.
            let suggestion = match &e {
                Error::Promotion { suggestion, .. } => *suggestion,
                _ => lattensor::promote::join(a, b).unwrap_or(a),
            };
            Cell::Refused { suggestion, message: e.to_string() }
        }
    }
}

/// Renders the table of `mode` in `format`.
pub fn render(mode: PromotionMode, format: TableFormat) -> String {
    let cells = cells(mode);
    match format {
        TableFormat::Text => text(mode, &cells),
        TableFormat::Json => json(&cells),
        TableFormat::Html => html(mode, &cells),
        TableFormat::Svg => svg(mode, &cells),
    }
}

fn text(mode: PromotionMode, cells: &[Vec<Cell>]) -> String {
    // one column wider than the longest label (`!f8e4m3fnuz`)
    let width = LatticeType::ALL.iter().map(|t| t.short_name().len() + 2).max().unwrap_or(7);
    let mut out = format!("Promotion table, mode {mode}: row ⊔ column\n\n");
    let _ = write!(out, "{:>width$}", "");
    for c in LatticeType::ALL {
        let _ = write!(out, "{:>width$}", c.short_name());
    }
    out.push('\n');
    let mut refused = 0;
    for (r, row) in LatticeType::ALL.iter().zip(cells) {
        let _ = write!(out, "{:>width$}", r.short_name());
        for c in row {
            let s = match c {
                Cell::Ok(t) => t.short_name(),
                Cell::Refused { suggestion, .. } => {
                    refused += 1;
                    format!("!{}", suggestion.short_name())
                }
            };
            let _ = write!(out, "{s:>width$}");
        }
        out.push('\n');
    }
    out.push_str("\nLegend: b = bool; a trailing * marks a weak result (i32* i64* f32* f64* c128*).\n");
    out.push_str("        f8e4m3fn … f4e2m1fn, int4, uint4: low-precision leaves; a pair with no join is refused in every mode.\n");
    if refused > 0 {
        let _ = writeln!(
            out,
            "        !x = refused in mode {mode} ({refused} of {} cells); x is what mode ALL would give.",
            cells.len() * cells.len()
        );
        out.push_str("        `lattensor promote A B --mode <mode>` prints the refusal message.\n");
    }
    out
}

fn json(cells: &[Vec<Cell>]) -> String {
    // Written by hand to keep the lattice order (serde_json's map sorts keys).
    let mut out = String::from("{\n");
    for (i, (r, row)) in LatticeType::ALL.iter().zip(cells).enumerate() {
        let _ = write!(out, "  {}: {{", json_str(&r.name()));
        for (j, (c, cell)) in LatticeType::ALL.iter().zip(row).enumerate() {
            let value = match cell {
                Cell::Ok(t) => json_str(&t.name()),
                Cell::Refused { message, .. } => format!("{{\"error\": {}}}", json_str(message)),
            };
            let _ = write!(out, "{}{}: {value}", if j == 0 { "" } else { ", " }, json_str(&c.name()));
        }
        out.push_str(if i + 1 == cells.len() { "}\n" } else { "},\n" });
    }
    out.push_str("}\n");
    out
}

/// The CSS class and tooltip of a cell, shared by HTML and SVG.
fn style(row: LatticeType, col: LatticeType, cell: &Cell) -> (&'static str, String, String) {
    match cell {
        Cell::Ok(t) => (
            if t.weak { "weak" } else { "strong" },
            t.short_name(),
            format!("{} ⊔ {} = {} ({})", row.name(), col.name(), t.name(), if t.weak { "weak" } else { "strong" }),
        ),
        Cell::Refused { suggestion, message } => ("refused", format!("!{}", suggestion.short_name()), message.clone()),
    }
}

const COLOURS: &str = "td.strong, rect.strong { background: #e8f0fe; fill: #e8f0fe; }\n\
    td.weak, rect.weak { background: #fff4d6; fill: #fff4d6; font-style: italic; }\n\
    td.refused, rect.refused { background: #fbd9d7; fill: #fbd9d7; color: #a50e0e; }\n";

fn html(mode: PromotionMode, cells: &[Vec<Cell>]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>lattensor promotion table, mode {mode}</title>\n<style>\n\
         body {{ font-family: sans-serif; margin: 2em; }}\n\
         table {{ border-collapse: collapse; font-family: monospace; }}\n\
         th, td {{ border: 1px solid #ccc; padding: 3px 6px; text-align: center; }}\n\
         th {{ background: #f4f4f4; }}\n\
         th.weak {{ font-style: italic; }}\n\
         .legend span {{ display: inline-block; padding: 2px 8px; margin-right: 1em; border: 1px solid #ccc; }}\n\
         {COLOURS}</style>\n</head>\n<body>\n\
         <h1>Promotion table, mode {mode}</h1>\n\
         <p>Cell = row ⊔ column, computed by <code>lattensor::promote::result_type_in</code>. \
         Hover over a cell for details.</p>\n\
         <p class=\"legend\"><span class=\"strong\" style=\"background:#e8f0fe\">strong result</span>\
         <span class=\"weak\" style=\"background:#fff4d6\"><i>weak result</i> (ends in *)</span>\
         <span class=\"refused\" style=\"background:#fbd9d7\">!x refused in mode {mode}; x is ALL's result</span></p>\n\
         <table>\n<thead>\n<tr><th>⊔</th>"
    );
    for c in LatticeType::ALL {
        let _ = write!(out, "<th class=\"{}\">{}</th>", if c.weak { "weak" } else { "strong" }, xml(&c.short_name()));
    }
    out.push_str("</tr>\n</thead>\n<tbody>\n");
    for (&r, row) in LatticeType::ALL.iter().zip(cells) {
        let _ =
            write!(out, "<tr><th class=\"{}\">{}</th>", if r.weak { "weak" } else { "strong" }, xml(&r.short_name()));
        for (&c, cell) in LatticeType::ALL.iter().zip(row) {
            let (class, label, tip) = style(r, c, cell);
            let _ = write!(out, "<td class=\"{class}\" title=\"{}\">{}</td>", xml(&tip), xml(&label));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</body>\n</html>\n");
    out
}

fn svg(mode: PromotionMode, cells: &[Vec<Cell>]) -> String {
    const CW: usize = 72; // fits `!f8e4m3fnuz`
    const CH: usize = 22;
    const TOP: usize = 40;
    let n = LatticeType::ALL.len();
    let (w, h) = (CW * (n + 1) + 10, TOP + CH * (n + 1) + 50);
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"monospace\" font-size=\"11\">\n\
         <style>\n{COLOURS}text.weak {{ font-style: italic; }}\n</style>\n\
         <rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n\
         <text x=\"5\" y=\"20\" font-size=\"14\" font-family=\"sans-serif\">Promotion table, mode {mode} (row ⊔ column)</text>\n"
    );
    let header = |out: &mut String, x: usize, y: usize, t: LatticeType| {
        let class = if t.weak { "weak" } else { "strong" };
        let _ = writeln!(
            out,
            "<text class=\"{class}\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>",
            x + CW / 2,
            y + 15,
            xml(&t.short_name())
        );
    };
    for (j, &c) in LatticeType::ALL.iter().enumerate() {
        header(&mut out, CW * (j + 1), TOP, c);
    }
    for (i, (&r, row)) in LatticeType::ALL.iter().zip(cells).enumerate() {
        let y = TOP + CH * (i + 1);
        header(&mut out, 0, y, r);
        for (j, (&c, cell)) in LatticeType::ALL.iter().zip(row).enumerate() {
            let x = CW * (j + 1);
            let (class, label, tip) = style(r, c, cell);
            let _ = writeln!(
                out,
                "<g><title>{}</title><rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{CW}\" height=\"{CH}\" stroke=\"#ccc\"/>\
                 <text class=\"{class}\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text></g>",
                xml(&tip),
                x + CW / 2,
                y + 15,
                xml(&label)
            );
        }
    }
    let ly = TOP + CH * (n + 1) + 20;
    let _ = write!(
        out,
        "<rect class=\"strong\" x=\"5\" y=\"{ly}\" width=\"14\" height=\"14\"/><text x=\"24\" y=\"{}\">strong</text>\n\
         <rect class=\"weak\" x=\"90\" y=\"{ly}\" width=\"14\" height=\"14\"/><text x=\"109\" y=\"{}\">weak (*)</text>\n\
         <rect class=\"refused\" x=\"190\" y=\"{ly}\" width=\"14\" height=\"14\"/><text x=\"209\" y=\"{}\">!x refused in mode {mode} (x = ALL's result)</text>\n\
         </svg>\n",
        ly + 11,
        ly + 11,
        ly + 11
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_mode_refuses_only_pairs_without_join_and_safe_refuses_more() {
        let count = |m| cells(m).iter().flatten().filter(|c| matches!(c, Cell::Refused { .. })).count();
        let no_join = LatticeType::ALL
            .iter()
            .flat_map(|&a| LatticeType::ALL.iter().map(move |&b| (a, b)))
            .filter(|&(a, b)| lattensor::promote::join(a, b).is_none())
            .count();
        assert!(no_join > 0);
        assert_eq!(count(PromotionMode::All), no_join);
        assert!(count(PromotionMode::Safe) > no_join);
    }

    #[test]
    fn json_covers_the_low_precision_dtypes() {
        let j = render(PromotionMode::All, TableFormat::Json);
        assert!(j.contains("\"float8_e4m3fn\": {\"bool\": \"float8_e4m3fn\""), "{}", &j[..400]);
        assert!(j.contains("\"int4\": {\"error\""), "int4 ⊔ uint4 refused");
        assert_eq!(j.lines().count(), 2 + LatticeType::ALL.len());
    }

    #[test]
    fn text_has_a_row_per_type() {
        let t = render(PromotionMode::Safe, TableFormat::Text);
        assert!(t.contains("!f64*"), "{t}");
        assert_eq!(t.lines().filter(|l| l.trim_start().starts_with("c128*")).count(), 1);
    }
}
