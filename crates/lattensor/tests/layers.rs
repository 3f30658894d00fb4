//! The crate's layers, checked: data flows down, and nothing calls upward.
//!
//! | layer | modules |
//! |---|---|
//! | 0 core | `core/`, `promote/`, `dispatch.rs` (the dtype/error/promote knot) |
//! | 1 kernels | `kernels/` |
//! | 2 ops | `ops/`: every op implementation |
//! | 3 composite ops | `einsum/`, `random/`, `image/`: ops built on ops |
//! | 4 api | `tnp/`, `io/`, the TF-named facades (`math`, `nn`, `linalg`, `bitwise`, `debugging`), `variable`, `autodiff/` (gradient tapes and rules), `doc/`, `lib.rs` |
//!
//! The test reads every source file of the library, takes each `crate::…`
//! path outside `#[cfg(test)]` code, maps its first segment to a layer (a name
//! re-exported at the root maps to the layer it comes from, read from
//! `lib.rs`), and fails on any path into a higher layer.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// The layer of a source file, by its path below `src/`.
fn file_layer(rel: &str) -> usize {
    let top = rel.split('/').next().unwrap_or(rel);
    let top = top.strip_suffix(".rs").unwrap_or(top);
    module_layer(top).unwrap_or_else(|| panic!("{rel}: no layer is assigned to module `{top}`; add it to module_layer"))
}

/// The layer of a top-level module, or `None` for a name that is not a module.
fn module_layer(name: &str) -> Option<usize> {
    Some(match name {
        "core" | "promote" | "dispatch" => 0,
        "kernels" => 1,
        "ops" => 2,
        "einsum" | "random" | "image" => 3,
        "tnp" | "numpy" | "io" | "display" | "npy" | "math" | "nn" | "linalg" | "bitwise" | "debugging"
        | "variable" | "autodiff" | "doc" | "lib" => 4,
        _ => return None,
    })
}

/// The names `lib.rs` re-exports, each with the layer of the module it comes from.
fn root_exports() -> BTreeMap<String, usize> {
    let lib = fs::read_to_string(Path::new(SRC).join("lib.rs")).unwrap();
    let mut names = BTreeMap::new();
    for stmt in lib.split(';') {
        let stmt = stmt.trim_start();
        let Some(rest) = stmt.strip_prefix("pub use ").map(|r| r.trim_start_matches("crate::")) else {
            continue;
        };
        let origin = rest.split("::").next().unwrap_or("").trim();
        let Some(layer) = module_layer(origin) else { continue };
        let list = rest.split_once('{').map_or(rest, |(_, l)| l);
        for item in list.split(',') {
            let item = item.trim().trim_end_matches('}').trim();
            let name = item.rsplit(" as ").next().unwrap_or(item).rsplit("::").next().unwrap_or(item).trim();
            if !name.is_empty() {
                names.insert(name.to_string(), layer);
            }
        }
    }
    names
}

/// Every `.rs` file below `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its `#[cfg(test)]` items and comment lines
/// (doc examples use the public API, not `crate::` paths of the library).
fn library_code(text: &str) -> String {
    let mut code = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        code.push_str(&rest[..at]);
        rest = skip_item(&rest[at + "#[cfg(test)]".len()..]);
    }
    code.push_str(rest);
    code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// `text` after the item it starts with: up to the first `;` or the brace
