//! `preferred_element_type` on matmul, einsum and tensordot: exact byte-integer
//! products against an i64 reference (random and extreme values, depths up to
//! 2¹⁷), every integer operand dtype into every integer preferred type, the
//! float types accumulating in f32, the refusals, and gradients through it.

use lattensor::einsum::{Front, PathOptions, einsum_preferred};
use lattensor::ops::matrix::{MatMulOptions, matmul_with};
use lattensor::{DType, Error, GradientTape, SliceArg, Tensor, ops, tnp};

/// A deterministic stream of i64 in `lo..=hi`.
fn ints(n: usize, seed: u64, lo: i64, hi: i64) -> Vec<i64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            lo + ((s >> 17) % (hi - lo + 1) as u64) as i64
        })
        .collect()
}

/// `[m, k] × [k, n]` in i64 by the definition (modulo 2⁶⁴ if it overflows).
fn reference(a: &[i64], b: &[i64], m: usize, k: usize, n: usize) -> Vec<i64> {
    let mut out = vec![0i64; m * n];
    for i in 0..m {
        for p in 0..k {
            for j in 0..n {
                out[i * n + j] = out[i * n + j].wrapping_add(a[i * k + p].wrapping_mul(b[p * n + j]));
            }
        }
    }
    out
}

fn tensor(v: &[i64], shape: &[usize], d: DType) -> Tensor {
    Tensor::from_vec(v.to_vec(), shape).unwrap().cast(d).unwrap()
}

fn prefer(d: DType) -> MatMulOptions {
    MatMulOptions { preferred_element_type: Some(d), ..Default::default() }
}

/// The reference's values wrapped to `d` (integer casts wrap), as i64.
fn wrapped(v: &[i64], d: DType) -> Vec<i64> {
    Tensor::from_vec(v.to_vec(), &[v.len()]).unwrap().cast(d).unwrap().cast(DType::I64).unwrap().to_vec().unwrap()
}

fn values(t: &Tensor) -> Vec<i64> {
    t.cast(DType::I64).unwrap().to_vec().unwrap()
}

#[test]
fn int8_products_into_int32_are_exact_on_random_and_extreme_inputs_up_to_depth_two_to_the_seventeen() {
    // (m, k, n, A's values, B's values)
    type Case = (usize, usize, usize, Vec<i64>, Vec<i64>);
    let cases: Vec<Case> = vec![
        (7, 300, 45, ints(7 * 300, 1, -128, 127), ints(300 * 45, 2, -128, 127)),
        (3, 1 << 17, 2, ints(3 << 17, 3, -128, 127), ints(2 << 17, 4, -128, 127)),
        // all 127 at depth 2¹⁷: 127²·2¹⁷ = 2 114 060 288 < 2³¹
        (2, 1 << 17, 2, vec![127; 2 << 17], vec![127; 2 << 17]),
        // all −128 against all 127 at 2¹⁷, and all −128 at 2¹⁷ − 1 (2³¹ − 2¹⁴)
        (2, 1 << 17, 1, vec![-128; 2 << 17], vec![127; 1 << 17]),
        (1, (1 << 17) - 1, 2, vec![-128; (1 << 17) - 1], vec![-128; 2 * ((1 << 17) - 1)]),
    ];
    for (m, k, n, a, b) in cases {
        let want = reference(&a, &b, m, k, n);
        assert!(want.iter().all(|&v| i32::try_from(v).is_ok()));
        let (ta, tb) = (tensor(&a, &[m, k], DType::I8), tensor(&b, &[k, n], DType::I8));
        let c = matmul_with(&ta, &tb, prefer(DType::I32)).unwrap();
        assert_eq!((c.dtype(), c.is_weak(), c.shape()), (DType::I32, false, &[m, n][..]));
        assert_eq!(values(&c), want, "{m}x{k}x{n}");
        // and into int64, exact at any depth
        let c = matmul_with(&ta, &tb, prefer(DType::I64)).unwrap();
        assert_eq!(c.to_vec::<i64>().unwrap(), want);
    }
    // (−128)²·2¹⁷ = 2³¹: int32 accumulation wraps, as JAX's does; int64 holds it
    let a = tensor(&vec![-128; 1 << 17], &[1, 1 << 17], DType::I8);
    let at = a.transpose(&[1, 0]).unwrap();
    assert_eq!(matmul_with(&a, &at, prefer(DType::I32)).unwrap().to_vec::<i32>().unwrap(), vec![i32::MIN]);
    assert_eq!(matmul_with(&a, &at, prefer(DType::I64)).unwrap().to_vec::<i64>().unwrap(), vec![1i64 << 31]);
}

