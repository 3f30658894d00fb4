//! Parsing einsum equations (three grammars) and resolving them against shapes
//! into one form: a label id per operand axis, the output labels and each label's size.
//!
//! Nothing here panics on any input string: every malformed equation is an
//! [`Error::InvalidArgument`] that names the equation and what is wrong (an
//! [`Error::InvalidValue`] for an equation or operand count `tf.einsum` and
//! `tnp.einsum` refuse: TF's and NumPy's `ValueError`).

use std::collections::BTreeMap;

use crate::core::error::{Error, Result};

/// Which front end's rules apply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Front {
    /// TF's raw `Einsum` op: any byte but `.` is a label, exactly one `->`,
    /// 1 or 2 inputs, repeated output labels expand a diagonal, exact sizes.
    Raw,
    /// `tf.einsum`: letters only, spaces ignored, implicit mode with TF's
    /// ordering, any number of operands, exact sizes.
    Tf,
    /// `numpy.einsum`: letters only, spaces ignored, implicit mode with
    /// NumPy's ordering, size-1 broadcasting of named labels.
    NumPy,
}

/// One subscript of a term.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Sub {
    Label(char),
    Ellipsis,
}

/// A parsed equation: the input terms and the (explicit or implicit) output term.
#[derive(Clone, Debug)]
pub(crate) struct Parsed {
    /// The equation as given (for messages).
    pub eq: String,
    pub inputs: Vec<Vec<Sub>>,
    pub output: Vec<Sub>,
}

/// An [`Error::InvalidArgument`] naming the equation.
pub(crate) fn bad(eq: &str, msg: impl std::fmt::Display) -> Error {
    let msg = msg.to_string();
    if msg.contains(eq) && !eq.is_empty() {
        Error::InvalidArgument(format!("einsum: {msg}"))
    } else {
        Error::InvalidArgument(format!("einsum: {msg} [equation '{eq}']"))
    }
}

/// How a label is shown in messages.
pub(crate) fn show(c: char) -> String {
    if c.is_ascii_graphic() || c == ' ' { c.to_string() } else { format!("\\x{:02x}", c as u32) }
}

fn term_str(t: &[Sub]) -> String {
    t.iter()
        .map(|s| match s {
            Sub::Label(c) => show(*c),
            Sub::Ellipsis => "...".to_string(),
        })
        .collect()
}

/// Parses one term: `is_label` decides which characters are labels; `.` must
/// start a complete `...`, which may appear at most once.
fn parse_term(
    eq: &str,
    chars: &[char],
    which: &str,
    is_label: impl Fn(char) -> bool,
    bad_char: impl Fn(char) -> Error,
) -> Result<Vec<Sub>> {
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    let mut seen_ellipsis = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '.' {
            if chars.get(i + 1) != Some(&'.') || chars.get(i + 2) != Some(&'.') {
                return Err(bad(eq, format!("{which} contains a '.' that is not part of an ellipsis ('...')")));
            }
            if seen_ellipsis {
                return Err(bad(eq, format!("{which} contains more than one ellipsis ('...')")));
            }
            seen_ellipsis = true;
            out.push(Sub::Ellipsis);
            i += 3;
        } else if is_label(c) {
            out.push(Sub::Label(c));
            i += 1;
        } else {
            return Err(bad_char(c));
        }
    }
    Ok(out)
}

/// Parses `eq` with the rules of `front`.
pub(crate) fn parse(front: Front, eq: &str) -> Result<Parsed> {
    match front {
        Front::Raw => parse_raw(eq),
        Front::Tf => parse_tf(eq).map_err(python_layer),
        Front::NumPy => parse_numpy(eq).map_err(python_layer),
    }
}

/// An equation error of `tf.einsum` and `tnp.einsum` as [`Error::InvalidValue`]:
/// TF's Python layer checks the equation and the operand count before the
/// kernel runs and raises `ValueError` (NumPy does too), while the raw op's
/// kernel refuses the same equations with `InvalidArgumentError`. Shape
/// mismatches are the kernel's refusal on every front end, and so is a term with
/// two ellipses, which TF's Python layer lets through to the kernel.
fn python_layer(e: Error) -> Error {
    match e {
        Error::InvalidArgument(m) if !m.contains("more than one ellipsis") => Error::InvalidValue(m),
        e => e,
    }
}