/// that closes the item's first `{`, whichever comes first.
fn skip_item(text: &str) -> &str {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            ';' if depth == 0 => return &text[i + 1..],
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &text[i + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

fn ident_at(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// The first segments of the `crate::` paths in `code`: `crate::a::b` gives
/// `a`, `crate::{a, b::c}` gives `a` and `b`.
fn crate_paths(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        // `$crate::` inside a macro resolves to the root re-export
        let rest = &code[i + "crate::".len()..];
        if let Some(list) = rest.strip_prefix('{') {
            let mut depth = 0usize;
            let mut start = true;
            for (j, c) in list.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_ascii_alphabetic() || c == '_') => {
                        found.push(ident_at(&list[j..]).to_string());
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            found.push(ident_at(rest).to_string());
        }
    }
    found
}

/// Every upward reference as (from-file, target, from-layer, to-layer).
fn upward_references() -> Vec<(String, String, usize, usize)> {
    let exports = root_exports();
    let mut files = Vec::new();
    sources(Path::new(SRC), &mut files);
    files.sort();
    let mut up = Vec::new();
    for path in files {
        let rel = path.strip_prefix(SRC).unwrap().to_string_lossy().replace('\\', "/");
        let from = file_layer(&rel);
        let code = library_code(&fs::read_to_string(&path).unwrap());
        for target in crate_paths(&code) {
            let to = module_layer(&target).or_else(|| exports.get(&target).copied());
            // a root item that is not re-exported from a module (e.g. `cast`, a
            // `#[macro_export]` dispatch macro) belongs to the layer of its definition
            let to = to.unwrap_or_else(|| macro_or_root_item_layer(&target));
            if to > from {
                up.push((rel.clone(), target, from, to));
            }
        }
    }
    up.sort();
    up.dedup();
    up
}

/// Items defined at the crate root rather than re-exported: the exported dtype
/// dispatch macros and the error macros `bail!`/`ensure!` (layer 0) and
/// `lib.rs`'s own functions (layer 4).
fn macro_or_root_item_layer(name: &str) -> usize {
    let dispatch_macro = name.starts_with("with_") || name.starts_with("dispatch") || name.ends_with("_dtype");
    if dispatch_macro || matches!(name, "bail" | "ensure") { 0 } else { 4 }
}

#[test]
fn no_module_calls_upward() {
    let up = upward_references();
    let mut report = String::new();
    for (file, target, from, to) in &up {
        report.push_str(&format!("  {file} (layer {from}) -> crate::{target} (layer {to})\n"));
    }
    println!("{} upward references", up.len());
    assert!(up.is_empty(), "{} references into a higher layer:\n{report}", up.len());
}

#[test]
fn the_scanner_sees_paths_and_lists() {
    let code = "use crate::core::tensor::Tensor;\nuse crate::{DType, kernels::{self, Input}, with_dtype};\nlet x = crate::ops::add(a, b);";
    assert_eq!(crate_paths(code), ["core", "DType", "kernels", "with_dtype", "ops"]);
    assert_eq!(library_code("let a = 1;\n// crate::ops\n#[cfg(test)]\nmod tests { crate::ops }"), "let a = 1;");
    // code after a test item is library code; a `mod tests;` line is skipped alone
    let after = "#[cfg(test)]\nmod tests { fn f() { crate::ops } }\nuse crate::kernels;\n#[cfg(test)]\nmod more;\nuse crate::einsum;";
    assert_eq!(crate_paths(&library_code(after)), ["kernels", "einsum"]);
    assert_eq!(file_layer("core/tensor.rs"), 0);
    assert_eq!(file_layer("kernels/simd/cpu.rs"), 1);
    assert_eq!(file_layer("math.rs"), 4);
    assert_eq!(file_layer("einsum/exec.rs"), 3);
    let exports = root_exports();
    assert_eq!(exports.get("Tensor"), Some(&0));
    assert_eq!(exports.get("constant"), Some(&2));
}

/// The module graph of the Python extension (`crates/lattensor-py/src`): each
/// module with the sibling modules its library code names. `lib.rs`, which
/// declares and registers them all, is left out.
fn extension_graph() -> BTreeMap<String, Vec<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../lattensor-py/src");
    let mut files = Vec::new();
    sources(&dir, &mut files);
    let modules: Vec<String> =
        files.iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).filter(|m| m != "lib").collect();
    let mut graph = BTreeMap::new();
    for path in &files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if name == "lib" {
            continue;
        }
        let code = library_code(&fs::read_to_string(path).unwrap());
        let mut uses: Vec<String> =
            crate_paths(&code).into_iter().filter(|m| *m != name && modules.contains(m)).collect();
        uses.sort();
        uses.dedup();
        graph.insert(name, uses);
    }
    graph
}

/// A cycle in `graph`, as the modules along it, if there is one.
fn find_cycle(graph: &BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    // depth-first search; a node met again while still on the stack closes a cycle
    fn visit<'a>(
        node: &'a str,
        graph: &'a BTreeMap<String, Vec<String>>,
        stack: &mut Vec<&'a str>,
        done: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|n| *n == node) {
            return Some(stack[at..].iter().map(|s| s.to_string()).chain([node.to_string()]).collect());
        }
        if done.contains(&node) {
            return None;
        }
        stack.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, stack, done) {
                return Some(cycle);
            }
        }
        stack.pop();
        done.push(node);
        None
    }
    let (mut stack, mut done) = (Vec::new(), Vec::new());
    graph.keys().find_map(|n| visit(n, graph, &mut stack, &mut done))
}

#[test]
fn the_python_extension_modules_form_no_cycle() {
    let graph = extension_graph();
    assert!(graph.len() >= 8, "read {} modules of the extension", graph.len());
    assert_eq!(find_cycle(&graph), None, "the extension's modules import each other in a cycle: {graph:?}");
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let g = |edges: &[(&str, &[&str])]| -> BTreeMap<String, Vec<String>> {
        edges.iter().map(|(n, e)| (n.to_string(), e.iter().map(|s| s.to_string()).collect())).collect()
    };
    assert_eq!(find_cycle(&g(&[("a", &["b"]), ("b", &["c"]), ("c", &[])])), None);
    assert_eq!(
        find_cycle(&g(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"])])),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}
