//! Many threads at once: ops on shared tensors give exactly the serial
//! results, `assign_add`/`assign_sub` on shared variables lose no update and
//! readers never see a half-applied one, and each thread keeps its own
//! promotion mode. Every test repeats its rounds, so a race has many chances
//! to show.

use std::sync::Barrier;

use lattensor::einsum::einsum;
use lattensor::promote::{PromotionMode, with_mode};
use lattensor::{DType, SliceArg, Tensor, Variable, ops};

const THREADS: usize = 8;
const ROUNDS: usize = 5;

/// Deterministic pseudo-random floats in [-1, 1).
fn data(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        })
        .collect()
}

/// A battery of ops over shared inputs, large enough that the kernels, the
/// reductions and the GEMM split their work across the pool's threads too.
fn battery(a: &Tensor, b: &Tensor, m: &Tensor) -> Vec<Vec<u8>> {
    let rev = a.slice(&[SliceArg::stepped(None, None, -1)]).unwrap();
    let outs = [
        ops::add(a, b).unwrap(),
        ops::multiply(&rev, 2.5).unwrap(),
        ops::exp(b).unwrap(),
        ops::reduce_sum(a, 0, false).unwrap(),
        ops::reduce_max(&m.t(), 1, false).unwrap(),
        ops::reduce_mean(m, lattensor::ops::Axes::All, false).unwrap(),
        einsum("ij,jk->ik", &[m, &m.t()]).unwrap(),
        einsum("ij->j", &[m]).unwrap(),
        a.cast(DType::F16).unwrap(),
        m.t().cast(DType::I32).unwrap(),
        lattensor::bitcast(a, DType::U16).unwrap().contiguous().unwrap(),
    ];
    outs.iter().map(|t| t.to_bytes().unwrap()).collect()
}

#[test]
fn ops_on_shared_tensors_match_a_serial_run() {
    let n = 1 << 19; // above the kernels' parallel threshold (2^18)
    let a = Tensor::from_vec(data(n, 1), &[n]).unwrap().cast(DType::F32).unwrap();
    let b = Tensor::from_vec(data(n, 2), &[n]).unwrap().cast(DType::F32).unwrap();
    let m = Tensor::from_vec(data(300 * 200, 3), &[300, 200]).unwrap();
    let serial = battery(&a, &b, &m);
    for round in 0..ROUNDS {
        let barrier = Barrier::new(THREADS);
        let results: Vec<Vec<Vec<u8>>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..THREADS)
                .map(|_| {
                    s.spawn(|| {
                        barrier.wait(); // start together, for the most overlap
                        battery(&a, &b, &m)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (t, r) in results.iter().enumerate() {
            for (k, (got, want)) in r.iter().zip(&serial).enumerate() {
                assert!(got == want, "round {round}, thread {t}: op {k} differs from the serial result");
            }
        }
    }
}

#[test]
fn assign_add_on_shared_tensor_variables_loses_nothing_and_never_tears() {
    for round in 0..ROUNDS {
        let ints = Variable::new(Tensor::zeros(&[1000], DType::I32).unwrap()).unwrap();
        let floats = Variable::new(Tensor::zeros(&[64, 64], DType::F64).unwrap()).unwrap();
        let ones_row = Tensor::from_vec(vec![1.0f64; 64], &[64]).unwrap();
        let per_thread = 200;
        std::thread::scope(|s| {
            for t in 0..THREADS {
                let (ints, floats, ones_row) = (&ints, &floats, &ones_row);
                s.spawn(move || {
                    for i in 0..per_thread {
                        // odd threads subtract -2, even ones add 2: +2 per step either
                        // way, so a watcher can check values never go back
                        if t % 2 == 1 {
                            ints.assign_sub(-2).unwrap();
                        } else {
                            ints.assign_add(2).unwrap();
                        }
                        // a broadcast row (integers in f64 add exactly)
                        floats.assign_add(ones_row).unwrap();
                        if i % 16 == 0 {
                            // a snapshot is never half-updated: all elements equal
                            let r = floats.read().to_vec::<f64>().unwrap();
                            assert!(r.iter().all(|&x| x == r[0]), "torn read in thread {t}");
                        }
                    }
                });
            }
            // a reader that only watches: values never decrease
            let ints = &ints;
            s.spawn(move || {
                let mut last = 0;
                for _ in 0..500 {
                    let v = ints.read().to_vec::<i32>().unwrap();
                    assert!(v.iter().all(|&x| x == v[0]), "torn read");
                    assert!(v[0] >= last, "went back from {last} to {}", v[0]);
                    last = v[0];
                }
            });
        });
        let want = (THREADS * per_thread * 2) as i32;
        assert!(ints.read().to_vec::<i32>().unwrap().iter().all(|&x| x == want), "round {round}: lost updates");
        let want = (THREADS * per_thread) as f64;
        assert!(floats.read().to_vec::<f64>().unwrap().iter().all(|&x| x == want), "round {round}: lost updates");
    }
}

#[test]
fn promotion_modes_are_per_thread() {
    let a = Tensor::scalar(1i32);
    let b = Tensor::scalar(1.0f32);
    for _ in 0..ROUNDS {
        let barrier = Barrier::new(THREADS);
        std::thread::scope(|s| {
            for t in 0..THREADS {
                let (a, b, barrier) = (&a, &b, &barrier);
                s.spawn(move || {
                    let mode = PromotionMode::ALL_MODES[t % 4];
                    with_mode(mode, || {
                        barrier.wait();
                        for _ in 0..200 {
                            let r = ops::add(a, b);
                            // int32 + float32: All gives float32, NumPy float64, Safe and Strict refuse
                            match mode {
                                PromotionMode::All => assert_eq!(r.unwrap().dtype(), DType::F32),
                                PromotionMode::NumPy => assert_eq!(r.unwrap().dtype(), DType::F64),
                                _ => assert!(r.is_err(), "{mode} must refuse int32 + float32"),
                            }
                        }
                    });
                });
            }
        });
    }
}