fn parse_raw(eq: &str) -> Result<Parsed> {
    let sides: Vec<&str> = eq.split("->").collect();
    if sides.len() != 2 {
        return Err(bad(eq, format!("Expecting exactly one '->' in einsum equation: {eq}")));
    }
    let terms: Vec<&str> = sides[0].split(',').collect();
    if terms.is_empty() || terms.len() > 2 {
        return Err(bad(eq, format!("Expecting 1 or 2 input subscripts in equation '{eq}' but got: {}", terms.len())));
    }
    // labels are bytes; a byte maps to the char of the same code (Latin-1) so all 255 stay distinct
    let to_chars = |s: &str| -> Vec<char> { s.bytes().map(char::from).collect() };
    let no_bad = |_c: char| bad(eq, "unreachable character");
    let mut inputs = Vec::new();
    for (k, t) in terms.iter().enumerate() {
        inputs.push(parse_term(eq, &to_chars(t), &format!("input subscript {k}"), |_| true, no_bad)?);
    }
    let output = parse_term(eq, &to_chars(sides[1]), "the output subscripts", |_| true, no_bad)?;
    let p = Parsed { eq: eq.to_string(), inputs, output };
    check_output_in_inputs(&p, |c| {
        format!(
            "Einsum output subscripts for equation '{eq}' has label '{}' which is not present in the input subscripts",
            show(c)
        )
    })?;
    Ok(p)
}

fn parse_tf(eq: &str) -> Result<Parsed> {
    let s: String = eq.chars().filter(|&c| c != ' ').collect();
    if s.contains("...") && s.contains('0') {
        return Err(bad(eq, format!("Invalid character \"0\" in equation: {s}")));
    }
    let format_err = || bad(eq, format!("Subscripts have incorrect format: {s}"));
    let sides: Vec<&str> = s.split("->").collect();
    if sides.len() > 2 {
        return Err(format_err());
    }
    let mut inputs = Vec::new();
    for (k, t) in sides[0].split(',').enumerate() {
        let chars: Vec<char> = t.chars().collect();
        let term = parse_term(eq, &chars, &format!("input term {k}"), |c| c.is_ascii_alphabetic(), |_| format_err())
            .map_err(|e| if e.to_string().contains("more than one") { e } else { format_err() })?;
        inputs.push(term);
    }
    let output = match sides.get(1) {
        Some(o) => {
            let chars: Vec<char> = o.chars().collect();
            let term =
                parse_term(eq, &chars, "the output", |c| c.is_ascii_alphabetic(), |_| format_err()).map_err(|e| {
                    if e.to_string().contains("more than one") {
                        bad(eq, format!("Output subscripts contain a label appearing more than once: {s}"))
                    } else {
                        format_err()
                    }
                })?;
            if let Some(dup) = first_repeat(&term) {
                return Err(bad(
                    eq,
                    format!(
                        "Output subscripts contain a label appearing more than once: {s} (label '{dup}'; \
                         only the raw op `einsum_raw` expands repeated output labels into a diagonal)"
                    ),
                ));
            }
            term
        }
        None => implicit_tf(&inputs),
    };
    let p = Parsed { eq: eq.to_string(), inputs, output };
    check_output_in_inputs(&p, |c| {
        format!("Output subscripts contain the label {} not present in the input subscripts.", show(c))
    })?;
    Ok(p)
}

fn parse_numpy(eq: &str) -> Result<Parsed> {
    let s: String = eq.chars().filter(|&c| c != ' ').collect();
    let invalid = |c: char| {
        bad(
            eq,
            format!("invalid subscript '{}' in einstein sum subscripts string, subscripts must be letters", show(c)),
        )
    };
    let sides: Vec<&str> = s.split("->").collect();
    if sides.len() > 2 || s.replace("->", "").contains(['-', '>']) {
        return Err(bad(eq, "einstein sum subscript string does not contain proper '->' output specified"));
    }
    let mut inputs = Vec::new();
    for (k, t) in sides[0].split(',').enumerate() {
        let chars: Vec<char> = t.chars().collect();
        inputs.push(parse_term(eq, &chars, &format!("operand {k}"), |c| c.is_ascii_alphabetic(), invalid)?);
    }
    let output = match sides.get(1) {
        Some(o) => {
            let chars: Vec<char> = o.chars().collect();
            let term = parse_term(eq, &chars, "the output", |c| c.is_ascii_alphabetic(), invalid)?;
            if let Some(dup) = first_repeat(&term) {
                return Err(bad(
                    eq,
                    format!("einstein sum subscripts string includes output subscript '{dup}' multiple times"),
                ));
            }
            term
        }
        None => implicit_numpy(&inputs),
    };
    let p = Parsed { eq: eq.to_string(), inputs, output };
    check_output_in_inputs(&p, |c| {
        format!(
            "einstein sum subscripts string included output subscript '{}' which never appeared in an input",
            show(c)
        )
    })?;
    Ok(p)
}

