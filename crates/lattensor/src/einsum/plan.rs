//! Contraction-order optimisation (the "path"), with opt_einsum's cost model.
//!
//! Operands are label sets. Contracting two sets `A`, `B` produces
//! `(A ∪ B) ∩ (output ∪ labels of every other operand)`; its cost is
//! opt_einsum's `flop_count`: `prod(sizes of A ∪ B) × (1 + [some label is summed])`
//! (a single operand's reduction costs `prod × (1 + [summed])` too).
//!
//! * [`Strategy::Optimal`]: dynamic programming over subsets of operands —
//!   every contraction tree is a binary tree whose intermediates depend only on
//!   the set of operands below them, so the minimum over splits of each subset is
//!   exact (`O(3^n)`); it equals opt_einsum's exhaustive `optimal` search.
//! * [`Strategy::Greedy`]: repeatedly contracts the pair that removes the most
//!   memory (opt_einsum's default heuristic, `size(out) - size(a) - size(b)`),
//!   ties broken by FLOPs; pairs sharing no label (outer products) only when
//!   nothing else is left, smallest first. `O(n^3)`.
//! * [`Strategy::Auto`]: optimal up to [`AUTO_OPTIMAL_MAX`] operands, greedy beyond.
//!
//! An optional memory limit (in elements) excludes intermediates larger than
//! it (the final result is exempt). The greedy strategy treats the limit as a
//! preference: if every remaining pair exceeds it, it takes the smallest.

use std::fmt;

use crate::core::error::{Error, Result};

/// Operand counts up to this use the exact search under [`Strategy::Auto`].
pub const AUTO_OPTIMAL_MAX: usize = 10;
/// The largest operand count the exact search accepts (it costs `3^n`).
pub const OPTIMAL_MAX: usize = 16;

/// How to choose the contraction order.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Strategy {
    /// Optimal for few operands, greedy beyond.
    #[default]
    Auto,
    /// Minimal total FLOPs (exact; up to [`OPTIMAL_MAX`] operands, greedy beyond).
    Optimal,
    /// The greedy heuristic.
    Greedy,
}

/// Path options: the strategy and an optional limit on intermediate sizes (elements).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PathOptions {
    /// The search strategy.
    pub strategy: Strategy,
    /// The largest intermediate allowed, in elements (`None`: unlimited).
    pub memory_limit: Option<u128>,
}

/// A fixed-size set of label ids (up to 256 labels).
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub(crate) struct Bits([u64; 4]);

/// The most distinct labels (named plus broadcast dimensions) an equation may have.
pub const MAX_LABELS: usize = 256;

impl Bits {
    pub fn from_ids(ids: &[usize]) -> Bits {
        let mut b = Bits::default();
        for &i in ids {
            b.0[i / 64] |= 1 << (i % 64);
        }
        b
    }
    fn or(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|k| self.0[k] | o.0[k]))
    }
    fn and(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|k| self.0[k] & o.0[k]))
    }
    fn minus(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|k| self.0[k] & !o.0[k]))
    }
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    pub fn ids(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(w, mut bits)| {
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * 64 + b)
            })
        })
    }
    fn xor(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|k| self.0[k] ^ o.0[k]))
    }
    fn size(self, sizes: &[usize]) -> u128 {
        self.ids().fold(1u128, |acc, i| acc.saturating_mul(sizes[i] as u128))
    }
}

/// opt_einsum's `flop_count`.
fn flops(idx: Bits, inner: bool, terms: usize, sizes: &[usize]) -> u128 {
    let factor = (terms.saturating_sub(1)).max(1) as u128 + inner as u128;
    idx.size(sizes).saturating_mul(factor)
}

/// The cost the optimisers minimise (opt_einsum's `calc_k12_flops`): a pairwise
/// step costs `size(A ∪ B) × (1 + [a label shared by A and B is summed])`.
/// Labels private to one side are summed before the product (as the executor
/// does), so they do not double the step.
fn search_cost(a: Bits, b: Bits, res: Bits, sizes: &[usize]) -> u128 {
    let inner = !a.and(b).minus(res).is_empty();
    a.or(b).size(sizes).saturating_mul(1 + inner as u128)
}

/// One pairwise (or single-operand) contraction of a [`Plan`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Positions in the current operand list (the result is appended at the end).
    pub operands: Vec<usize>,
    /// This step as an einsum equation.
    pub equation: String,
    /// The remaining operands after this step, as an equation.
    pub remaining: String,
    /// Number of distinct labels involved (the step's scaling exponent).
    pub scaling: usize,
    /// FLOPs of the step (opt_einsum's `flop_count`, as `einsum_path` reports it).
    pub flops: u128,
    /// The step's cost in the optimisers' objective (see [`Plan::cost`]).
    pub cost: u128,
    /// Elements of the step's result.
    pub size: u128,
}

