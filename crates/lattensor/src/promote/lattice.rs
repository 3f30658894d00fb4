//! The promotion lattice as data, and its join computed at compile time.
//!
//! The 20 nodes are the 15 dtypes (strong) and the five weak kinds TF allows.
//! [`COVERING_EDGES`] is the Hasse diagram of TF's ALL-mode lattice; everything else
//! — the order, the join table, paths for explanations, the picture the CLI
//! draws — is derived from it. A change to the edges is a change to the
//! semantics of every op, in one place.

use std::fmt;

use crate::DType;
use crate::core::error::{Error, Result};

/// A node of the promotion lattice: a dtype and whether it is weak.
///
/// A *weak* type is the type of a value nobody declared (a Rust or Python
/// literal, or a tensor made from one): it adapts to the strong type it meets.
/// TensorFlow allows exactly five weak types, `i32*`, `i64*`, `f32*`, `f64*`
/// and `c128*`; [`LatticeType::weak`] refuses any other.
///
/// ```
/// use lattensor::{DType, LatticeType};
/// let w = LatticeType::weak(DType::F32).unwrap();
/// assert_eq!(w.to_string(), "float32*");
/// assert_eq!(w.short_name(), "f32*");
/// assert!(LatticeType::weak(DType::I8).is_err());
/// assert_eq!("i64*".parse::<LatticeType>().unwrap(), LatticeType::weak(DType::I64).unwrap());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LatticeType {
    /// The element type.
    pub dtype: DType,
    /// `true` for a weakly typed value.
    pub weak: bool,
}

/// Number of lattice nodes.
pub const NODES: usize = 20;

/// The dtypes that may be weak, in node order (nodes 15..20).
pub const WEAK_DTYPES: [DType; 5] = [DType::I32, DType::I64, DType::F32, DType::F64, DType::C128];

impl LatticeType {
    /// A strong (declared) type.
    pub const fn strong(dtype: DType) -> Self {
        LatticeType { dtype, weak: false }
    }

    /// A weak type.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] unless `dtype` is int32, int64, float32, float64 or complex128.
    pub fn weak(dtype: DType) -> Result<Self> {
        if weak_slot(dtype).is_some() {
            Ok(LatticeType { dtype, weak: true })
        } else {
            Err(Error::InvalidArgument(format!(
                "{dtype} not allowed as a weak type. The allowed types are (int32, int64, float32, float64, complex128)"
            )))
        }
    }

    /// `weak` for the five allowed dtypes, otherwise `strong`. Never fails.
    pub const fn weak_or_strong(dtype: DType, weak: bool) -> Self {
        LatticeType { dtype, weak: weak && weak_slot(dtype).is_some() }
    }

    /// All 20 nodes: the 15 strong dtypes, then `i32* i64* f32* f64* c128*`.
    pub const ALL: [LatticeType; NODES] = {
        let mut out = [LatticeType::strong(DType::Bool); NODES];
        let mut i = 0;
        while i < 15 {
            out[i] = LatticeType::strong(DType::ALL[i]);
            i += 1;
        }
        while i < NODES {
            out[i] = LatticeType { dtype: WEAK_DTYPES[i - 15], weak: true };
            i += 1;
        }
        out
    };

    /// Position in [`LatticeType::ALL`].
    pub const fn index(self) -> usize {
        if self.weak {
            match weak_slot(self.dtype) {
                Some(s) => 15 + s,
                // unreachable through the constructors; treat as strong
                None => self.dtype as usize,
            }
        } else {
            self.dtype as usize
        }
    }

    /// `int32` / `float64*`.
    pub fn name(self) -> String {
        format!("{}{}", self.dtype.name(), if self.weak { "*" } else { "" })
    }

    /// `i32` / `f64*`.
    pub fn short_name(self) -> String {
        format!("{}{}", self.dtype.short_name(), if self.weak { "*" } else { "" })
    }

    /// `self ≤ other` in the lattice: `other` can represent every value of
    /// `self` as far as promotion is concerned (`join(self, other) == other`).
    pub fn le(self, other: LatticeType) -> bool {
        ORDER[self.index()][other.index()]
    }
}

const fn weak_slot(d: DType) -> Option<usize> {
    match d {
        DType::I32 => Some(0),
        DType::I64 => Some(1),
        DType::F32 => Some(2),
        DType::F64 => Some(3),
        DType::C128 => Some(4),
        _ => None,
    }
}

impl fmt::Display for LatticeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.name())
    }
}

impl std::str::FromStr for LatticeType {
    type Err = Error;
    /// Parses `int32`, `f32`, `i32*`, `float64*`, `weak f32`.
    fn from_str(s: &str) -> Result<Self> {
        let s = s.trim();
        if let Some(rest) = s.strip_suffix('*').or_else(|| s.strip_prefix("weak ")) {
            LatticeType::weak(DType::parse(rest)?)
        } else {
            Ok(LatticeType::strong(DType::parse(s)?))
        }
    }
}

const fn s(d: DType) -> LatticeType {
    LatticeType::strong(d)
}
const fn w(d: DType) -> LatticeType {
    LatticeType { dtype: d, weak: true }
}