#[test]
fn every_integer_operand_into_every_integer_preferred_type() {
    let ranges = [
        (DType::I8, -128, 127),
        (DType::U8, 0, 255),
        (DType::I4, -8, 7),
        (DType::U4, 0, 15),
        (DType::I16, -32768, 32767),
        (DType::U16, 0, 65535),
        (DType::I32, -(1 << 31), (1 << 31) - 1),
        (DType::Bool, 0, 1),
    ];
    let (m, k, n) = (5, 70, 33);
    for (x, &(da, lo_a, hi_a)) in ranges.iter().enumerate() {
        for (y, &(db, lo_b, hi_b)) in ranges.iter().enumerate() {
            let a = ints(m * k, 10 + x as u64, lo_a, hi_a);
            let b = ints(k * n, 20 + y as u64, lo_b, hi_b);
            let want: Vec<i64> = reference(&a, &b, m, k, n);
            let (ta, tb) = (tensor(&a, &[m, k], da), tensor(&b, &[k, n], db));
            for p in [DType::I16, DType::U16, DType::I32, DType::U32, DType::I64, DType::U64] {
                let c = matmul_with(&ta, &tb, prefer(p));
                let too_narrow = p.size() < da.size().max(db.size());
                if too_narrow {
                    assert!(matches!(c, Err(Error::InvalidType(_))), "{da} × {db} → {p} should be refused");
                    continue;
                }
                let c = c.unwrap();
                assert_eq!(c.dtype(), p);
                // products in p wrap modulo its width: the reference modulo 2⁶⁴, wrapped to p
                let want = wrapped(&want, p);
                let got = if p == DType::U64 { c.bitcast(DType::I64).unwrap().to_vec().unwrap() } else { values(&c) };
                assert_eq!(got, want, "{da} × {db} → {p}");
            }
        }
    }
}

#[test]
fn int8_matmul_without_a_preferred_type_wraps_as_before() {
    // the byte kernel computes every int8/uint8 matmul: exact sums wrapped to 8 bits
    let (m, k, n) = (9, 200, 40);
    for d in [DType::I8, DType::U8] {
        let (lo, hi) = if d == DType::I8 { (-128, 127) } else { (0, 255) };
        let (a, b) = (ints(m * k, 5, lo, hi), ints(k * n, 6, lo, hi));
        let c = ops::matrix::matmul(&tensor(&a, &[m, k], d), &tensor(&b, &[k, n], d), false, false).unwrap();
        assert_eq!(c.dtype(), d);
        assert_eq!(values(&c), wrapped(&reference(&a, &b, m, k, n), d), "{d}");
    }
}

#[test]
fn low_precision_floats_accumulate_in_float32() {
    let (m, k, n) = (4, 50, 6);
    let a = Tensor::from_vec(ints(m * k, 7, -12, 12).iter().map(|&v| v as f32 / 4.0).collect(), &[m, k]).unwrap();
    let b = Tensor::from_vec(ints(k * n, 8, -12, 12).iter().map(|&v| v as f32 / 8.0).collect(), &[k, n]).unwrap();
    for da in [DType::BF16, DType::F16, DType::F8E4M3Fn, DType::F8E5M2, DType::F8E4M3Fnuz, DType::F8E5M2Fnuz] {
        for db in [DType::BF16, DType::F16, DType::F8E4M3Fn, DType::F8E5M2] {
            let (xa, xb) = (a.cast(da).unwrap(), b.cast(db).unwrap());
            let want = ops::matrix::matmul(&xa.cast(DType::F32).unwrap(), &xb.cast(DType::F32).unwrap(), false, false)
                .unwrap()
                .to_vec::<f32>()
                .unwrap();
            let c = matmul_with(&xa, &xb, prefer(DType::F32)).unwrap();
            assert_eq!((c.dtype(), c.to_vec::<f32>().unwrap()), (DType::F32, want), "{da} × {db}");
        }
    }
    // bf16 × bf16 → bf16 preferred: computed in f32, rounded once
    let (xa, xb) = (a.cast(DType::BF16).unwrap(), b.cast(DType::BF16).unwrap());
    let c = matmul_with(&xa, &xb, prefer(DType::BF16)).unwrap();
    let plain = ops::matrix::matmul(&xa, &xb, false, false).unwrap();
    assert_eq!((c.dtype(), c.to_vec::<half::bf16>().unwrap()), (DType::BF16, plain.to_vec::<half::bf16>().unwrap()));
}