/// A contraction order with its cost, printable like `numpy.einsum_path`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The equation as resolved (explicit output, ellipsis expanded).
    pub equation: String,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Cost of contracting everything at once.
    pub naive_flops: u128,
    /// Total FLOPs of the steps, counted like opt_einsum's `contract_path`
    /// (a step doubles when any label is summed).
    pub flops: u128,
    /// Total of the objective the optimisers minimise, opt_einsum's path-search
    /// cost (a step doubles only when a label shared by both operands is summed);
    /// [`Strategy::Optimal`] makes this minimal.
    pub cost: u128,
    /// Elements of the largest intermediate (including the result).
    pub largest_intermediate: u128,
    /// Labels of the naive single-step contraction.
    pub naive_scaling: usize,
    /// The largest step scaling.
    pub scaling: usize,
}

impl Plan {
    /// The path as numpy's `einsum_path` lists it: operand positions per step.
    pub fn path(&self) -> Vec<Vec<usize>> {
        self.steps.iter().map(|s| s.operands.clone()).collect()
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let speedup = if self.flops == 0 { 1.0 } else { self.naive_flops as f64 / self.flops as f64 };
        writeln!(f, "  Complete contraction:  {}", self.equation)?;
        writeln!(f, "         Naive scaling:  {}", self.naive_scaling)?;
        writeln!(f, "     Optimized scaling:  {}", self.scaling)?;
        writeln!(f, "      Naive FLOP count:  {:.3e}", self.naive_flops as f64)?;
        writeln!(f, "  Optimized FLOP count:  {:.3e}", self.flops as f64)?;
        writeln!(f, "   Theoretical speedup:  {speedup:.3}")?;
        writeln!(f, "  Largest intermediate:  {:.3e} elements", self.largest_intermediate as f64)?;
        writeln!(f, "{}", "-".repeat(74))?;
        writeln!(f, "{:<8}{:<14}{:<30}remaining", "scaling", "path", "current")?;
        writeln!(f, "{}", "-".repeat(74))?;
        for s in &self.steps {
            writeln!(f, "{:>4}    {:<14}{:<30}{}", s.scaling, format!("{:?}", s.operands), s.equation, s.remaining)?;
        }
        Ok(())
    }
}

