//! Runs the built `lattensor` binary and checks its outputs against TF's
//! measured ground truth (`crates/lattensor/tests/data`).

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lattensor")).args(args).output().expect("the binary runs")
}

fn stdout(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn data(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../lattensor/tests/data").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

/// The 20 lattice kinds as the TF data names them, and as our JSON names them.
const KINDS: [(&str, &str); 20] = [
    ("bool", "bool"),
    ("uint8", "uint8"),
    ("uint16", "uint16"),
    ("uint32", "uint32"),
    ("uint64", "uint64"),
    ("int8", "int8"),
    ("int16", "int16"),
    ("int32", "int32"),
    ("int64", "int64"),
    ("bfloat16", "bfloat16"),
    ("float16", "float16"),
    ("float32", "float32"),
    ("float64", "float64"),
    ("complex64", "complex64"),
    ("complex128", "complex128"),
    ("i32*", "int32*"),
    ("i64*", "int64*"),
    ("f32*", "float32*"),
    ("f64*", "float64*"),
    ("c128*", "complex128*"),
];

fn table_json(mode: &str) -> Value {
    serde_json::from_str(&stdout(&["table", "--mode", mode, "--format", "json"])).expect("table JSON parses")
}

#[test]
fn all_mode_table_equals_tf_cell_by_cell() {
    let tf = data("tf_promotion_all.json");
    let ours = table_json("all");
    let mut checked = 0;
    for (tf_row, row) in KINDS {
        for (tf_col, col) in KINDS {
            let want = &tf["table"][tf_row][tf_col];
            let dtype = want["dtype"].as_str().unwrap_or_else(|| panic!("{tf_row} {tf_col}: {want}"));
            let weak = want["weak"].as_bool().unwrap();
            let expected = format!("{dtype}{}", if weak { "*" } else { "" });
            assert_eq!(ours[row][col].as_str(), Some(expected.as_str()), "{row} ⊔ {col}");
            checked += 1;
        }
    }
    assert_eq!(checked, 400);
    // 15 + 8 low-precision dtypes + 5 weak kinds
    assert_eq!(ours.as_object().unwrap().len(), 28);
    assert_eq!(ours["float8_e4m3fn"]["int8"].as_str(), Some("float8_e4m3fn"));
    assert_eq!(ours["int4"]["int32*"].as_str(), Some("int4"));
    let refused = ours["float8_e4m3fn"]["bfloat16"]["error"].as_str().expect("float8 ⊔ bfloat16 has no join");
    assert!(refused.contains("no common dtype") && refused.contains("x.cast(DType::F32)"), "{refused}");
}

#[test]
fn safe_mode_refuses_exactly_where_tf_does() {
    let tf = data("tf_promotion_safe.json");
    let ours = table_json("safe");
    let mut refused = 0;
    for (tf_row, row) in KINDS {
        for (tf_col, col) in KINDS {
            let want = &tf["table"][tf_row][tf_col];
            let cell = &ours[row][col];
            if want.get("error").is_some() {
                refused += 1;
                let msg = cell["error"].as_str().unwrap_or_else(|| panic!("{row} ⊔ {col} should be refused: {cell}"));
                assert!(msg.contains("implicit dtype promotion between"), "{msg}");
            } else {
                let expected = format!(
                    "{}{}",
                    want["dtype"].as_str().unwrap(),
                    if want["weak"].as_bool().unwrap() { "*" } else { "" }
                );
                assert_eq!(cell.as_str(), Some(expected.as_str()), "{row} ⊔ {col}");
            }
        }
    }
    assert!(refused > 50, "{refused}");
}

#[test]
fn text_table_marks_refusals_and_has_a_legend() {
    let all = stdout(&["table"]);
    // ALL refuses only pairs without a join (the low-precision leaves)
    let core_rows: Vec<&str> = all.lines().skip(3).take(15).collect();
    assert!(core_rows.iter().all(|r| r.split_whitespace().take(16).all(|c| !c.starts_with('!'))), "{core_rows:?}");
    assert!(all.contains("!f32"), "float8 ⊔ bfloat16 is refused, suggesting float32");
    let safe = stdout(&["table", "--mode", "safe", "--format", "text"]);
    assert!(safe.contains("!f64*") && safe.contains("Legend"), "{safe}");
    // 1 title + blank + header + 28 rows
    let rows: Vec<&str> = safe.lines().skip(3).take(28).collect();
    assert!(rows.iter().all(|r| r.split_whitespace().count() == 29), "{rows:?}");
}

/// Balanced-tag check: every opened element is closed in order (or self-closed).
fn assert_well_formed(doc: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = doc;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("unterminated tag") + start;
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') || tag.starts_with('?') {
            continue;
        }
        assert!(!tag.contains('<'), "'<' inside a tag: {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name.trim()), "mismatched </{name}>");
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().unwrap().to_string();
            if !matches!(name.as_str(), "meta" | "br") {
                stack.push(name);
            }
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
}

#[test]
fn html_and_svg_tables_are_well_formed() {
    let html = stdout(&["table", "--mode", "safe", "--format", "html"]);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_well_formed(&html);
    assert_eq!(html.matches("<td ").count(), 784); // 28 × 28
    assert!(
        html.contains("class=\"refused\" title=\"result_type: in promotion mode SAFE"),
        "tooltips carry the refusal"
    );
    assert!(html.contains("class=\"weak\""));
    let svg = stdout(&["table", "--format", "svg", "--mode", "strict"]);
    assert!(svg.starts_with("<svg"));
    assert_well_formed(&svg);
    assert_eq!(svg.matches("<rect class=").count(), 784 + 3);
}

#[test]
fn lattice_outputs_contain_every_node_and_edge() {
    let names = ["b", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "bf16", "f16", "f32", "f64", "c64", "c128"];
    let weak = ["i32*", "i64*", "f32*", "f64*", "c128*"];
    let dot = stdout(&["lattice"]);
    assert!(dot.contains("digraph lattice {") && dot.trim_end().ends_with('}'));
    assert_eq!(dot.matches('{').count(), dot.matches('}').count());
    for n in names.iter().chain(&weak) {
        assert!(dot.contains(&format!("\"{n}\" [label=\"{n}\"")), "{n}");
    }
    for n in weak {
        assert!(dot.contains(&format!("\"{n}\" [label=\"{n}\", style=\"rounded,dashed\"")), "{n} dashed");
    }
    assert_eq!(dot.matches(" -> ").count(), 35);
    assert!(dot.contains("\"b\" -> \"i32*\"") && dot.contains("\"c64\" -> \"c128\""));

    let svg = stdout(&["lattice", "--format", "svg"]);
    assert_well_formed(&svg);
    for n in names.iter().chain(&weak) {
        assert!(svg.contains(&format!(">{n}</text>")), "{n}");
    }
    assert_eq!(svg.matches("<path class=\"edge\"").count(), 35);
    assert_eq!(svg.matches("stroke-dasharray").count(), 5);
}

#[test]
fn promote_exit_codes() {
    let ok = run(&["promote", "int8", "uint32"]);
    assert_eq!(ok.status.code(), Some(0));
    let text = String::from_utf8_lossy(&ok.stdout);
    assert!(text.contains("result: int64") && text.contains("i8 -> i16 -> i32 -> i64"), "{text}");

    let refused = run(&["promote", "i8", "u32", "--mode", "safe"]);
    assert_eq!(refused.status.code(), Some(1));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("(int8, weak=False) and (uint32, weak=False)"), "{err}");

    let weak = run(&["promote", "f32*", "float16", "--mode", "safe"]);
    assert_eq!(weak.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&weak.stdout).contains("result: float16"));

    let three = run(&["promote", "u8", "i8", "i16", "--mode", "strict"]);
    assert_eq!(three.status.code(), Some(1));

    for bad in [
        &["promote", "int33", "i8"][..],
        &["promote", "i8*", "i8"],
        &["promote", "i8"],
        &["promote"],
        &["promote", "i8", "i16", "--mode", "lenient"],
    ] {
        let out = run(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty(), "{bad:?}");
    }
    assert_eq!(run(&["table", "--format", "pdf"]).status.code(), Some(2));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn help_and_version() {
    let help = stdout(&["--help"]);
    for cmd in ["table", "lattice", "promote", "tour"] {
        assert!(help.contains(cmd), "{help}");
    }
    let ph = stdout(&["promote", "--help"]);
    assert!(ph.contains("Exit status"), "{ph}");
    assert!(stdout(&["--version"]).starts_with("lattensor 0."));
}

/// The block of the tour whose comment line is `# {tf}`: the `=> ` line after it.
fn tour_result<'a>(tour: &'a str, tf: &str) -> Option<&'a str> {
    let comment = format!("# {tf}");
    let mut lines = tour.lines().skip_while(|l| *l != comment);
    lines.next()?;
    lines.find(|l| l.starts_with("=> ")).map(|l| &l[3..])
}