fn first_repeat(term: &[Sub]) -> Option<String> {
    for (i, s) in term.iter().enumerate() {
        if let Sub::Label(c) = s
            && term[..i].contains(s)
        {
            return Some(show(*c));
        }
    }
    None
}

fn check_output_in_inputs(p: &Parsed, msg: impl Fn(char) -> String) -> Result<()> {
    for s in &p.output {
        if let Sub::Label(c) = s
            && !p.inputs.iter().any(|t| t.contains(s))
        {
            return Err(bad(&p.eq, msg(*c)));
        }
    }
    Ok(())
}

/// Label counts over all input terms (each occurrence counts).
fn counts(inputs: &[Vec<Sub>]) -> BTreeMap<char, usize> {
    let mut m = BTreeMap::new();
    for t in inputs {
        for s in t {
            if let Sub::Label(c) = s {
                *m.entry(*c).or_insert(0) += 1;
            }
        }
    }
    m
}

/// TF's implicit output: labels (the ellipsis counting as one) that occur
/// exactly once over all terms, in ASCII order, the ellipsis first.
fn implicit_tf(inputs: &[Vec<Sub>]) -> Vec<Sub> {
    let mut out = Vec::new();
    if inputs.iter().filter(|t| t.contains(&Sub::Ellipsis)).count() == 1 {
        out.push(Sub::Ellipsis);
    }
    out.extend(counts(inputs).into_iter().filter(|&(_, n)| n == 1).map(|(c, _)| Sub::Label(c)));
    out
}

/// NumPy's implicit output: the ellipsis first if any term has one, then the
/// labels that occur exactly once, in ASCII order.
fn implicit_numpy(inputs: &[Vec<Sub>]) -> Vec<Sub> {
    let mut out = Vec::new();
    if inputs.iter().any(|t| t.contains(&Sub::Ellipsis)) {
        out.push(Sub::Ellipsis);
    }
    out.extend(counts(inputs).into_iter().filter(|&(_, n)| n == 1).map(|(c, _)| Sub::Label(c)));
    out
}

/// An equation resolved against operand shapes.
#[derive(Clone, Debug)]
pub(crate) struct Resolved {
    /// Per operand, per axis: the label id, or `None` for a size-1 axis that
    /// broadcasts against a larger size (it is squeezed away before execution).
    pub axes: Vec<Vec<Option<usize>>>,
    /// Output label ids, in order (repeats only for the raw op).
    pub output: Vec<usize>,
    /// Size of each label id.
    pub sizes: Vec<usize>,
    /// Display name of each label id (broadcast dimensions are shown as digits).
    pub names: Vec<char>,
}

impl Resolved {
    /// Per operand, the label ids that remain (dropped axes removed, repeats kept).
    pub fn labels(&self) -> Vec<Vec<usize>> {
        self.axes.iter().map(|a| a.iter().flatten().copied().collect()).collect()
    }
}

fn shape_str(shape: &[usize]) -> String {
    let parts: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", parts.join(","))
}