/// Plans the contraction of operands with label `inputs` into `output`.
pub(crate) fn plan(
    inputs: &[Vec<usize>],
    output: &[usize],
    sizes: &[usize],
    names: &[char],
    opts: PathOptions,
) -> Result<Plan> {
    if sizes.len() > MAX_LABELS {
        return Err(Error::Unimplemented(format!(
            "einsum: {} distinct labels and broadcast dimensions exceed the supported {MAX_LABELS}",
            sizes.len()
        )));
    }
    let sets: Vec<Bits> = inputs.iter().map(|l| Bits::from_ids(l)).collect();
    let out = Bits::from_ids(output);
    let n = sets.len();
    let all = sets.iter().fold(Bits::default(), |a, &b| a.or(b));
    // opt_einsum's naive count: "inner" when some label is shared between operands
    let shared = sets.iter().map(|s| s.count()).sum::<u32>() > all.count();
    let naive_flops = flops(all, shared, n, sizes);
    let pairs: Vec<(usize, usize)> = match (n, opts.strategy) {
        (0..=2, _) => Vec::new(),
        (_, Strategy::Auto) if n <= AUTO_OPTIMAL_MAX => optimal(&sets, out, sizes, opts.memory_limit),
        (_, Strategy::Optimal) if n <= OPTIMAL_MAX => optimal(&sets, out, sizes, opts.memory_limit),
        _ => greedy(&sets, out, sizes, opts.memory_limit),
    };
    let pairs = if n == 2 { vec![(0, 1)] } else { pairs };
    // replay the path to describe it
    let mut cur: Vec<(Bits, Vec<usize>)> = sets.iter().zip(inputs).map(|(&s, l)| (s, l.clone())).collect();
    let mut steps = Vec::new();
    let order = |b: Bits, hint: &[usize]| -> Vec<usize> {
        // keep the output's order where possible, then the rest by id
        let mut v: Vec<usize> =
            hint.iter().copied().filter(|&i| Bits::from_ids(&[i]).and(b) != Bits::default()).collect();
        v.dedup();
        for i in b.ids() {
            if !v.contains(&i) {
                v.push(i);
            }
        }
        v
    };
    let term = |l: &[usize]| -> String { l.iter().map(|&i| super::parse::show(names[i])).collect() };
    let mut largest = 0u128;
    if n == 1 {
        let idx = sets[0];
        let removed = !idx.minus(out).is_empty();
        let size = out.and(idx).size(sizes);
        largest = size;
        steps.push(Step {
            operands: vec![0],
            equation: format!("{}->{}", term(&inputs[0]), term(output)),
            remaining: format!("{}->{}", term(&inputs[0]), term(output)),
            scaling: idx.count() as usize,
            flops: flops(idx, removed, 1, sizes),
            cost: flops(idx, removed, 1, sizes),
            size,
        });
    }
    for (i, j) in pairs {
        let (i, j) = (i.min(j), i.max(j));
        let (b, lb) = cur.remove(j);
        let (a, la) = cur.remove(i);
        let rest = cur.iter().fold(out, |acc, (s, _)| acc.or(*s));
        let idx = a.or(b);
        let res = idx.and(rest);
        let removed = !idx.minus(res).is_empty();
        let lr = order(res, output);
        let size = res.size(sizes);
        largest = largest.max(size);
        let step_eq = format!("{},{}->{}", term(&la), term(&lb), term(&lr));
        cur.push((res, lr));
        let rem: Vec<String> = cur.iter().map(|(_, l)| term(l)).collect();
        steps.push(Step {
            operands: vec![i, j],
            equation: step_eq,
            remaining: format!("{}->{}", rem.join(","), term(output)),
            scaling: idx.count() as usize,
            flops: flops(idx, removed, 2, sizes),
            cost: search_cost(a, b, res, sizes),
            size,
        });
    }
    let ins: Vec<String> = inputs.iter().map(|l| term(l)).collect();
    Ok(Plan {
        equation: format!("{}->{}", ins.join(","), term(output)),
        flops: steps.iter().fold(0u128, |a, s| a.saturating_add(s.flops)),
        cost: steps.iter().fold(0u128, |a, s| a.saturating_add(s.cost)),
        scaling: steps.iter().map(|s| s.scaling).max().unwrap_or(0),
        steps,
        naive_flops,
        largest_intermediate: largest,
        naive_scaling: all.count() as usize,
    })
}

