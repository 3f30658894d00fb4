//! Walking strided operands in step with a contiguous output.
//!
//! Element-wise kernels see their operands as *runs*: stretches of the
//! output's innermost (coalesced) dimension, where each operand advances by a
//! fixed stride (1 for contiguous data, 0 for broadcast). Dimensions that are
//! contiguous for every operand are merged first, so same-shape contiguous
//! operands become one run of the whole tensor.

use crate::core::layout::Layout;

/// The iteration space of `N` operands over one output shape.
pub(crate) struct Walk<const N: usize> {
    dims: Vec<usize>,
    strides: [Vec<isize>; N],
    base: [isize; N],
}

/// One run: the output position it starts at, each operand's starting
/// element offset and stride, and its length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run<const N: usize> {
    pub out: usize,
    pub offsets: [isize; N],
    pub strides: [isize; N],
    pub len: usize,
}

impl<const N: usize> Walk<N> {
    /// `layouts` must all have the output's shape (already broadcast).
    #[allow(clippy::needless_range_loop)]
    pub fn new(layouts: [&Layout; N]) -> Self {
        let shape = layouts.first().map(|l| l.shape().to_vec()).unwrap_or_default();
        let mut dims: Vec<usize> = Vec::with_capacity(shape.len());
        let mut strides: [Vec<isize>; N] = std::array::from_fn(|_| Vec::with_capacity(shape.len()));
        for (axis, &d) in shape.iter().enumerate() {
            if d == 1 {
                continue; // size-1 axes contribute nothing
            }
            // merge with the previous kept axis when every operand is contiguous across them
            // (checked: an empty tensor may have dimensions whose products overflow)
            let merged = dims.last().and_then(|&p| p.checked_mul(d)).filter(|_| {
                (0..N).all(|k| {
                    let outer = isize::try_from(d).ok().and_then(|d| layouts[k].strides()[axis].checked_mul(d));
                    outer == Some(strides[k][dims.len() - 1])
                })
            });
            if let Some(m) = merged {
                let last = dims.len() - 1;
                dims[last] = m;
                for k in 0..N {
                    strides[k][last] = layouts[k].strides()[axis];
                }
            } else {
                dims.push(d);
                for k in 0..N {
                    strides[k].push(layouts[k].strides()[axis]);
                }
            }
        }
        if dims.is_empty() {
            dims.push(1);
            for s in strides.iter_mut() {
                s.push(0);
            }
        }
        let base = std::array::from_fn(|k| layouts[k].offset() as isize);
        Walk { dims, strides, base }
    }

    // Indexing the per-operand arrays by k keeps the N operands in step.
    #[allow(clippy::needless_range_loop)]
    /// Calls `f` for every run covering output positions `lo..hi`, in order.
    pub fn runs(&self, lo: usize, hi: usize, mut f: impl FnMut(Run<N>)) {
        if lo >= hi {
            return;
        }
        let rank = self.dims.len();
        let inner = self.dims[rank - 1];
        let inner_strides: [isize; N] = std::array::from_fn(|k| self.strides[k][rank - 1]);
        // decompose lo into an index over the outer dims and a position in the inner one
        let mut idx = vec![0usize; rank - 1];
        let mut rest = lo / inner;
        for a in (0..rank - 1).rev() {
            idx[a] = rest % self.dims[a];
            rest /= self.dims[a];
        }
        let mut offsets = self.base;
        for (a, &i) in idx.iter().enumerate() {
            for k in 0..N {
                offsets[k] += i as isize * self.strides[k][a];
            }
        }
        let mut pos_in_inner = lo % inner;
        let mut out = lo;
        while out < hi {
            let len = (inner - pos_in_inner).min(hi - out);
            let run_offsets = std::array::from_fn(|k| offsets[k] + pos_in_inner as isize * inner_strides[k]);
            f(Run { out, offsets: run_offsets, strides: inner_strides, len });
            out += len;
            pos_in_inner = 0;
            // advance the outer odometer
            for a in (0..rank - 1).rev() {
                idx[a] += 1;
                for k in 0..N {
                    offsets[k] += self.strides[k][a];
                }
                if idx[a] < self.dims[a] {
                    break;
                }
                for k in 0..N {
                    offsets[k] -= self.dims[a] as isize * self.strides[k][a];
                }
                idx[a] = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::layout::SliceArg;

    #[test]
    fn contiguous_operands_coalesce_to_one_run() {
        let l = Layout::contiguous(&[4, 5, 6]).unwrap();
        let w = Walk::new([&l, &l]);
        let mut runs = vec![];
        w.runs(0, 120, |r| runs.push((r.out, r.len, r.strides)));
        assert_eq!(runs, vec![(0, 120, [1, 1])]);
    }

    #[test]
    fn runs_visit_every_element_once_in_order() {
        let l = Layout::contiguous(&[3, 4]).unwrap().permute(&[1, 0]).unwrap();
        let b = Layout::contiguous(&[3]).unwrap().broadcast_to(&[4, 3]).unwrap();
        let w = Walk::new([&l, &b]);
        let mut seen = vec![];
        w.runs(2, 11, |r| {
            for i in 0..r.len {
                seen.push((
                    r.out + i,
                    r.offsets[0] + i as isize * r.strides[0],
                    r.offsets[1] + i as isize * r.strides[1],
                ));
            }
        });
        let expect: Vec<_> = (2..11).map(|p| (p, ((p % 3) * 4 + p / 3) as isize, (p % 3) as isize)).collect();
        assert_eq!(seen, expect);
    }

    #[test]
    fn reversed_slices() {
        let l = Layout::contiguous(&[5]).unwrap().slice(&[SliceArg::stepped(None, None, -1)]).unwrap();
        let w = Walk::new([&l]);
        let mut v = vec![];
        w.runs(0, 5, |r| v.push((r.offsets[0], r.strides[0], r.len)));
        assert_eq!(v, vec![(4, -1, 5)]);
    }
}