#[test]
fn tour_matches_tf_reprs() {
    let seeds = data("seed_outputs.json");
    for mode in ["all", "safe"] {
        let tour = stdout(&["tour", "--mode", mode]);
        assert!(tour.contains("Weak types"), "header");
        let mut compared = 0;
        for (name, items) in seeds["modes"][mode].as_object().unwrap() {
            for item in items.as_array().unwrap() {
                let tf_in = item["in"].as_str().unwrap();
                if let Some(repr) = item["repr"].as_str() {
                    // Only reprs where our format is TF's: scalar tensors (arrays
                    // print without numpy's `array(...)` wrapper; variables have no name).
                    if !repr.starts_with("<tf.Tensor") || repr.contains("array(") {
                        continue;
                    }
                    let ours = tour_result(&tour, tf_in).unwrap_or_else(|| panic!("{mode} {name}: {tf_in} missing"));
                    assert_eq!(ours, repr.replacen("<tf.Tensor", "<Tensor", 1), "{mode} {name}: {tf_in}");
                    compared += 1;
                } else if let Some(err) = item["error"].as_str()
                    && err.starts_with("TypeError: In promotion mode")
                {
                    let ours = tour_result(&tour, tf_in).unwrap_or_else(|| panic!("{mode} {name}: {tf_in} missing"));
                    assert!(ours.starts_with("error: "), "{mode} {tf_in}: {ours}");
                    // TF: between (<dtype: 'int32'>, weak=False) and (...); ours names dtypes plainly.
                    let plain = err.replace("<dtype: '", "").replace("'>", "");
                    let pair = &plain[plain.find("between").unwrap()..plain.find(" is disallowed").unwrap()];
                    assert!(ours.contains(pair), "{mode} {tf_in}: {ours} lacks {pair}");
                    compared += 1;
                }
            }
        }
        assert!(compared >= 12, "{mode}: only {compared} compared");
    }
}