/// Checks the operand count, ranks and sizes, and assigns label ids.
pub(crate) fn resolve(front: Front, p: &Parsed, shapes: &[&[usize]]) -> Result<Resolved> {
    let eq = p.eq.as_str();
    let n = p.inputs.len();
    if shapes.len() != n {
        let msg = match front {
            Front::Raw => format!("Expected {n} inputs but got: {}", shapes.len()),
            Front::Tf => format!("Got {} inputs for equation \"{eq}\", expecting {n}", shapes.len()),
            Front::NumPy if shapes.is_empty() => {
                "must specify the einstein sum subscripts string and at least one operand".to_string()
            }
            Front::NumPy if shapes.len() > n => format!(
                "more operands provided to einstein sum function than specified in the subscripts string ({} operands, {n} terms)",
                shapes.len()
            ),
            Front::NumPy => format!(
                "fewer operands provided to einstein sum function than specified in the subscripts string ({} operands, {n} terms)",
                shapes.len()
            ),
        };
        let e = bad(eq, msg);
        return Err(if front == Front::Raw { e } else { python_layer(e) });
    }
    // named label ids in order of first appearance
    let mut ids: BTreeMap<char, usize> = BTreeMap::new();
    let mut names = Vec::new();
    for t in &p.inputs {
        for s in t {
            if let Sub::Label(c) = s {
                ids.entry(*c).or_insert_with(|| {
                    names.push(*c);
                    names.len() - 1
                });
            }
        }
    }
    let n_named = names.len();
    // ellipsis ranks
    let mut ell = vec![0usize; n];
    for (k, (t, shape)) in p.inputs.iter().zip(shapes).enumerate() {
        let named = t.iter().filter(|s| matches!(s, Sub::Label(_))).count();
        let has_ell = t.contains(&Sub::Ellipsis);
        let rank = shape.len();
        if has_ell && rank < named {
            return Err(bad(
                eq,
                match front {
                    Front::NumPy => format!(
                        "einstein sum subscripts string contains too many subscripts for operand {k} \
                         (it has {named} named labels but rank {rank}, shape {})",
                        shape_str(shape)
                    ),
                    _ => format!(
                        "Expected input {k} to have rank at least {named} but got: {rank} (shape {})",
                        shape_str(shape)
                    ),
                },
            ));
        }
        if !has_ell && rank != named {
            return Err(bad(
                eq,
                match front {
                    Front::NumPy if rank < named => format!(
                        "einstein sum subscripts string contains too many subscripts for operand {k} \
                         ({named} subscripts for shape {})",
                        shape_str(shape)
                    ),
                    Front::NumPy => format!(
                        "operand {k} has more dimensions than subscripts given in einstein sum, but no '...' \
                         ellipsis provided to broadcast the extra dimensions (shape {}, {named} subscripts)",
                        shape_str(shape)
                    ),
                    _ => format!(
                        "Expected input {k} to have rank {named} but got: {rank} (shape {}); use '...' for extra dimensions",
                        shape_str(shape)
                    ),
                },
            ));
        }
        ell[k] = if has_ell { rank - named } else { 0 };
    }
    let n_bcast = ell.iter().copied().max().unwrap_or(0);
    for i in 0..n_bcast {
        names.push(char::from_digit((i % 10) as u32, 10).unwrap_or('?'));
    }
    // label ids per axis
    let mut labels: Vec<Vec<usize>> = Vec::with_capacity(n);
    for (k, t) in p.inputs.iter().enumerate() {
        let mut l = Vec::with_capacity(shapes[k].len());
        for s in t {
            match s {
                Sub::Label(c) => l.push(ids[c]),
                Sub::Ellipsis => l.extend((n_bcast - ell[k]..n_bcast).map(|q| n_named + q)),
            }
        }
        labels.push(l);
    }
    // sizes: exact within an operand; across operands exact (TF) or broadcasting (NumPy, and ellipsis dims)
    let mut sizes: Vec<Option<(usize, usize, usize)>> = vec![None; names.len()]; // (size, operand, axis)
    for (k, l) in labels.iter().enumerate() {
        let shape = shapes[k];
        for (ax, &id) in l.iter().enumerate() {
            let d = shape[ax];
            // repeated within this operand: exact
            if let Some(first_ax) = l[..ax].iter().position(|&x| x == id) {
                let d0 = shape[first_ax];
                if d0 != d {
                    let c = show(names[id]);
                    return Err(bad(
                        eq,
                        match front {
                            Front::NumPy => format!(
                                "dimensions in single operand for collapsing index '{c}' don't match ({d0} != {d}) in operand {k} shaped {}",
                                shape_str(shape)
                            ),
                            _ => format!(
                                "Expected dimension {d0} at axis {ax} of the input shaped {} but got dimension {d} (repeated label '{c}' in input {k})",
                                shape_str(shape)
                            ),
                        },
                    ));
                }
                continue;
            }
            let broadcasting = id >= n_named || front == Front::NumPy;
            match sizes[id] {
                None => sizes[id] = Some((d, k, ax)),
                Some((s, _, _)) if s == d => {}
                Some((s, k0, _)) => {
                    if broadcasting && (s == 1 || d == 1) {
                        if s == 1 {
                            sizes[id] = Some((d, k, ax));
                        }
                    } else if id >= n_named {
                        return Err(bad(
                            eq,
                            match front {
                                Front::NumPy => format!(
                                    "operands could not be broadcast together: the ellipsis ('...') dimensions of operand {k0} (shaped {}) and operand {k} (shaped {}) have sizes {s} and {d}",
                                    shape_str(shapes[k0]),
                                    shape_str(shape)
                                ),
                                _ => format!(
                                    "In[{k0}] and In[{k}] must have compatible batch dimensions: {} vs. {} (the ellipsis ('...') dimensions do not broadcast: {s} vs. {d})",
                                    shape_str(shapes[k0]),
                                    shape_str(shape)
                                ),
                            },
                        ));
                    } else {
                        let c = show(names[id]);
                        return Err(bad(
                            eq,
                            match front {
                                Front::NumPy => format!(
                                    "operands could not be broadcast together: label '{c}' has size {s} in operand {k0} (shaped {}) and {d} in operand {k} (shaped {})",
                                    shape_str(shapes[k0]),
                                    shape_str(shape)
                                ),
                                _ => format!(
                                    "Expected dimension {s} at axis {ax} of the input shaped {} but got dimension {d} (label '{c}' has size {s} in input {k0}; sizes must match exactly)",
                                    shape_str(shape)
                                ),
                            },
                        ));
                    }
                }
            }
        }
    }
    let sizes: Vec<usize> = sizes.iter().map(|s| s.map_or(1, |(d, _, _)| d)).collect();
    let axes = labels
        .iter()
        .zip(shapes)
        .map(|(l, shape)| {
            l.iter().zip(shape.iter()).map(|(&id, &d)| if d != sizes[id] { None } else { Some(id) }).collect()
        })
        .collect();
    // output
    let mut output = Vec::new();
    let mut out_has_ell = false;
    for s in &p.output {
        match s {
            Sub::Label(c) => output.push(ids[c]),
            Sub::Ellipsis => {
                out_has_ell = true;
                output.extend(n_named..n_named + n_bcast);
            }
        }
    }
    if !out_has_ell && n_bcast > 0 {
        return Err(bad(
            eq,
            match front {
                Front::NumPy => format!(
                    "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis \
                     provided to broadcast the extra dimensions ({n_bcast} broadcast dimension(s))"
                ),
                _ => format!(
                    "Output contains {n_bcast} broadcasting dimension(s) but no ellipsis (...) was found in the output subscripts."
                ),
            },
        ));
    }
    Ok(Resolved { axes, output, sizes, names })
}

