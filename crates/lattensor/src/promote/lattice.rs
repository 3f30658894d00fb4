//! The promotion lattice as data, and its join computed at compile time.
//!
//! The 28 nodes are the 23 dtypes (strong) and the five weak kinds TF allows.
//! [`COVERING_EDGES`] is the Hasse diagram of TF's ALL-mode lattice; everything else
//! — the order, the join table, paths for explanations, the picture the CLI
//! draws — is derived from it. A change to the edges is a change to the
//! semantics of every op, in one place.
//!
//! The eight low-precision dtypes enter as JAX's `jax/_src/dtypes.py` places
//! them: each float8 type and `float4_e2m1fn` is a leaf just above the weak
//! floats (`f64*`), `int4` and `uint4` leaves just above the weak integers
//! (`i64*`), with no edge upward. So a weak literal adapts to them and an
//! integer meets a float8 through the weak float, but two leaves, or a leaf
//! and a dtype not below it (float8 with bfloat16 or float32, int4 with
//! int8), have no upper bound at all: [`join`] is `None` there and promotion
//! refuses the pair. Pairs that have an upper bound still have a least one,
//! which building the join table checks at compile time.

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
pub const NODES: usize = 28;

/// Number of strong nodes (one per dtype).
const STRONG: usize = DType::ALL.len();

/// The dtypes that may be weak, in node order (nodes 23..28).
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

    /// All 28 nodes: the 23 strong dtypes, then `i32* i64* f32* f64* c128*`.
    pub const ALL: [LatticeType; NODES] = {
        let mut out = [LatticeType::strong(DType::Bool); NODES];
        let mut i = 0;
        while i < STRONG {
            out[i] = LatticeType::strong(DType::ALL[i]);
            i += 1;
        }
        while i < NODES {
            out[i] = LatticeType { dtype: WEAK_DTYPES[i - STRONG], weak: true };
            i += 1;
        }
        out
    };

    /// The 20 nodes of TF's tables: the 15 core dtypes, then the five weak kinds.
    pub const CORE: [LatticeType; 20] = {
        let mut out = [LatticeType::strong(DType::Bool); 20];
        let mut i = 0;
        while i < 15 {
            out[i] = LatticeType::strong(DType::ALL[i]);
            i += 1;
        }
        while i < 20 {
            out[i] = LatticeType { dtype: WEAK_DTYPES[i - 15], weak: true };
            i += 1;
        }
        out
    };

    /// Position in [`LatticeType::ALL`].
    pub const fn index(self) -> usize {
        if self.weak {
            match weak_slot(self.dtype) {
                Some(s) => STRONG + s,
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
    /// `self` as far as promotion is concerned (`join(self, other) == Some(other)`).
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
/// (`tests/data/`) measure it; the last eight place the low-precision leaves
/// as JAX does (`tests/data/jax_promotion_lowp.json` measures them).
pub const COVERING_EDGES: [(LatticeType, LatticeType); 35] = {
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
        (w(F64), s(F8E4M3Fn)),
        (w(F64), s(F8E5M2)),
        (w(F64), s(F8E4M3Fnuz)),
        (w(F64), s(F8E5M2Fnuz)),
        (w(F64), s(F8E8M0Fnu)),
        (w(F64), s(F4E2M1Fn)),
        (w(I64), s(I4)),
        (w(I64), s(U4)),
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

/// The [`JOIN`] entry of a pair with no upper bound.
const NO_JOIN: u8 = u8::MAX;

/// `JOIN[a][b]`: index of the least upper bound, or [`NO_JOIN`] if the pair
/// has no upper bound. Building it fails the compilation if some pair has
/// upper bounds but no least one, so the edges are checked every time the
/// crate is built: with a top added for "no upper bound" they form a lattice.
const JOIN: [[u8; NODES]; NODES] = {
    let mut join = [[0u8; NODES]; NODES];
    let mut a = 0;
    while a < NODES {
        let mut b = 0;
        while b < NODES {
            let mut found = NODES;
            let mut bounded = false;
            let mut u = 0;
            while u < NODES {
                if ORDER[a][u] && ORDER[b][u] {
                    bounded = true;
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
            assert!(!bounded || found < NODES, "promotion edges do not form a lattice");
            join[a][b] = if bounded { found as u8 } else { NO_JOIN };
            b += 1;
        }
        a += 1;
    }
    join
};

/// The least upper bound of two lattice types (TF's ALL-mode promotion), or
/// `None` when they have no upper bound: a low-precision dtype with a dtype
/// not below it.
///
/// ```
/// use lattensor::{promote::join, DType, LatticeType};
/// let s = LatticeType::strong;
/// assert_eq!(join(s(DType::I8), s(DType::U32)), Some(s(DType::I64)));
/// // a strong int meeting a weak float lands on the weak f64 node
/// let f = LatticeType::weak(DType::F32).unwrap();
/// assert_eq!(join(s(DType::I32), f).unwrap().to_string(), "float64*");
/// // an integer meets a float8 through the weak float; float8 and bfloat16 have no join
/// assert_eq!(join(s(DType::I8), s(DType::F8E4M3Fn)), Some(s(DType::F8E4M3Fn)));
/// assert_eq!(join(s(DType::BF16), s(DType::F8E4M3Fn)), None);
/// ```
pub fn join(a: LatticeType, b: LatticeType) -> Option<LatticeType> {
    match JOIN[a.index()][b.index()] {
        NO_JOIN => None,
        j => Some(LatticeType::ALL[j as usize]),
    }
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
        let j = |a, b| join(p(a), p(b)).unwrap();
        assert_eq!(j("u64", "i8"), p("f64*"));
        assert_eq!(j("bf16", "f16"), p("f32"));
        assert_eq!(j("f64", "c64"), p("c128"));
        assert_eq!(j("c128*", "f16"), p("c64"));
        assert_eq!(j("f16", "f64*"), p("f16"));
        assert_eq!(j("b", "b"), p("b"));
    }

    #[test]
    fn low_precision_leaves() {
        let p = |x: &str| x.parse::<LatticeType>().unwrap();
        let j = |a: &str, b: &str| join(p(a), p(b));
        assert_eq!(j("f8e5m2", "f32*"), Some(p("f8e5m2")));
        assert_eq!(j("f8e5m2", "u64"), Some(p("f8e5m2")));
        assert_eq!(j("b", "f4e2m1fn"), Some(p("f4e2m1fn")));
        assert_eq!(j("int4", "i32*"), Some(p("int4")));
        assert_eq!(j("uint4", "b"), Some(p("uint4")));
        for (a, b) in [("f8e5m2", "f8e4m3fn"), ("f8e4m3fn", "bf16"), ("f8e4m3fn", "f32"), ("int4", "i8")] {
            assert_eq!(j(a, b), None, "{a} {b}");
        }
        assert_eq!(j("int4", "f32*"), None);
        assert_eq!(j("f8e4m3fn", "c128*"), None);
        for d in DType::LOW_PRECISION {
            assert!(COVERING_EDGES.iter().all(|(a, _)| a.dtype != d), "{d} has an edge upward");
        }
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