/// The covering edges (Hasse diagram) of TF's ALL-mode lattice, `a → b`
/// meaning `a < b` with nothing in between, as TF 2.21's promotion tables
/// (`tests/data/`) measure it.
pub const COVERING_EDGES: [(LatticeType, LatticeType); 27] = {
    use DType::*;
    [
        (s(Bool), w(I32)),
        (w(I32), w(I64)),
        (w(I64), s(U8)),
        (w(I64), s(I8)),
        (w(I64), w(F32)),
        (s(U8), s(U16)),
        (s(U8), s(I16)),
        (s(U16), s(U32)),
        (s(U16), s(I32)),
        (s(U32), s(U64)),
        (s(U32), s(I64)),
        (s(U64), w(F64)),
        (s(I8), s(I16)),
        (s(I16), s(I32)),
        (s(I32), s(I64)),
        (s(I64), w(F64)),
        (w(F32), w(F64)),
        (w(F64), s(BF16)),
        (w(F64), s(F16)),
        (w(F64), w(C128)),
        (s(BF16), s(F32)),
        (s(F16), s(F32)),
        (s(F32), s(F64)),
        (s(F32), s(C64)),
        (s(F64), s(C128)),
        (w(C128), s(C64)),
        (s(C64), s(C128)),
    ]
};

/// `ORDER[a][b]`: `a ≤ b`, the reflexive-transitive closure of the edges.
const ORDER: [[bool; NODES]; NODES] = {
    let mut le = [[false; NODES]; NODES];
    let mut i = 0;
    while i < NODES {
        le[i][i] = true;
        i += 1;
    }
    let mut e = 0;
    while e < COVERING_EDGES.len() {
        le[COVERING_EDGES[e].0.index()][COVERING_EDGES[e].1.index()] = true;
        e += 1;
    }
    // Warshall's transitive closure.
    let mut k = 0;
    while k < NODES {
        let mut i = 0;
        while i < NODES {
            if le[i][k] {
                let mut j = 0;
                while j < NODES {
                    if le[k][j] {
                        le[i][j] = true;
                    }
                    j += 1;
                }
            }
            i += 1;
        }
        k += 1;
    }
    le
};

/// `JOIN[a][b]`: index of the least upper bound. Building it fails the
/// compilation if some pair has no unique least upper bound, so the edges
/// are checked to form a lattice every time the crate is built.
const JOIN: [[u8; NODES]; NODES] = {
    let mut join = [[0u8; NODES]; NODES];
    let mut a = 0;
    while a < NODES {
        let mut b = 0;
        while b < NODES {
            let mut found = NODES;
            let mut u = 0;
            while u < NODES {
                if ORDER[a][u] && ORDER[b][u] {
                    // u is an upper bound; is it below every other upper bound?
                    let mut least = true;
                    let mut v = 0;
                    while v < NODES {
                        if ORDER[a][v] && ORDER[b][v] && !ORDER[u][v] {
                            least = false;
                        }
                        v += 1;
                    }
                    if least {
                        found = u;
                    }
                }
                u += 1;
            }
            assert!(found < NODES, "promotion edges do not form a lattice");
            join[a][b] = found as u8;
            b += 1;
        }
        a += 1;
    }
    join
};

/// The least upper bound of two lattice types: TF's ALL-mode promotion.
///
/// ```
/// use lattensor::{promote::join, DType, LatticeType};
/// let i8_ = LatticeType::strong(DType::I8);
/// let u32_ = LatticeType::strong(DType::U32);
/// assert_eq!(join(i8_, u32_), LatticeType::strong(DType::I64));
/// // a strong int meeting a weak float lands on the weak f64 node
/// let f = LatticeType::weak(DType::F32).unwrap();
/// assert_eq!(join(LatticeType::strong(DType::I32), f).to_string(), "float64*");
/// ```
pub fn join(a: LatticeType, b: LatticeType) -> LatticeType {
    LatticeType::ALL[JOIN[a.index()][b.index()] as usize]
}

/// The shortest chain of covering edges from `from` up to `to`, both included,
/// or `None` if `to` is not above `from`.
pub fn path(from: LatticeType, to: LatticeType) -> Option<Vec<LatticeType>> {
    if !from.le(to) {
        return None;
    }
    // Breadth-first search over the covering edges restricted to nodes ≤ to.
    let mut prev = [usize::MAX; NODES];
    let mut queue = std::collections::VecDeque::from([from.index()]);
    prev[from.index()] = from.index();
    while let Some(n) = queue.pop_front() {
        if n == to.index() {
            break;
        }
        for (a, b) in COVERING_EDGES {
            if a.index() == n && b.le(to) && prev[b.index()] == usize::MAX {
                prev[b.index()] = n;
                queue.push_back(b.index());
            }
        }
    }
    let mut chain = vec![to];
    let mut n = to.index();
    while n != from.index() {
        n = prev[n];
        chain.push(LatticeType::ALL[n]);
    }
    chain.reverse();
    Some(chain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_nodes_index_round_trip() {
        for (i, t) in LatticeType::ALL.iter().enumerate() {
            assert_eq!(t.index(), i);
        }
    }

    #[test]
    fn join_examples_from_report() {
        let p = |x: &str| x.parse::<LatticeType>().unwrap();
        assert_eq!(join(p("u64"), p("i8")), p("f64*"));
        assert_eq!(join(p("bf16"), p("f16")), p("f32"));
        assert_eq!(join(p("f64"), p("c64")), p("c128"));
        assert_eq!(join(p("c128*"), p("f16")), p("c64"));
        assert_eq!(join(p("f16"), p("f64*")), p("f16"));
        assert_eq!(join(p("b"), p("b")), p("b"));
    }

    #[test]
    fn path_walks_covering_edges() {
        let p = |x: &str| x.parse::<LatticeType>().unwrap();
        let chain = path(p("i8"), p("i64")).unwrap();
        assert_eq!(chain, vec![p("i8"), p("i16"), p("i32"), p("i64")]);
        assert!(path(p("f32"), p("i8")).is_none());
        assert_eq!(path(p("f32"), p("f32")).unwrap(), vec![p("f32")]);
    }
}
