//! Runs side-by-side workloads (`crates/lattensor/benches/workloads/mod.rs`) in a loop, for
//! profiling and A/B comparison on a noisy host:
//!
//! - `profile_workload E7_four 5000` times one workload; under
//!   `perf record -e cpu-clock -g` it gives its profile.
//! - `profile_workload P1_add_f32,P2_add_i32_f32 200` alternates the listed
//!   workloads call by call, so that the host's slow phases hit all of them alike.
//!
//! - `profile_workload 'ein:bij,bjk->bik:1x128x128,1x128x128' 500` times an
//!   einsum on f32 operands of the given shapes (filled like the workloads'),
//!   to explore shapes without a rebuild; with one, separate workloads by `;`.
//!   `ein64:…` does the same on f64 operands. Likewise `add:DTYPE:N` adds two
//!   vectors of N elements of that dtype, `exp:DTYPE:N` takes `exp` of one, and
//!   `un:OP:N` runs a unary op (`abs`, `neg`, `sqrt`, `relu`, `f16`: a cast) on N f32,
//!   and `sum:DTYPE:SHAPE:AXIS` a sum over one axis or `all` (`sum:f32:4000x64:1`);
//!   `max:…` and `min:…` take the same arguments for `reduce_max` and `reduce_min`.
//!   `sp:OP:LO:HI:N` runs a special function (`j0`, `j1`, `y0`, `y1`, `erfinv`,
//!   `ndtri`) on N float64 evenly spaced over [LO, HI] (`sp:j0:0:100:100000`), and
//!   `sp:OP:LO:HI:N:shuffled` on the same values in a fixed random order.
//!
//! Prints, per workload, the mean, minimum and median time per call.
//! `LATTENSOR_NUM_THREADS=1` gives the single-threaded numbers.
//!
//! `cargo build --release -p lattensor-bench --bin profile_workload`

use lattensor_bench::workloads;
use std::time::Instant;

fn main() {
    let names = std::env::args().nth(1).expect("usage: profile_workload NAME[,NAME...] [REPS]");
    let reps: usize = std::env::args().nth(2).map(|s| s.parse().expect("REPS is a count")).unwrap_or(2000).max(1);
    let calls: Vec<(&str, workloads::Call)> = names
        // an einsum spec has commas of its own: then workloads are separated by ';'
        .split(if names.contains("ein:") || names.contains("ein64:") { ';' } else { ',' })
        .map(|n| match einsum_spec(n).or_else(|| add_spec(n)).or_else(|| exp_spec(n)).or_else(|| unary_spec(n)).or_else(|| reduce_spec(n)).or_else(|| special_spec(n)).or_else(|| workloads::workload(n)) {
            Some(f) => (n, f),
            None => {
                eprintln!(
                    "no workload named {n}; the names are {}, ein:EQUATION:SHAPE,SHAPE.. (shapes as 2x3x4), add:DTYPE:N, exp:DTYPE:N, un:OP:N, sum|max|min:DTYPE:SHAPE:AXIS or sp:OP:LO:HI:N",
                    workloads::NAMES.join(", ")
                );
                std::process::exit(2)
            }
        })
        .collect();
    for _ in 0..10 {
        for (_, f) in &calls {
            std::hint::black_box(f());
        }
    }
    let mut times = vec![Vec::with_capacity(reps); calls.len()];
    for _ in 0..reps {
        for ((_, f), t) in calls.iter().zip(&mut times) {
            let c = Instant::now();
            std::hint::black_box(f());
            t.push(c.elapsed().as_secs_f64() * 1e6);
        }
    }
    for ((name, _), t) in calls.iter().zip(&mut times) {
        let mean = t.iter().sum::<f64>() / reps as f64;
        t.sort_by(f64::total_cmp);
        eprintln!("{name}: {mean:.1} us/call (min {:.1}, median {:.1})", t[0], t[reps / 2]);
    }
}

/// `ein:EQUATION:SHAPE,SHAPE...`: an einsum on f32 operands of those shapes
/// (`ein64:…`: on f64 operands).
fn einsum_spec(spec: &str) -> Option<workloads::Call> {
    let (rest, dtype) = match spec.strip_prefix("ein64:") {
        Some(rest) => (rest, lattensor::DType::F64),
        None => (spec.strip_prefix("ein:")?, lattensor::DType::F32),
    };
    let (eq, shapes) = rest.rsplit_once(':')?;
    let mut seed = 0;
    let mut operands = Vec::new();
    for shape in shapes.split(',') {
        let dims: Vec<usize> = shape.split('x').map(|d| d.parse().ok()).collect::<Option<_>>()?;
        let n: usize = dims.iter().product();
        operands.push(lattensor::Tensor::from_vec(workloads::floats(n, seed), &dims).ok()?.cast(dtype).ok()?);
        seed += n;
    }
    let eq = eq.to_string();
    Some(Box::new(move || {
        let refs: Vec<&lattensor::Tensor> = operands.iter().collect();
        lattensor::einsum::einsum(&eq, &refs).expect("the einsum runs")
    }))
}

