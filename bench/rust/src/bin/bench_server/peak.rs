//! The host's own FMA peak, measured in the same run as the workloads: a
//! hand-written loop of independent vector FMAs doing exactly a workload's
//! floating-point operations, on the threads lattensor uses.
//!
//! `perf_baselines.md` gives the peak of the Zen 4 the task was specified on
//! (117 GFLOP/s f32 and 59 f64 per core). On a shared VM the cycles a tenant
//! actually gets drift from minute to minute, so, as for memory bandwidth
//! (see [`super::limits`]), a product's speed is also compared with what a
//! perfect kernel gets in the same run: twelve accumulators of FMAs on
//! registers (enough to cover the FMA latency on any x86 core), no loads, no
//! stores, timed as the STREAM kernels are ([`super::limits::timed_on_threads`]).

use std::hint::black_box;

/// Independent accumulators per thread.
const ACCUMULATORS: usize = 12;

/// The element type of an FMA peak (`I8`: int8 dot products, `vpdpbusd`,
/// four multiply-adds to a 32-bit lane, counted as two operations each).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Precision {
    F32,
    F64,
    I8,
}

impl std::str::FromStr for Precision {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "fma32" => Ok(Precision::F32),
            "fma64" => Ok(Precision::F64),
            "dot8" => Ok(Precision::I8),
            _ => Err(format!("unknown FMA peak {s:?} (fma32, fma64 or dot8)")),
        }
    }
}

/// The widest FMA this CPU has.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Isa {
    Avx512,
    Avx2,
}

fn isa() -> Option<Isa> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            return Some(Isa::Avx512);
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            return Some(Isa::Avx2);
        }
    }
    None
}

/// `k` calls of about `flops` floating-point operations each (an FMA counts
/// two), split over lattensor's threads: (nanoseconds for all `k`, the
/// operations per call actually done, the loop used), or `None` on a CPU
/// without vector FMAs.
pub fn run(precision: Precision, flops: usize, k: usize) -> Option<(u128, usize, String)> {
    let isa = isa()?;
    if precision == Precision::I8 && !(isa == Isa::Avx512 && vnni()) {
        return None;
    }
    // multiply-adds per instruction
    let lanes = match (isa, precision) {
        (Isa::Avx512, Precision::I8) => 64,
        (Isa::Avx512, Precision::F32) => 16,
        (Isa::Avx512, Precision::F64) | (Isa::Avx2, Precision::F32) => 8,
        (Isa::Avx2, Precision::F64) => 4,
        (Isa::Avx2, Precision::I8) => return None,
    };
    let threads = super::limits::threads();
    // one round: every accumulator takes one FMA
    let per_round = 2 * lanes * ACCUMULATORS;
    let rounds = (flops / threads).div_ceil(per_round).max(1);
    let shares = (0..threads).map(|_| {
        move || {
            black_box(fmas(isa, precision, black_box(rounds)));
        }
    });
    let ns = super::limits::timed_on_threads(shares.collect(), k.max(1));
    // one word: the protocol's reply is split on spaces
    let name = format!("{isa:?}-{precision:?}-x{ACCUMULATORS}").to_lowercase();
    Some((ns, rounds * per_round * threads, name))
}

/// Whether the CPU has AVX-512 VNNI (`vpdpbusd`).
fn vnni() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512vnni")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `rounds` FMAs on each of [`ACCUMULATORS`] registers; returns a sum of them
/// (so that the loop is not optimised away).
fn fmas(isa: Isa, precision: Precision, rounds: usize) -> f64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `isa` was detected on this CPU by `isa()`.
    unsafe {
        match (isa, precision) {
            (Isa::Avx512, Precision::F32) => x86::avx512_f32(rounds),
            (Isa::Avx512, Precision::F64) => x86::avx512_f64(rounds),
            (Isa::Avx2, Precision::F32) => x86::avx2_f32(rounds),
            (Isa::Avx2, Precision::F64) => x86::avx2_f64(rounds),
            (Isa::Avx512, Precision::I8) => x86::avx512_i8(rounds),
            (Isa::Avx2, Precision::I8) => 0.0,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (isa, precision, rounds);
        0.0
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::ACCUMULATORS;
    use std::arch::x86_64::*;

    /// One loop per (width, precision): `acc = acc·m + a` on every accumulator,
    /// `rounds` times. m = 1 − 2⁻²⁰ and a = 2⁻²⁰ keep the values near 1 (no
    /// subnormals or infinities, whose handling could be slower).
    macro_rules! fma_loop {
        ($name:ident, $feature:literal, $t:ty, $set1:ident, $fma:ident, $store:ident, $lanes:expr) => {
            /// # Safety
            /// The CPU has the target feature.
            #[target_feature(enable = $feature)]
            pub unsafe fn $name(rounds: usize) -> f64 {
                let (m, a) = ($set1(1.0 - 1.0 / 1048576.0), $set1(1.0 / 1048576.0));
                let mut acc = [$set1(0.5); ACCUMULATORS];
                for _ in 0..rounds {
                    for v in acc.iter_mut() {
                        *v = $fma(*v, m, a);
                    }
                }
                let mut sum = 0.0;
                for v in acc {
                    let mut lanes = [0.0 as $t; $lanes];
                    // SAFETY: `lanes` has room for one vector (unaligned store).
                    unsafe { $store(lanes.as_mut_ptr(), v) };
                    sum += lanes.iter().map(|&x| x as f64).sum::<f64>();
                }
                sum
            }
        };
    }

    fma_loop!(avx512_f32, "avx512f", f32, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_storeu_ps, 16);
    fma_loop!(avx512_f64, "avx512f", f64, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_storeu_pd, 8);
    fma_loop!(avx2_f32, "avx2,fma", f32, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_storeu_ps, 8);
    fma_loop!(avx2_f64, "avx2,fma", f64, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_storeu_pd, 4);

    /// `acc += a·b` in groups of four byte products on every accumulator, `rounds`
    /// times (`vpdpbusd`; the sums wrap, which costs nothing).
    ///
    /// # Safety
    /// The CPU has AVX-512F and AVX-512 VNNI.
    #[target_feature(enable = "avx512f,avx512vnni")]
    pub unsafe fn avx512_i8(rounds: usize) -> f64 {
        let (a, b) = (_mm512_set1_epi8(3), _mm512_set1_epi8(-5));
        let mut acc = [_mm512_setzero_si512(); ACCUMULATORS];
        for _ in 0..rounds {
            for v in acc.iter_mut() {
                *v = _mm512_dpbusd_epi32(*v, a, b);
            }
        }
        acc.iter().map(|&v| _mm512_reduce_add_epi32(v) as f64).sum()
    }
}
