//! A small per-thread cache of parsed, resolved and planned equations.
//!
//! Programs call the same einsum on same-shaped operands over and over (a
//! model's layers, a training loop). For a small contraction, parsing the
//! equation, resolving its labels against the shapes and planning the path
//! cost more than the arithmetic: `ii->i` on a 1000 × 1000 matrix (a strided
//! view, no arithmetic at all) spent two thirds of its time there, in `perf`.
//! The cache keys on everything those steps read — front end, equation,
//! operand shapes and path options — so a hit returns exactly what they would
//! compute; dtypes and the promotion mode are not part of it (promotion runs on
//! every call). Only successes are cached: a bad equation or shape is checked,
//! and reported, every time.

use std::cell::RefCell;
use std::rc::Rc;

use super::parse::{Front, Resolved};
use super::plan::PathOptions;
use crate::core::error::Result;

/// What `einsum_front` computes from the equation and shapes alone.
pub(crate) struct Prepared {
    pub resolved: Resolved,
    /// The pairwise contraction path (empty for one operand).
    pub path: Vec<Vec<usize>>,
}

struct Entry {
    front: Front,
    opts: PathOptions,
    equation: Box<str>,
    /// Each operand's rank followed by its dimensions.
    shapes: Box<[usize]>,
    prepared: Rc<Prepared>,
}

impl Entry {
    #[inline]
    fn matches(&self, front: Front, equation: &str, shapes: &[&[usize]], opts: PathOptions) -> bool {
        if self.front != front || self.opts != opts || &*self.equation != equation {
            return false;
        }
        let mut key = self.shapes.iter();
        shapes.iter().all(|s| key.next() == Some(&s.len()) && s.iter().all(|d| key.next() == Some(d)))
            && key.next().is_none()
    }
}

/// Entries kept per thread, most recently used first.
const CAPACITY: usize = 32;
/// Equations longer than this are not cached (nor compared byte by byte).
const MAX_EQUATION: usize = 256;

thread_local! {
    static ENTRIES: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// The cached preparation of this call, or `make()`'s, cached if it succeeds.
// inlined into the front ends: a cache hit is most of a view-only einsum (`ii->i`, ~250 ns)
#[inline]
pub(crate) fn prepared(
    front: Front,
    equation: &str,
    shapes: &[&[usize]],
    opts: PathOptions,
    make: impl FnOnce() -> Result<Prepared>,
) -> Result<Rc<Prepared>> {
    if equation.len() > MAX_EQUATION {
        return make().map(Rc::new);
    }
    let hit = ENTRIES.with_borrow_mut(|entries| {
        let i = entries.iter().position(|e| e.matches(front, equation, shapes, opts))?;
        let e = entries.remove(i);
        let p = Rc::clone(&e.prepared);
        entries.insert(0, e);
        Some(p)
    });
    if let Some(p) = hit {
        return Ok(p);
    }
    let p = Rc::new(make()?);
    let key: Vec<usize> = shapes.iter().flat_map(|s| std::iter::once(s.len()).chain(s.iter().copied())).collect();
    ENTRIES.with_borrow_mut(|entries| {
        entries.truncate(CAPACITY - 1);
        entries
            .insert(0, Entry { front, opts, equation: equation.into(), shapes: key.into(), prepared: Rc::clone(&p) });
    });
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tensor;
    use crate::einsum::{einsum, einsum_front, einsum_raw};

    fn t(shape: &[usize]) -> Tensor {
        let n = shape.iter().product::<usize>();
        Tensor::from_vec((0..n).map(|i| i as f64).collect::<Vec<_>>(), shape).unwrap()
    }

    fn cached(front: Front, eq: &str, shapes: &[&[usize]]) -> bool {
        ENTRIES.with_borrow(|es| es.iter().any(|e| e.matches(front, eq, shapes, PathOptions::default())))
    }

    #[test]
    fn a_hit_is_keyed_on_equation_shapes_and_front() {
        let (a, b) = (t(&[2, 3]), t(&[3, 4]));
        let first = einsum("ij,jk->ik", &[&a, &b]).unwrap();
        assert!(cached(Front::Tf, "ij,jk->ik", &[&[2, 3], &[3, 4]]));
        assert!(!cached(Front::Raw, "ij,jk->ik", &[&[2, 3], &[3, 4]]));
        // the same call again, answered from the cache, gives the same values
        assert_eq!(einsum("ij,jk->ik", &[&a, &b]).unwrap().to_vec::<f64>().unwrap(), first.to_vec::<f64>().unwrap());
        // other shapes under the same equation are resolved afresh
        let (c, d) = (t(&[3, 3]), t(&[3, 2]));
        let other = einsum("ij,jk->ik", &[&c, &d]).unwrap();
        assert_eq!(other.shape(), &[3, 2]);
        assert_eq!(other.to_vec::<f64>().unwrap(), vec![10., 13., 28., 40., 46., 67.]);
        // a shape split differently between operands is a different key
        assert!(!cached(Front::Tf, "ij,jk->ik", &[&[2], &[3, 3, 4]]));
    }

    #[test]
    fn errors_are_not_cached_and_repeat() {
        let a = t(&[2, 3]);
        for _ in 0..2 {
            let e = einsum_raw("ij,jk->ik", &[&a, &a]).unwrap_err().to_string();
            assert!(e.contains("[2,3]") || e.contains("dimension"), "{e}");
        }
        assert!(!cached(Front::Raw, "ij,jk->ik", &[&[2, 3], &[2, 3]]));
    }

    #[test]
    fn the_cache_stays_bounded() {
        let a = t(&[2, 2]);
        for n in 1..=(2 * CAPACITY) {
            let eq = format!("ij->{}", if n % 2 == 0 { "ij" } else { "ji" });
            let v = t(&[n, 2]);
            einsum_front(Front::Tf, &eq, &[&v], PathOptions::default()).unwrap();
        }
        einsum("ii->i", &[&a]).unwrap();
        ENTRIES.with_borrow(|es| assert_eq!(es.len(), CAPACITY));
        assert!(cached(Front::Tf, "ii->i", &[&[2, 2]]));
    }
}