/// Exact minimum-FLOP contraction tree by dynamic programming over subsets;
/// returns the path as pairs of positions in the evolving operand list.
fn optimal(sets: &[Bits], out: Bits, sizes: &[usize], limit: Option<u128>) -> Vec<(usize, usize)> {
    let n = sets.len();
    let full: usize = (1 << n) - 1;
    let mut union = vec![Bits::default(); 1 << n];
    for s in 1..=full {
        let low = s.trailing_zeros() as usize;
        union[s] = union[s & (s - 1)].or(sets[low]);
    }
    // result labels of the subset: what the rest (or the output) still needs
    let res = |s: usize| -> Bits {
        if s.count_ones() == 1 { sets[s.trailing_zeros() as usize] } else { union[s].and(out.or(union[full & !s])) }
    };
    let mut cost = vec![u128::MAX; 1 << n];
    let mut split = vec![0usize; 1 << n];
    let mut result = vec![Bits::default(); 1 << n];
    for (k, &s) in sets.iter().enumerate() {
        cost[1 << k] = 0;
        result[1 << k] = s;
    }
    let mut by_size: Vec<usize> = (1..=full).filter(|s| s.count_ones() >= 2).collect();
    by_size.sort_by_key(|s| s.count_ones());
    for s in by_size {
        let r = res(s);
        result[s] = r;
        if s != full && limit.is_some_and(|l| r.size(sizes) > l) {
            continue;
        }
        let low = s & s.wrapping_neg();
        let rest = s ^ low;
        // enumerate subsets a of s containing the lowest bit
        let mut sub = rest;
        loop {
            let a = sub | low;
            let b = s ^ a;
            if b != 0 && cost[a] != u128::MAX && cost[b] != u128::MAX {
                let c = cost[a].saturating_add(cost[b]).saturating_add(search_cost(result[a], result[b], r, sizes));
                if c < cost[s] {
                    cost[s] = c;
                    split[s] = a;
                }
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & rest;
        }
    }
    if cost[full] == u128::MAX {
        // the memory limit excludes every tree: ignore it
        return optimal(sets, out, sizes, None);
    }
    // post-order replay of the tree into list positions
    let mut list: Vec<usize> = (0..n).map(|k| 1 << k).collect();
    let mut pairs = Vec::new();
    fn walk(s: usize, split: &[usize], list: &mut Vec<usize>, pairs: &mut Vec<(usize, usize)>) {
        if s.count_ones() < 2 {
            return;
        }
        let a = split[s];
        let b = s ^ a;
        walk(a, split, list, pairs);
        walk(b, split, list, pairs);
        let (Some(i), Some(j)) = (list.iter().position(|&x| x == a), list.iter().position(|&x| x == b)) else {
            return;
        };
        let (i, j) = (i.min(j), i.max(j));
        list.remove(j);
        list.remove(i);
        list.push(s);
        pairs.push((i, j));
    }
    walk(full, &split, &mut list, &mut pairs);
    pairs
}

/// The greedy heuristic (see the module docs).
fn greedy(sets: &[Bits], out: Bits, sizes: &[usize], limit: Option<u128>) -> Vec<(usize, usize)> {
    let mut cur: Vec<Bits> = sets.to_vec();
    let mut pairs = Vec::new();
    while cur.len() > 1 {
        // labels held by at least two / three current operands: a label of the pair
        // is still needed elsewhere iff its count exceeds its count within the pair
        let mut c1 = Bits::default();
        let mut c2 = Bits::default();
        let mut c3 = Bits::default();
        for &s in &cur {
            c3 = c3.or(c2.and(s));
            c2 = c2.or(c1.and(s));
            c1 = c1.or(s);
        }
        let result = |a: Bits, b: Bits| -> Bits {
            let needed = out.or(a.and(b).and(c3)).or(a.xor(b).and(c2));
            a.or(b).and(needed)
        };
        let sizes_cur: Vec<u128> = cur.iter().map(|s| s.size(sizes)).collect();
        // (no shared label, over the limit, removed memory or size, cost): smaller is better
        type Key = (bool, bool, i128, u128);
        let mut best: Option<(Key, usize, usize)> = None;
        for i in 0..cur.len() {
            for j in i + 1..cur.len() {
                let r = result(cur[i], cur[j]);
                let size = r.size(sizes);
                let shares = !cur[i].and(cur[j]).is_empty();
                let removed = size as i128 - sizes_cur[i] as i128 - sizes_cur[j] as i128;
                let over = limit.is_some_and(|l| size > l);
                let key =
                    (!shares, over, if shares { removed } else { size as i128 }, search_cost(cur[i], cur[j], r, sizes));
                if best.as_ref().is_none_or(|(b, _, _)| key < *b) {
                    best = Some((key, i, j));
                }
            }
        }
        let Some((_, i, j)) = best else { break };
        let r = result(cur[i], cur[j]);
        cur.remove(j);
        cur.remove(i);
        cur.push(r);
        pairs.push((i, j));
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrix_chain_prefers_small_intermediate() {
        // ij,jk,kl->il with i=2, j=100, k=2, l=100: contract (ij,jk) first
        let p = plan(
            &[vec![0, 1], vec![1, 2], vec![2, 3]],
            &[0, 3],
            &[2, 100, 2, 100],
            &['i', 'j', 'k', 'l'],
            PathOptions::default(),
        )
        .unwrap();
        assert_eq!(p.path(), vec![vec![0, 1], vec![0, 1]]);
        assert_eq!(p.flops, 2 * 100 * 2 * 2 + 2 * 2 * 100 * 2);
        assert_eq!(p.cost, p.flops);
        let g = plan(
            &[vec![0, 1], vec![1, 2], vec![2, 3]],
            &[0, 3],
            &[2, 100, 2, 100],
            &['i', 'j', 'k', 'l'],
            PathOptions { strategy: Strategy::Greedy, memory_limit: None },
        )
        .unwrap();
        assert_eq!(g.flops, p.flops);
        assert!(p.to_string().contains("Optimized FLOP count"));
    }

    #[test]
    fn greedy_handles_many_operands_and_bits_iterate() {
        let b = Bits::from_ids(&[0, 3, 64, 130, 255]);
        assert_eq!(b.ids().collect::<Vec<_>>(), vec![0, 3, 64, 130, 255]);
        // a chain of 60 matrices a0 a1, a1 a2, ...
        let n = 60;
        let inputs: Vec<Vec<usize>> = (0..n).map(|k| vec![k, k + 1]).collect();
        let sizes: Vec<usize> = (0..=n).map(|k| 2 + k % 3).collect();
        let names: Vec<char> = (0..=n).map(|k| char::from(b'a' + (k % 26) as u8)).collect();
        let p = plan(&inputs, &[0, n], &sizes, &names, PathOptions::default()).unwrap();
        assert_eq!(p.steps.len(), n - 1);
        assert!(p.scaling <= 3, "{p}");
    }
}
