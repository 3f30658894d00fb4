//! `lattensor lattice`: the promotion lattice as Graphviz DOT or as SVG.
//!
//! Nodes are `LatticeType::ALL` and edges `promote::COVERING_EDGES`, so the
//! picture is the library's data, not a copy of the guide's figure. The SVG
//! uses a small layered layout: a node's layer is its longest path from
//! `bool`, and nodes within a layer are ordered by the mean position of their
//! predecessors (a barycentre pass) to keep edges from crossing needlessly.

use std::fmt::Write as _;

use lattensor::LatticeType;
use lattensor::promote::COVERING_EDGES;

use crate::escape::xml;

fn idx(t: LatticeType) -> usize {
    t.index()
}

/// The layer of every node: the length of the longest edge path from a minimal node.
pub fn layers() -> Vec<usize> {
    let n = LatticeType::ALL.len();
    let mut layer = vec![0usize; n];
    // Bellman-Ford style relaxation: the graph is acyclic with n nodes, so
    // n rounds reach the fixed point.
    for _ in 0..n {
        let mut changed = false;
        for (a, b) in COVERING_EDGES {
            if layer[idx(b)] < layer[idx(a)] + 1 {
                layer[idx(b)] = layer[idx(a)] + 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    layer
}

/// Nodes grouped by layer, each layer ordered to reduce crossings.
fn ordered_layers() -> Vec<Vec<usize>> {
    let (rows, _) = layout();
    rows
}

/// Layers (bottom first) and each node's horizontal position in units of node spacing.
///
/// A node sits at the mean position of its predecessors (barycentre), then
/// nodes of a layer are pushed apart to at least one unit. Chains such as
/// `u8 → u16 → u32` thus stay in one column, and side branches (`f32*`) keep
/// their own column instead of being re-centred into the middle.
fn layout() -> (Vec<Vec<usize>>, Vec<f64>) {
    let layer = layers();
    let depth = layer.iter().max().map_or(0, |m| m + 1);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for (i, &l) in layer.iter().enumerate() {
        rows[l].push(i);
    }
    let mut pos = vec![0f64; layer.len()];
    for row in &mut rows {
        let mut keyed: Vec<(f64, usize)> = row
            .iter()
            .map(|&i| {
                let preds: Vec<f64> =
                    COVERING_EDGES.iter().filter(|(_, b)| idx(*b) == i).map(|(a, _)| pos[idx(*a)]).collect();
                let bary = if preds.is_empty() { 0.0 } else { preds.iter().sum::<f64>() / preds.len() as f64 };
                (bary, i)
            })
            .collect();
        // Ties keep LatticeType::ALL order (ints before floats), which is stable and readable.
        keyed.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let wanted: f64 = keyed.iter().map(|k| k.0).sum::<f64>() / keyed.len().max(1) as f64;
        let mut xs: Vec<f64> = keyed.iter().map(|k| k.0).collect();
        for k in 1..xs.len() {
            xs[k] = xs[k].max(xs[k - 1] + 1.0);
        }
        // Pushing apart only moves nodes right; shift back so the layer stays centred on its barycentres.
        let shift = wanted - xs.iter().sum::<f64>() / xs.len().max(1) as f64;
        for (x, (_, i)) in xs.iter().zip(&keyed) {
            pos[*i] = x + shift;
        }
        *row = keyed.into_iter().map(|(_, i)| i).collect();
    }
    (rows, pos)
}

/// Graphviz DOT source of the lattice (bottom to top; weak nodes dashed).
pub fn dot() -> String {
    let mut out = String::from(
        "// The TensorFlow-NumPy promotion lattice, from lattensor::promote::COVERING_EDGES.\n\
         // An edge a → b means a promotes to b. Dashed nodes are weak types. Render: dot -Tsvg lattice.dot\n\
         digraph lattice {\n  rankdir=BT;\n  node [shape=box, style=rounded, fontname=\"monospace\"];\n",
    );
    for t in LatticeType::ALL {
        let style = if t.weak { "rounded,dashed" } else { "rounded" };
        let _ = writeln!(
            out,
            "  \"{}\" [label=\"{}\", style=\"{style}\", tooltip=\"{}\"];",
            t.short_name(),
            t.short_name(),
            t.name()
        );
    }
    for row in ordered_layers() {
        let names: Vec<String> = row.iter().map(|&i| format!("\"{}\"", LatticeType::ALL[i].short_name())).collect();
        let _ = writeln!(out, "  {{ rank=same; {} }}", names.join("; "));
    }
    for (a, b) in COVERING_EDGES {
        let _ = writeln!(out, "  \"{}\" -> \"{}\";", a.short_name(), b.short_name());
    }
    out.push_str("}\n");
    out
}

/// The lattice as a standalone SVG image (bool at the bottom).
pub fn svg() -> String {
    const DX: f64 = 90.0;
    const DY: f64 = 70.0;
    const W: f64 = 56.0;
    const H: f64 = 26.0;
    let (rows, pos) = layout();
    let min = pos.iter().copied().fold(f64::INFINITY, f64::min);
    let max = pos.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let width = (max - min) * DX + W + 60.0;
    let height = rows.len() as f64 * DY + 80.0;
    let mut centre = vec![(0f64, 0f64); LatticeType::ALL.len()];
    for (l, row) in rows.iter().enumerate() {
        for &i in row {
            centre[i] = (30.0 + W / 2.0 + (pos[i] - min) * DX, height - 50.0 - l as f64 * DY);
        }
    }
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-family=\"monospace\" font-size=\"13\">\n\
         <title>TensorFlow-NumPy promotion lattice (lattensor)</title>\n\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" \
         orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#555\"/></marker></defs>\n\
         <rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"20\" font-family=\"sans-serif\" font-size=\"14\">Promotion lattice: a → b means a promotes to b; dashed = weak</text>\n"
    );
    for (a, b) in COVERING_EDGES {
        let (x1, y1) = centre[idx(a)];
        let (x2, y2) = centre[idx(b)];
        // Start and end on the boxes' top and bottom edges. An edge that skips
        // layers leaves and arrives vertically (a cubic curve), so it runs
        // along its own column instead of cutting through the boxes between.
        let (y1, y2) = (y1 - H / 2.0, y2 + H / 2.0);
        let (c1, c2) = if y1 - y2 > DY { (y2 + DY * 0.5, y2 + DY * 0.5) } else { (y1, y2) };
        let _ = writeln!(
            out,
            "<path class=\"edge\" d=\"M {x1:.1} {y1:.1} C {x1:.1} {c1:.1}, {x2:.1} {c2:.1}, {x2:.1} {y2:.1}\" \
             fill=\"none\" stroke=\"#555\" marker-end=\"url(#arrow)\"><title>{} → {}</title></path>",
            xml(&a.name()),
            xml(&b.name())
        );
    }
    for (i, t) in LatticeType::ALL.iter().enumerate() {
        let (x, y) = centre[i];
        let (fill, dash) = if t.weak { ("#fff4d6", " stroke-dasharray=\"5,3\"") } else { ("#e8f0fe", "") };
        let _ = writeln!(
            out,
            "<g class=\"node {}\"><title>{}</title><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{W}\" height=\"{H}\" rx=\"6\" fill=\"{fill}\" stroke=\"#333\"{dash}/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></g>",
            if t.weak { "weak" } else { "strong" },
            xml(&t.name()),
            x - W / 2.0,
            y - H / 2.0,
            y + 5.0,
            xml(&t.short_name())
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use lattensor::DType;

    #[test]
    fn layers_are_longest_paths_from_bool() {
        let l = layers();
        assert_eq!(l[LatticeType::strong(DType::Bool).index()], 0);
        assert_eq!(l[LatticeType::weak(DType::I32).unwrap().index()], 1);
        for (a, b) in COVERING_EDGES {
            assert!(l[b.index()] > l[a.index()]);
        }
        assert_eq!(l.iter().max(), l.get(LatticeType::strong(DType::C128).index()));
    }

    #[test]
    fn dot_names_every_node_and_edge() {
        let d = dot();
        for t in LatticeType::ALL {
            assert!(d.contains(&format!("\"{}\" [label", t.short_name())));
        }
        assert_eq!(d.matches(" -> ").count(), COVERING_EDGES.len());
    }
}