#[test]
fn tour_shows_arrays_variables_and_notes() {
    let tour = stdout(&["tour"]);
    assert_eq!(
        tour_result(&tour, "tf.constant([5.0, 10.0, 3])"),
        Some("<Tensor: shape=(3,), dtype=float32, numpy=[ 5., 10.,  3.], weak=True>")
    );
    assert_eq!(
        tour_result(&tour, "a.assign_add(tf.constant(5, tf.int16))"),
        Some("<Variable shape=() dtype=int32, numpy=15>")
    );
    assert!(tour.contains("&constant_as(10, DType::I32)? + &constant_as(5.0, DType::F32)?"));
    assert_eq!(
        tour_result(&tour, "tf.math.abs([100.0, 4.0])"),
        Some("<Tensor: shape=(2,), dtype=float32, numpy=[100.,   4.], weak=True>")
    );
    let safe = stdout(&["tour", "--mode", "safe"]);
    assert_eq!(safe.matches("=> error:").count(), 3, "{safe}");
}

/// A fresh scratch directory under the target dir (no temp-file crate needed).
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn einsum_command_reads_npy_writes_npy_and_prints_the_path() {
    use lattensor::{Tensor, npy};
    let dir = scratch("einsum_cmd");
    let a = Tensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2]).unwrap();
    let b = Tensor::from_vec(vec![0.5f32, 1.0, 1.5, 2.0], &[2, 2]).unwrap();
    let (pa, pb, pc) = (dir.join("a.npy"), dir.join("b.npy"), dir.join("c.npy"));
    npy::write_npy(&pa, &a).unwrap();
    npy::write_npy(&pb, &b).unwrap();
    let text = stdout(&[
        "einsum",
        "ij,jk->ik",
        pa.to_str().unwrap(),
        pb.to_str().unwrap(),
        "-o",
        pc.to_str().unwrap(),
        "--path",
    ]);
    assert!(text.contains("Optimized FLOP count"), "{text}");
    let c = npy::read_npy(&pc).unwrap();
    // int32 ⊔ float32 = float32 through the lattice
    assert_eq!(c.dtype(), lattensor::DType::F32);
    assert_eq!(c.to_vec::<f32>().unwrap(), vec![3.5, 5.0, 7.5, 11.0]);
    // raw semantics: diagonal expansion, printed when no -o is given
    let text = stdout(&["einsum", "ij->iij", pa.to_str().unwrap(), "--semantics", "raw"]);
    assert!(text.contains("shape=(2, 2, 2)"), "{text}");
    // a malformed equation is exit 1 with the library's message
    let out = run(&["einsum", "ij,jk->ikq", pa.to_str().unwrap(), pb.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ij,jk->ikq"));
    // --mode: SAFE refuses int32 ⊔ float32 (exit 1); numpy semantics alone keeps the lattice
    let mixed = [pa.to_str().unwrap(), pb.to_str().unwrap()];
    let out = run(&["einsum", "ij,jk->ik", mixed[0], mixed[1], "--mode", "safe"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&["einsum", "ij,jk->ik", mixed[0], mixed[1], "--semantics", "numpy"]);
    assert!(text.contains("float32"), "{text}");
    let text = stdout(&["einsum", "ij,jk->ik", mixed[0], mixed[1], "--semantics", "numpy", "--mode", "numpy"]);
    assert!(text.contains("float64"), "{text}");
    let help = stdout(&["einsum", "--help"]);
    assert!(help.contains("--mode") && help.contains("keeps the lattice"), "{help}");
    assert_eq!(run(&["einsum", "ij->ji", mixed[0], "--mode", "bogus"]).status.code(), Some(2));
}

#[test]
fn bitcast_command_follows_tf_shape_rules() {
    use lattensor::{Tensor, npy};
    let dir = scratch("bitcast_cmd");
    let x = Tensor::from_vec(vec![1.0f32, -0.0], &[2]).unwrap();
    let (px, py) = (dir.join("x.npy"), dir.join("y.npy"));
    npy::write_npy(&px, &x).unwrap();
    stdout(&["bitcast", px.to_str().unwrap(), "uint8", "-o", py.to_str().unwrap(), "--mode", "strict"]);
    let y = npy::read_npy(&py).unwrap();
    assert_eq!(y.shape(), &[2, 4]);
    assert_eq!(y.to_vec::<u8>().unwrap(), vec![0, 0, 0x80, 0x3f, 0, 0, 0, 0x80]);
    let out = run(&["bitcast", px.to_str().unwrap(), "bool"]);
    assert_eq!(out.status.code(), Some(1));
    let out = run(&["bitcast", px.to_str().unwrap(), "float8"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("float8"));
}