#[allow(dead_code)]
pub(crate) fn describe(p: &Parsed) -> String {
    let ins: Vec<String> = p.inputs.iter().map(|t| term_str(t)).collect();
    format!("{}->{}", ins.join(","), term_str(&p.output))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(front: Front, eq: &str) -> String {
        term_str(&parse(front, eq).unwrap().output)
    }

    #[test]
    fn implicit_orderings() {
        assert_eq!(out(Front::Tf, "ba"), "ab");
        assert_eq!(out(Front::Tf, "aB"), "Ba");
        assert_eq!(out(Front::Tf, "ii"), "");
        assert_eq!(out(Front::Tf, "i..."), "...i");
        assert_eq!(out(Front::Tf, "...ij,...jk"), "ik"); // TF drops a shared ellipsis
        assert_eq!(out(Front::NumPy, "...ij,...jk"), "...ik");
        assert_eq!(out(Front::NumPy, " i j , j k "), "ik");
    }

    #[test]
    fn raw_labels_are_bytes() {
        let p = parse(Front::Raw, "i é->é").unwrap();
        assert_eq!(p.inputs[0].len(), 4); // 'i', ' ', and the two bytes of 'é'
        assert_eq!(p.output.len(), 2);
        assert!(parse(Front::Raw, "i.j->ij").is_err());
    }

    #[test]
    fn resolve_assigns_broadcast_labels_right_aligned() {
        let p = parse(Front::Raw, "...ij,...jk->...ik").unwrap();
        let r = resolve(Front::Raw, &p, &[&[3, 1, 2, 3], &[1, 1, 7, 3, 5]]).unwrap();
        // named i, j, k then three broadcast dims
        assert_eq!(r.sizes, vec![2, 3, 5, 1, 3, 7]);
        assert_eq!(r.axes[0], vec![Some(4), None, Some(0), Some(1)]);
        assert_eq!(r.output, vec![3, 4, 5, 0, 2]);
    }
}