#[test]
fn refusals_name_the_op_the_dtypes_and_the_fix() {
    let f = Tensor::from_vec(vec![1.5f32, 2.0], &[1, 2]).unwrap();
    let ft = f.transpose(&[1, 0]).unwrap();
    let z = f.cast(DType::C64).unwrap();
    let d = f.cast(DType::F64).unwrap();
    let i = f.cast(DType::I32).unwrap();
    for (a, b, p, says) in [
        (&f, &ft, DType::I32, "would truncate a float32 operand"),
        (&z, &z.transpose(&[1, 0]).unwrap(), DType::F64, "would drop the imaginary part of a complex64 operand"),
        (&d, &d.transpose(&[1, 0]).unwrap(), DType::F32, "is narrower than a float64 operand"),
        (&i, &i.transpose(&[1, 0]).unwrap(), DType::I16, "is narrower than a int32 operand"),
        (&f, &ft, DType::Bool, "cannot hold a product"),
        (&f, &ft, DType::F8E4M3Fn, "cannot hold a product"),
    ] {
        let e = matmul_with(a, b, prefer(p)).unwrap_err();
        assert!(matches!(e, Error::InvalidType(_)), "{e}");
        let msg = e.to_string();
        assert!(msg.starts_with("matmul: preferred_element_type=") && msg.contains(says), "{msg}");
    }
    // a weak operand adapts (no width check), but a weak float into an integer is refused
    let w = Tensor::from_vec(vec![3i32, 4], &[2, 1]).unwrap().with_weak(true);
    let b8 = Tensor::from_vec(vec![1i8, 2], &[1, 2]).unwrap();
    let c = matmul_with(&b8, &w, prefer(DType::I16)).unwrap();
    assert_eq!((c.dtype(), c.to_vec::<i16>().unwrap()), (DType::I16, vec![11]));
    let wf = f.transpose(&[1, 0]).unwrap().with_weak(true);
    assert!(matches!(matmul_with(&b8, &wf, prefer(DType::I32)), Err(Error::InvalidType(_))));
    // shape errors still come first as InvalidArgument
    let e = matmul_with(&b8, &b8, prefer(DType::I32)).unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(_)) && e.to_string().contains("inner dimensions"), "{e}");
    // and the einsum/tensordot forms say their own op name
    let e = einsum_preferred(Front::Tf, "ij,jk->ik", &[&f, &ft], PathOptions::default(), DType::I32).unwrap_err();
    assert!(e.to_string().starts_with("einsum: preferred_element_type=int32 would truncate"), "{e}");
}

#[test]
fn einsum_and_tensordot_with_byte_operands() {
    let a = tensor(&ints(6 * 5, 31, -128, 127), &[6, 5], DType::I8);
    let b = tensor(&ints(5 * 4, 32, 0, 255), &[5, 4], DType::U8);
    let (av, bv) = (values(&a), values(&b));
    let opts = PathOptions::default();
    let ein = |eq: &str, ops: &[&Tensor], p: DType| einsum_preferred(Front::Tf, eq, ops, opts, p).unwrap();
    // a contraction, a reduction, an outer product, a transpose, a diagonal: each exact in int32
    assert_eq!(values(&ein("ij,jk->ik", &[&a, &b], DType::I32)), reference(&av, &bv, 6, 5, 4));
    let row_sums: Vec<i64> = av.chunks(5).map(|r| r.iter().sum()).collect();
    assert_eq!(values(&ein("ij->i", &[&a], DType::I32)), row_sums);
    let outer: Vec<i64> = av[..5].iter().flat_map(|&x| bv[..4].iter().map(move |&y| x * y)).collect();
    let (a0, b0) = (a.slice(&[SliceArg::Index(0)]).unwrap(), b.slice(&[SliceArg::Index(0)]).unwrap());
    assert_eq!(values(&ein("i,j->ij", &[&a0, &b0], DType::I32)), outer);
    let t = ein("ij->ji", &[&a], DType::I32);
    assert_eq!((t.dtype(), t.shape()), (DType::I32, &[5usize, 6][..]));
    let sq = tensor(&av[..25], &[5, 5], DType::I8);
    let diag: Vec<i64> = (0..5).map(|i| av[i * 6]).collect();
    assert_eq!(values(&ein("ii->i", &[&sq], DType::I64)), diag);
    // three operands, contracted pairwise
    let c = tensor(&ints(4 * 3, 33, -128, 127), &[4, 3], DType::I8);
    let ab = reference(&av, &bv, 6, 5, 4);
    assert_eq!(values(&ein("ij,jk,kl->il", &[&a, &b, &c], DType::I64)), reference(&ab, &values(&c), 6, 4, 3));
    // tensordot
    let y = tnp::tensordot_preferred(&a, &b, 1, DType::I32).unwrap();
    assert_eq!((y.dtype(), values(&y)), (DType::I32, reference(&av, &bv, 6, 5, 4)));
}

#[test]
fn gradients_flow_through_a_preferred_float_type() {
    // bf16 operands, f32 product: the gradients are bf16, those of the casts
    let a = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap().cast(DType::BF16).unwrap();
    let b = Tensor::from_vec(vec![0.5f32, -1.0, 2.0, 0.25], &[2, 2]).unwrap().cast(DType::BF16).unwrap();
    let tape = GradientTape::new();
    tape.watch(&a);
    tape.watch(&b);
    let loss = tape.record(|| ops::reduce_sum(&matmul_with(&a, &b, prefer(DType::F32))?, None, false)).unwrap();
    assert_eq!(loss.dtype(), DType::F32);
    let g = tape.gradient(&loss, &[&a, &b]).unwrap();
    let (ga, gb) = (g[0].as_ref().unwrap(), g[1].as_ref().unwrap());
    assert_eq!((ga.dtype(), gb.dtype()), (DType::BF16, DType::BF16));
    // d/da Σ(a·b) = 1·bᵀ: row sums of b for each row of a; d/db = aᵀ·1
    let f = |t: &Tensor| t.cast(DType::F32).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(f(ga), vec![-0.5, 2.25, -0.5, 2.25]);
    assert_eq!(f(gb), vec![4.0, 4.0, 6.0, 6.0]);
}