/// `add:DTYPE:N`: `a + b` on two vectors of N elements of DTYPE (f32 values cast).
fn add_spec(spec: &str) -> Option<workloads::Call> {
    let mut parts = spec.strip_prefix("add:")?.split(':');
    let dtype = lattensor::DType::parse(parts.next()?).ok()?;
    let n: usize = parts.next()?.parse().ok()?;
    let operand = |seed| lattensor::Tensor::from_vec(workloads::floats(n, seed), &[n]).ok()?.cast(dtype).ok();
    let (a, b) = (operand(0)?, operand(n)?);
    Some(Box::new(move || lattensor::ops::add(&a, &b).expect("the add runs")))
}

/// `exp:DTYPE:N`: `exp(a)` of a vector of N elements of DTYPE (f32 values cast).
fn exp_spec(spec: &str) -> Option<workloads::Call> {
    let mut parts = spec.strip_prefix("exp:")?.split(':');
    let dtype = lattensor::DType::parse(parts.next()?).ok()?;
    let n: usize = parts.next()?.parse().ok()?;
    let a = lattensor::Tensor::from_vec(workloads::floats(n, 0), &[n]).ok()?.cast(dtype).ok()?;
    Some(Box::new(move || lattensor::ops::exp(&a).expect("the exp runs")))
}

/// `sum:DTYPE:SHAPE:AXIS`: `reduce_sum` over one axis (or `all`) of a tensor of
/// that shape and DTYPE (f32 values cast), e.g. `sum:f32:4000x64:1`; `max:` and
/// `min:` run `reduce_max` and `reduce_min` the same way.
fn reduce_spec(spec: &str) -> Option<workloads::Call> {
    let (op, rest) = spec.split_once(':')?;
    let f: fn(&lattensor::Tensor, lattensor::ops::Axes, bool) -> lattensor::Result<lattensor::Tensor> = match op {
        "sum" => |t, a, k| lattensor::ops::reduce_sum(t, a, k),
        "max" => |t, a, k| lattensor::ops::reduce_max(t, a, k),
        "min" => |t, a, k| lattensor::ops::reduce_min(t, a, k),
        _ => return None,
    };
    let mut parts = rest.split(':');
    let dtype = lattensor::DType::parse(parts.next()?).ok()?;
    let dims: Vec<usize> = parts.next()?.split('x').map(|d| d.parse().ok()).collect::<Option<_>>()?;
    let axis = match parts.next()? {
        "all" => lattensor::ops::Axes::All,
        a => lattensor::ops::Axes::from(a.parse::<i32>().ok()?),
    };
    let n: usize = dims.iter().product();
    let a = lattensor::Tensor::from_vec(workloads::floats(n, 0), &dims).ok()?.cast(dtype).ok()?;
    Some(Box::new(move || f(&a, axis.clone(), false).expect("the reduction runs")))
}

/// `sp:OP:LO:HI:N[:shuffled]`: a special function on N float64 evenly spaced over
/// [LO, HI], in order or shuffled (a fixed permutation, so neighbours are far apart).
fn special_spec(spec: &str) -> Option<workloads::Call> {
    use lattensor::ops::special;
    let mut parts = spec.strip_prefix("sp:")?.split(':');
    let op = parts.next()?.to_string();
    let (lo, hi): (f64, f64) = (parts.next()?.parse().ok()?, parts.next()?.parse().ok()?);
    let n: usize = parts.next()?.parse().ok()?;
    let mut xs: Vec<f64> = (0..n).map(|i| lo + (hi - lo) * i as f64 / (n.max(2) - 1) as f64).collect();
    match parts.next() {
        None => {}
        Some("shuffled") => {
            // Fisher–Yates with a 64-bit LCG (Knuth's MMIX constants), seed 1
            let mut state = 1u64;
            for i in (1..n).rev() {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                xs.swap(i, ((state >> 33) % (i as u64 + 1)) as usize);
            }
        }
        Some(_) => return None,
    }
    let a = lattensor::Tensor::from_vec(xs, &[n]).ok()?;
    let f: fn(&lattensor::Tensor) -> lattensor::Result<lattensor::Tensor> = match op.as_str() {
        "j0" => special::bessel_j0,
        "j1" => special::bessel_j1,
        "y0" => special::bessel_y0,
        "y1" => special::bessel_y1,
        "erfinv" => lattensor::ops::erfinv,
        "ndtri" => lattensor::ops::ndtri,
        _ => return None,
    };
    Some(Box::new(move || f(&a).expect("the op runs")))
}

/// `un:OP:N`: a unary op on a vector of N f32 (`abs`, `neg`, `sqrt`, `relu`, `f16`: a cast).
fn unary_spec(spec: &str) -> Option<workloads::Call> {
    let mut parts = spec.strip_prefix("un:")?.split(':');
    let op = parts.next()?.to_string();
    let n: usize = parts.next()?.parse().ok()?;
    let a = lattensor::Tensor::from_vec(workloads::floats(n, 0), &[n]).ok()?;
    let f: fn(&lattensor::Tensor) -> lattensor::Result<lattensor::Tensor> = match op.as_str() {
        "abs" => lattensor::ops::abs,
        "neg" => lattensor::ops::negative,
        "sqrt" => lattensor::ops::sqrt,
        "relu" => lattensor::nn::relu,
        "f16" => |t| t.cast(lattensor::DType::F16),
        _ => return None,
    };
    Some(Box::new(move || f(&a).expect("the op runs")))
}
