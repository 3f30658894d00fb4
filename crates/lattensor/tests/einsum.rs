//! einsum: spec.md §3 case lists (TF einsum_op_test, NumPy test_einsum), property
//! tests of every front end against a naive loop nest, error cases, a parser fuzz test,
//! and the planner against opt_einsum's optimal FLOP counts.

use lattensor::einsum::{
    Front, PathOptions, Strategy as PathStrategy, einsum, einsum_front, einsum_path, einsum_raw, einsum_with,
    numpy_einsum, numpy_einsum_path,
};
use lattensor::{Category, DType, Tensor};
use proptest::prelude::*;

// ---- a naive reference -------------------------------------------------------

/// Deterministic pseudo-random values in [-1, 1).
fn rand_vec(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

/// Expands `...` into uppercase labels (right-aligned by rank) and returns
/// (input terms, output term) as label vectors.
fn expand(eq: &str, shapes: &[Vec<usize>]) -> (Vec<Vec<char>>, Vec<char>) {
    let eq: String = eq.chars().filter(|&c| c != ' ').collect();
    let (lhs, rhs) = eq.split_once("->").expect("reference needs explicit output");
    let terms: Vec<&str> = lhs.split(',').collect();
    let ell: Vec<usize> = terms
        .iter()
        .zip(shapes)
        .map(|(t, s)| if t.contains("...") { s.len() - t.replace("...", "").chars().count() } else { 0 })
        .collect();
    let e = ell.iter().copied().max().unwrap_or(0);
    let bl = |k: usize| -> Vec<char> { (e - k..e).map(|p| (b'A' + p as u8) as char).collect() };
    let ins = terms
        .iter()
        .zip(&ell)
        .map(|(t, &k)| {
            let (a, b) = t.split_once("...").unwrap_or((t, ""));
            let mut v: Vec<char> = a.chars().collect();
            if t.contains("...") {
                v.extend(bl(k));
                v.extend(b.chars());
            }
            v
        })
        .collect();
    let (a, b) = rhs.split_once("...").unwrap_or((rhs, ""));
    let mut out: Vec<char> = a.chars().collect();
    if rhs.contains("...") {
        out.extend(bl(e));
        out.extend(b.chars());
    }
    (ins, out)
}

/// Naive loop nest over every label assignment (size-1 dims broadcast); repeated
/// output labels only receive their diagonal (the raw op's expansion).
fn reference(eq: &str, shapes: &[Vec<usize>], data: &[Vec<f64>]) -> (Vec<usize>, Vec<f64>) {
    let (ins, out) = expand(eq, shapes);
    let mut labels: Vec<char> = Vec::new();
    let mut sizes: Vec<usize> = Vec::new();
    for (t, s) in ins.iter().zip(shapes) {
        for (&c, &d) in t.iter().zip(s) {
            match labels.iter().position(|&x| x == c) {
                Some(p) => {
                    if sizes[p] == 1 {
                        sizes[p] = d
                    }
                }
                None => {
                    labels.push(c);
                    sizes.push(d);
                }
            }
        }
    }
    let pos = |c: char| labels.iter().position(|&x| x == c).unwrap();
    let out_shape: Vec<usize> = out.iter().map(|&c| sizes[pos(c)]).collect();
    let n_out: usize = out_shape.iter().product();
    let mut res = vec![0.0; n_out];
    let total: usize = sizes.iter().product();
    let mut idx = vec![0usize; labels.len()];
    for _ in 0..total {
        let mut prod = 1.0;
        for ((t, s), d) in ins.iter().zip(shapes).zip(data) {
            let mut off = 0;
            for (&c, &dim) in t.iter().zip(s) {
                let i = if dim == 1 { 0 } else { idx[pos(c)] };
                off = off * dim + i;
            }
            prod *= d[off];
        }
        let mut off = 0;
        for (&c, &dim) in out.iter().zip(&out_shape) {
            off = off * dim + idx[pos(c)];
        }
        if n_out > 0 {
            res[off] += prod;
        }
        for a in (0..idx.len()).rev() {
            idx[a] += 1;
            if idx[a] < sizes[a] {
                break;
            }
            idx[a] = 0;
        }
    }
    (out_shape, res)
}

fn tensors(shapes: &[Vec<usize>], dtype: DType, seed: u64) -> (Vec<Tensor>, Vec<Vec<f64>>) {
    let mut ts = Vec::new();
    let mut ds = Vec::new();
    for (k, s) in shapes.iter().enumerate() {
        let n: usize = s.iter().product();
        let d = rand_vec(n, seed + k as u64);
        ts.push(Tensor::from_vec(d.clone(), s).unwrap().cast(dtype).unwrap());
        ds.push(d);
    }
    (ts, ds)
}

fn close(got: &Tensor, shape: &[usize], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.shape(), shape, "{what}: shape");
    let g = got.to_vec::<f64>().unwrap();
    for (i, (a, b)) in g.iter().zip(want).enumerate() {
        assert!((a - b).abs() <= tol * (1.0 + b.abs()), "{what}: element {i}: got {a}, want {b}");
    }
}

fn check(front: Front, eq: &str, shapes: &[&[usize]]) {
    let shapes: Vec<Vec<usize>> = shapes.iter().map(|s| s.to_vec()).collect();
    let (ts, ds) = tensors(&shapes, DType::F64, eq.len() as u64 * 7 + shapes.len() as u64);
    let refs: Vec<&Tensor> = ts.iter().collect();
    let (shape, want) = reference(eq, &shapes, &ds);
    let got = match front {
        Front::Raw => einsum_raw(eq, &refs),
        Front::Tf => einsum(eq, &refs),
        Front::NumPy => numpy_einsum(eq, &refs),
    }
    .unwrap_or_else(|e| panic!("{front:?} {eq} {shapes:?}: {e}"));
    close(&got, &shape, &want, 1e-12, &format!("{front:?} {eq} {shapes:?}"));
    assert_eq!(got.dtype(), DType::F64);
    assert!(!got.is_weak());
}

// ---- spec §3.1: TF einsum_op_test -------------------------------------------

#[test]
fn tf_unary_cases() {
    let cases: &[(&str, &[&[usize]])] = &[
        ("->", &[&[]]),
        ("ab->", &[&[3, 3]]),
        ("ab->ab", &[&[3, 3]]),
        ("abc->b", &[&[3, 4, 5]]),
        ("abc->ca", &[&[3, 4, 5]]),
        ("abc->cab", &[&[3, 4, 5]]),
        ("aa->", &[&[3, 3]]),
        ("aa->a", &[&[3, 3]]),
        ("aaa->", &[&[3, 3, 3]]),
        ("aaa->a", &[&[3, 3, 3]]),
        ("aab->a", &[&[3, 3, 4]]),
        ("aabcc->a", &[&[3, 3, 5, 4, 4]]),
        ("aabcc->ac", &[&[3, 3, 5, 4, 4]]),
        ("aabcd->ad", &[&[3, 3, 5, 4, 4]]),
        ("...->...", &[&[]]),
        ("...->", &[&[]]),
        ("->...", &[&[]]),
        ("a...a->a...", &[&[2, 2]]),
        ("a...a->", &[&[2, 2]]),
        ("a...a->...", &[&[2, 5, 1, 2]]),
        ("a...a->a...", &[&[2, 1, 2]]),
        ("a...a->a...", &[&[2, 3, 4, 5, 2]]),
        ("...ijk->...ki", &[&[3, 4, 5]]),
        ("...ijk->...ki", &[&[1, 3, 4, 5]]),
        ("...ijk->...ki", &[&[2, 2, 3, 4, 5]]),
        ("i...ii->...i", &[&[3, 2, 3, 3]]),
        ("abcd->da", &[&[3, 5, 4, 2]]),
        ("ab...cd->da...", &[&[3, 5, 2, 3, 4, 2]]),
        ("ijk->kji", &[&[2, 3, 4]]),
    ];
    for (eq, shapes) in cases {
        check(Front::Raw, eq, shapes);
        check(Front::Tf, eq, shapes);
        check(Front::NumPy, eq, shapes);
    }
}

#[test]
fn tf_binary_cases() {
    let cases: &[(&str, &[&[usize]])] = &[
        (",->", &[&[], &[]]),
        ("a,a->", &[&[3], &[3]]),
        ("a,a->a", &[&[3], &[3]]),
        ("ab,b->a", &[&[3, 4], &[4]]),
        ("ab,ab->", &[&[3, 4], &[3, 4]]),
        ("ab,bc->ac", &[&[3, 4], &[4, 5]]),
        ("nij,jk->nik", &[&[5, 2, 3], &[3, 4]]),
        ("abc,bad->abcd", &[&[1, 2, 3], &[2, 1, 4]]),
        ("sa,shb->shab", &[&[2, 1], &[2, 3, 4]]),
        ("ba,b->", &[&[3, 2], &[3]]),
        ("abce,badf->abcd", &[&[1, 2, 3, 4], &[2, 1, 4, 3]]),
        ("ijj,k->ik", &[&[2, 3, 3], &[4]]),
        ("aba,a->b", &[&[3, 4, 3], &[3]]),
        ("aab,bc->ac", &[&[2, 2, 3], &[3, 4]]),
        ("aab,bcc->ac", &[&[2, 2, 3], &[3, 4, 4]]),
        ("...mk,...kn->...mn", &[&[5, 1, 2, 3], &[5, 1, 3, 4]]),
        ("...mk,...kn->...mn", &[&[2, 3], &[3, 4]]),
        ("...ija,aijb...->ba...ij", &[&[1, 2, 2, 3, 1], &[1, 2, 3, 4, 1, 2]]),
        ("...mk,...kn->mn", &[&[2, 3], &[3, 4]]),
        ("...mk,kn->mn", &[&[2, 3], &[3, 4]]),
        ("mk,...kn->mn", &[&[2, 3], &[3, 4]]),
        ("...ij,...jk->...ik", &[&[1, 2, 3], &[3, 5]]),
        ("...ij,...jk->...ik", &[&[2, 3], &[1, 3, 5]]),
        ("...ij,...jk->...ik", &[&[5, 2, 3], &[3, 5]]),
        ("...ij,...jk->...ik", &[&[2, 3], &[5, 3, 5]]),
        ("...ij,...jk->...ik", &[&[3, 1, 2, 3], &[1, 1, 7, 3, 5]]),
        ("i...j,j...k->...ik", &[&[2, 1, 3, 1, 3], &[3, 1, 7, 5]]),
        ("...abc,...abcd->...d", &[&[1, 1, 2, 3, 4], &[5, 2, 3, 4, 6]]),
        ("ab...,b->ab...", &[&[2, 3, 1, 1, 5], &[3]]),
        ("i...j,j...k->i...k", &[&[3, 1, 2, 2], &[2, 2, 3, 1, 4]]),
        ("ij,jk...k->i...", &[&[3, 2], &[2, 4, 1, 4]]),
        ("ij,jk...k->...i", &[&[3, 2], &[2, 4, 5, 4]]),
        ("ijj,jk...k->i...", &[&[3, 2, 2], &[2, 4, 1, 4]]),
        ("i...jj,jk...k->i...", &[&[3, 3, 1, 2, 2], &[2, 4, 1, 5, 4]]),
        ("bijl,bjkm->bik", &[&[9, 2, 3, 5], &[9, 3, 4, 7]]),
        ("...ij,...->...i", &[&[4, 3, 1, 2], &[4, 3]]),
        ("ab,bc->ac", &[&[0, 10], &[10, 10]]),
        ("ibnd,ijbn->jnd", &[&[1, 0, 5, 10], &[1, 1, 0, 5]]),
        ("aab,bc->ac", &[&[0, 0, 10], &[10, 10]]),
        ("aaab,bc->c", &[&[0, 0, 0, 3], &[3, 4]]),
        ("ij,jk->ik", &[&[2, 0], &[0, 3]]),
        ("ijkm,ijln->ijmn", &[&[2, 3, 3, 4], &[2, 3, 3, 2]]),
        ("ill,k->ik", &[&[2, 3, 3], &[4]]),
        ("aab,b...c->a...c", &[&[1, 1, 3], &[3, 1, 1, 4]]),
        ("ij...,jk...->ik...", &[&[3, 2, 1], &[2, 4]]),
        ("ji,kj->ik", &[&[3, 4], &[5, 3]]),
        ("ab,ba->", &[&[3, 4], &[4, 3]]),
        ("abc,cba->", &[&[2, 3, 4], &[4, 3, 2]]),
        ("bji,bjk->bki", &[&[2, 3, 4], &[2, 3, 5]]),
        ("ikl,kji->kl", &[&[2, 3, 4], &[3, 5, 2]]),
        ("klj,lki->ij", &[&[2, 3, 4], &[3, 2, 5]]),
        ("ijk,ilj->kli", &[&[2, 3, 4], &[2, 5, 3]]),
        ("kij,mkb->ijmb", &[&[2, 3, 4], &[5, 2, 3]]),
        ("abcd,ad->bc", &[&[2, 3, 4, 5], &[2, 5]]),
        ("ijk,jklm->il", &[&[2, 3, 4], &[3, 4, 5, 2]]),
        ("efabc,eabcd->efd", &[&[2, 3, 2, 3, 2], &[2, 2, 3, 2, 4]]),
        ("fabec,abcde->fde", &[&[2, 3, 2, 3, 2], &[3, 2, 2, 2, 3]]),
        ("eadbf,dfebc->ecfad", &[&[2, 3, 2, 3, 2], &[2, 2, 2, 3, 3]]),
        ("abcdef,bcdfg->abcdeg", &[&[2, 2, 2, 2, 2, 2], &[2, 2, 2, 2, 3]]),
    ];
    for (eq, shapes) in cases {
        check(Front::Raw, eq, shapes);
        check(Front::Tf, eq, shapes);
        check(Front::NumPy, eq, shapes);
    }
}

#[test]
fn raw_output_repeats_expand_a_diagonal() {
    let cases: &[(&str, &[&[usize]])] = &[
        ("a->aa", &[&[2]]),
        ("i->iii", &[&[3]]),
        ("ij->iji", &[&[2, 3]]),
        ("ij,jk->kik", &[&[2, 3], &[3, 4]]),
        ("ii->ii", &[&[3, 3]]),
        ("i,i->ii", &[&[3], &[3]]),
        ("aabcd->add", &[&[3, 3, 5, 4, 4]]),
        ("abce,badf->bcba", &[&[1, 2, 3, 4], &[2, 1, 4, 3]]),
        ("ab,bc->aaca", &[&[0, 10], &[10, 5]]),
        ("ab,bc->aaa", &[&[0, 10], &[10, 5]]),
        ("ab,bc->cc", &[&[0, 10], &[10, 5]]),
        ("ab,ab->aaa", &[&[0, 5], &[0, 5]]),
        ("abcdefg->abcdefgg", &[&[1, 2, 1, 2, 1, 2, 2]]),
    ];
    for (eq, shapes) in cases {
        check(Front::Raw, eq, shapes);
    }
    let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]).unwrap();
    let d = einsum_raw("i->ii", &[&x]).unwrap();
    assert_eq!(d.to_vec::<f32>().unwrap(), vec![1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0]);
    // no rank-6 limit with repeated labels
    check(Front::Raw, "abcdefgg->a", &[&[2, 1, 2, 1, 2, 1, 2, 2]]);
    // bytes are labels for the raw op
    check(Front::Raw, "i1,1k->ik", &[&[2, 3], &[3, 4]]);
    check(Front::Raw, "i_,_k->ik", &[&[2, 3], &[3, 4]]);
}

#[test]
fn tf_dtypes() {
    for dt in [DType::BF16, DType::F16, DType::F32, DType::F64, DType::C64, DType::C128, DType::I32, DType::I64] {
        let a = Tensor::from_vec(vec![1i32, 2, 3, 4], &[2, 2]).unwrap().cast(dt).unwrap();
        let c = einsum("ij,jk->ik", &[&a, &a]).unwrap();
        assert_eq!(c.dtype(), dt);
        assert_eq!(c.to_vec::<f64>().unwrap(), vec![7.0, 10.0, 15.0, 22.0], "{dt}");
    }
}

// ---- spec §3.2: NumPy test_einsum --------------------------------------------

fn np(eq: &str, ops: &[&Tensor]) -> Tensor {
    numpy_einsum(eq, ops).unwrap_or_else(|e| panic!("{eq}: {e}"))
}

fn arange(n: usize, shape: &[usize]) -> Tensor {
    Tensor::from_vec((0..n as i64).collect::<Vec<_>>(), shape).unwrap()
}

#[test]
fn numpy_views_and_sums() {
    let a = arange(25, &[5, 5]);
    assert_eq!(np("ii->i", &[&a]).to_vec::<i64>().unwrap(), vec![0, 6, 12, 18, 24]);
    assert_eq!(np("ii", &[&a]).item::<i64>().unwrap(), 60);
    assert_eq!(np("ji", &[&a]).to_vec::<i64>().unwrap(), a.t().to_vec::<i64>().unwrap());
    let b = arange(27, &[3, 3, 3]);
    assert_eq!(np("iii->i", &[&b]).to_vec::<i64>().unwrap(), vec![0, 13, 26]);
    assert_eq!(np("jii->ij", &[&b]).to_vec::<i64>().unwrap(), vec![0, 9, 18, 4, 13, 22, 8, 17, 26]);
    let c = arange(24, &[2, 3, 4]);
    assert_eq!(np("ijk->jik", &[&c]).shape(), &[3, 2, 4]);
    assert_eq!(np("...", &[&c]).to_vec::<i64>().unwrap(), c.to_vec::<i64>().unwrap());
    let cases: &[(&str, &[usize])] = &[
        ("...ii->...i", &[2, 3, 3]),
        ("ii...->...i", &[3, 3, 2]),
        ("...ii->i...", &[2, 3, 3]),
        ("ii...->i...", &[3, 3, 2]),
        ("i...i->i...", &[3, 2, 3]),
        ("i...i->...i", &[3, 2, 3]),
    ];
    for (eq, shape) in cases {
        let e = arange(18, shape);
        let got = np(eq, &[&e]);
        let (shape, want) = reference(eq, &[shape.to_vec()], &[e.to_vec::<f64>().unwrap()]);
        close(&got, &shape, &want, 0.0, eq);
    }
    // ii->i is a strided view of the input
    let v = np("ii->i", &[&a]);
    assert!(v.shares_storage_with(&a));
    let t = numpy_einsum("ij->ji", &[&a]).unwrap();
    assert!(t.shares_storage_with(&a));
}

#[test]
fn numpy_sum_cases_all_dtypes() {
    let cases: &[(&str, &[&[usize]])] = &[
        ("i->", &[&[5]]),
        ("i,i->", &[&[5], &[5]]),
        ("i,->i", &[&[5], &[]]),
        (",i->i", &[&[], &[5]]),
        ("i,->", &[&[5], &[]]),
        (",i->", &[&[], &[5]]),
        ("ij,j", &[&[3, 4], &[4]]),
        ("ji,j", &[&[4, 3], &[4]]),
        ("ij,jk", &[&[3, 4], &[4, 5]]),
        ("ij,jk,kl", &[&[3, 4], &[4, 5], &[5, 2]]),
        ("ijk,jil->kl", &[&[3, 4, 2], &[4, 3, 5]]),
        ("ijk, jil -> kl", &[&[3, 4, 2], &[4, 3, 5]]),
        ("...i->...", &[&[2, 3, 4]]),
        ("i...->...", &[&[2, 3, 4]]),
        ("...,...", &[&[2, 3], &[2, 3]]),
        ("i,j", &[&[3], &[4]]),
        ("ii", &[&[4, 4]]),
        ("...i, ...i", &[&[2, 3], &[2, 3]]),
        ("i..., i...", &[&[2, 3], &[2, 3]]),
    ];
    let dtypes = &DType::CORE[1..]; // every numeric dtype
    for (eq, shapes) in cases {
        let shapes: Vec<Vec<usize>> = shapes.iter().map(|s| s.to_vec()).collect();
        let explicit = explicit_numpy(eq);
        for &dt in dtypes {
            // small non-negative integers: exact in every dtype
            let ts: Vec<Tensor> = shapes
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let n: usize = s.iter().product();
                    let v: Vec<f64> = (0..n).map(|i| ((i * 7 + k * 3) % 3) as f64).collect();
                    Tensor::from_vec(v, s).unwrap().cast(dt).unwrap()
                })
                .collect();
            let ds: Vec<Vec<f64>> = ts.iter().map(|t| t.to_vec::<f64>().unwrap()).collect();
            let refs: Vec<&Tensor> = ts.iter().collect();
            let got = np(eq, &refs);
            assert_eq!(got.dtype(), dt);
            let (shape, want) = reference(&explicit, &shapes, &ds);
            close(&got, &shape, &want, 0.0, &format!("{eq} {dt}"));
        }
    }
}

/// NumPy's implicit output, for the reference.
fn explicit_numpy(eq: &str) -> String {
    let eq: String = eq.chars().filter(|&c| c != ' ').collect();
    if eq.contains("->") {
        return eq;
    }
    let mut counts = std::collections::BTreeMap::new();
    for c in eq.replace("...", "").chars().filter(|c| c.is_ascii_alphabetic()) {
        *counts.entry(c).or_insert(0) += 1;
    }
    let mut out = if eq.contains("...") { "...".to_string() } else { String::new() };
    out.extend(counts.into_iter().filter(|&(_, n)| n == 1).map(|(c, _)| c));
    format!("{eq}->{out}")
}

#[test]
fn numpy_specific_values() {
    let a = Tensor::from_vec(vec![1i64, 1], &[1, 2]).unwrap();
    let b = Tensor::from_vec(vec![1i64, 1, 1, 1], &[2, 2, 1]).unwrap();
    let r = np("ij...,j...->i...", &[&a, &b]);
    assert_eq!((r.shape(), r.to_vec::<i64>().unwrap()), (&[1usize, 2, 1][..], vec![2, 2]));
    let x = Tensor::from_vec(vec![1i64, 2, 3], &[3]).unwrap();
    let y = Tensor::from_vec(vec![2i64, 3, 4], &[3]).unwrap();
    assert_eq!(np("...i,...i", &[&x, &y]).item::<i64>().unwrap(), 20);
    let p = Tensor::from_vec(vec![1i64], &[1]).unwrap();
    let q = Tensor::from_vec(vec![2i64], &[1]).unwrap();
    let r = np("i,j", &[&p, &q]);
    assert_eq!((r.shape(), r.to_vec::<i64>().unwrap()), (&[1usize, 1][..], vec![2]));
    let z = arange(9, &[1, 1, 3, 1, 3]);
    assert_eq!(np("bbcdc->d", &[&z]).to_vec::<i64>().unwrap(), vec![12]);
    // x,yx,zx->xzy with aranges
    let x = arange(3, &[3]);
    let y = arange(6, &[2, 3]);
    let z = arange(12, &[4, 3]);
    let r = np("x,yx,zx->xzy", &[&x, &y, &z]);
    let (shape, want) = reference(
        "x,yx,zx->xzy",
        &[vec![3], vec![2, 3], vec![4, 3]],
        &[x.to_vec().unwrap(), y.to_vec().unwrap(), z.to_vec().unwrap()],
    );
    close(&r, &shape, &want, 0.0, "xzy");
    // i,i,i-> exact products
    let v = Tensor::from_vec(vec![0.5f64, 0.5, 0.25, 4.5, 3.0], &[5]).unwrap();
    assert_eq!(np("i,i,i->", &[&v, &v, &v]).item::<f64>().unwrap(), 0.125 + 0.125 + 0.015625 + 91.125 + 27.0);
    assert_eq!(
        np("i,i,i,i->", &[&v, &v, &v, &v]).item::<f64>().unwrap(),
        0.0625 + 0.0625 + 0.00390625 + 410.0625 + 81.0
    );
    // spaces anywhere
    for eq in [" ...a->...a", "... a -> ... a ", "...a ->...a"] {
        np(eq, &[&y]);
    }
}

#[test]
fn numpy_more_sums_and_ordering() {
    // 'ijklm,ijn,ijn->' vs 'ijklm,ijn->' on int64 (numpy's buffering test): with b ∈ {0, 1}, b·b = b
    let a = arange(2 * 3 * 4 * 5 * 6, &[2, 3, 4, 5, 6]);
    let b = Tensor::from_vec((0..2 * 3 * 7).map(|i| (i % 2) as i64).collect::<Vec<_>>(), &[2, 3, 7]).unwrap();
    let x = np("ijklm,ijn,ijn->", &[&a, &b, &b]).item::<i64>().unwrap();
    let y = np("ijklm,ijn->", &[&a, &b]).item::<i64>().unwrap();
    assert_eq!(x, y);
    let (_, want) =
        reference("ijklm,ijn->", &[vec![2, 3, 4, 5, 6], vec![2, 3, 7]], &[a.to_vec().unwrap(), b.to_vec().unwrap()]);
    assert_eq!(y as f64, want[0]);
    // implicit output over 27 labels: uppercase sorts before lowercase (ASCII)
    let eq = "abcdefghijklmnopqrstuvwxyzA";
    let t = Tensor::zeros(&[1; 27], DType::F32).unwrap();
    let p = numpy_einsum_path(eq, &[t.shape()], PathOptions::default()).unwrap();
    assert!(p.equation.ends_with("->Aabcdefghijklmnopqrstuvwxyz"), "{}", p.equation);
    assert_eq!(np(eq, &[&t]).shape(), &[1; 27]);
    assert_eq!(einsum(eq, &[&t]).unwrap().shape(), &[1; 27]);
}

#[test]
fn numpy_broadcasting() {
    let a = Tensor::from_vec(rand_vec(24, 1), &[2, 3, 4]).unwrap();
    let b = Tensor::from_vec(rand_vec(3, 2), &[3]).unwrap();
    let base = np("ijk,j->ijk", &[&a, &b]).to_vec::<f64>().unwrap();
    for eq in ["ij...,j...->ij...", "ij...,...j->ij...", "ij...,j->ij..."] {
        assert_eq!(np(eq, &[&a, &b]).to_vec::<f64>().unwrap(), base, "{eq}");
    }
    let a = Tensor::from_vec(rand_vec(12, 3), &[4, 3]).unwrap();
    let b = Tensor::from_vec(rand_vec(6, 4), &[3, 2]).unwrap();
    let mm = np("ik,kj->ij", &[&a, &b]).to_vec::<f64>().unwrap();
    for eq in ["ik...,k...->i...", "ik...,...kj->i...j", "...k,kj", "ik,k...->i..."] {
        let got = np(eq, &[&a, &b]).to_vec::<f64>().unwrap();
        for (g, w) in got.iter().zip(&mm) {
            assert!((g - w).abs() < 1e-12, "{eq}");
        }
    }
    let a = Tensor::from_vec(rand_vec(120, 5), &[2, 3, 4, 5]).unwrap();
    let k = Tensor::from_vec(rand_vec(4, 6), &[4]).unwrap();
    let want = np("ijkl,k->ijl", &[&a, &k]).to_vec::<f64>().unwrap();
    for eq in ["ijkl,k", "...kl,k", "...kl,k..."] {
        let got = np(eq, &[&a, &k]);
        for (g, w) in got.to_vec::<f64>().unwrap().iter().zip(&want) {
            assert!((g - w).abs() < 1e-12, "{eq}");
        }
    }
    // size-1 named labels broadcast (numpy only)
    let cases: &[(&str, &[&[usize]])] = &[
        ("ijk,kl,jl->ijk", &[&[1, 5, 4], &[4, 6], &[5, 6]]),
        ("abjk,kl,jl,ab->ab", &[&[1, 1, 5, 4], &[4, 6], &[5, 6], &[7, 7]]),
        ("ijp,ipq,ikq->ijk", &[&[3, 1, 1], &[3, 1, 3], &[1, 3, 3]]),
        ("cacc,bcb->", &[&[1, 1, 1, 1], &[1, 4, 1]]),
        ("ij,ij->ij", &[&[1, 3], &[2, 3]]),
        ("...lmn,lmno->...o", &[&[1, 1, 1, 2, 3, 4], &[2, 3, 4, 3]]),
        ("obk,ijk->ioj", &[&[2, 4, 8], &[2, 4, 8]]),
    ];
    for (eq, shapes) in cases {
        check(Front::NumPy, eq, shapes);
    }
    // TF refuses the size-1 broadcast of a named label
    let x = Tensor::from_vec(vec![1.0f32; 3], &[1, 3]).unwrap();
    let y = Tensor::from_vec(vec![1.0f32; 6], &[2, 3]).unwrap();
    let e = einsum("ij,ij->ij", &[&x, &y]).unwrap_err().to_string();
    assert!(e.contains("Expected dimension 1 at axis 0 of the input shaped [2,3] but got dimension 2"), "{e}");
}

#[test]
fn numpy_optimize_compare_cases() {
    let eqs = [
        "a,ab,abc->abc",
        "a,b,ab->ab",
        "ea,fb,gc,hd,abcd->efgh",
        "ab,ab,c->",
        "ab,ab,cd,cd->ac",
        "ab,cd,ef->abcdef",
        "ab,bcd,cd->abd",
        "eb,cb,fb->cef",
        "dd,fb,be,cdb->cef",
        "bca,cdb,dbf,afc->",
        "dcc,fce,ea,dbf->ab",
        "fdf,cdd,ccd,afe->ae",
        "abcd,ad",
        "baa,dcf,af,cde->be",
        "fff,fae,bef,def->abd",
        "ab,ba",
        "abc,cba",
        "aab,fa,df,ecc->bde",
        "bcf,bbb,fbf,fc->",
        "bb,ff,be->e",
        "acdf,jbje,gihb,hfac,gfac,gifabc,hfac",
    ];
    let sizes = |c: char| -> usize { 2 + (c as usize % 3) };
    for eq in eqs {
        let full = explicit_numpy(eq);
        let (lhs, _) = full.split_once("->").unwrap();
        let shapes: Vec<Vec<usize>> = lhs.split(',').map(|t| t.chars().map(sizes).collect()).collect();
        let refs: Vec<&[usize]> = shapes.iter().map(|s| s.as_slice()).collect();
        let (ts, ds) = tensors(&shapes, DType::F64, 11);
        let ops: Vec<&Tensor> = ts.iter().collect();
        let (shape, want) = reference(&full, &shapes, &ds);
        for strategy in [PathStrategy::Optimal, PathStrategy::Greedy, PathStrategy::Auto] {
            let got = einsum_with(eq, &ops, PathOptions { strategy, memory_limit: None }).unwrap();
            close(&got, &shape, &want, 1e-10, &format!("{eq} {strategy:?}"));
        }
        close(&np(eq, &ops), &shape, &want, 1e-10, eq);
        let p = einsum_path(Front::Tf, eq, &refs, PathOptions::default()).unwrap();
        assert!(p.flops <= p.naive_flops.max(1) * 2, "{eq}\n{p}");
    }
}

#[test]
fn mixed_dtypes_promote_and_accumulate() {
    let a = Tensor::from_vec(rand_vec(6, 9), &[2, 3]).unwrap().cast(DType::F32).unwrap();
    let b = Tensor::from_vec((0..2 * 3 * 5).map(|i| (i % 7) as i16).collect::<Vec<_>>(), &[2, 3, 5]).unwrap();
    let c = numpy_einsum("cl, cpx->lpx", &[&a, &b]).unwrap();
    assert_eq!(c.dtype(), DType::F32);
    let (shape, want) =
        reference("cl,cpx->lpx", &[vec![2, 3], vec![2, 3, 5]], &[a.to_vec().unwrap(), b.to_vec().unwrap()]);
    close(&c, &shape, &want, 1e-6, "mixed");
    // weak operands give a strong result
    let w = lattensor::constant([1.0, 2.0]).unwrap();
    let r = einsum("i,i->", &[&w, &w]).unwrap();
    assert!(!r.is_weak());
    assert_eq!(r.item::<f32>().unwrap(), 5.0);
    // f16 / bf16 accumulate in f32
    let ones = Tensor::from_vec(vec![1.0f32; 4096], &[4096]).unwrap().cast(DType::F16).unwrap();
    assert_eq!(einsum("i->", &[&ones]).unwrap().item::<f32>().unwrap(), 4096.0);
    let row = ones.reshape(&[1, 4096]).unwrap();
    let col = ones.reshape(&[4096, 1]).unwrap();
    assert_eq!(einsum("ij,jk->ik", &[&row, &col]).unwrap().item::<f32>().unwrap(), 4096.0);
    let bo = Tensor::from_vec(vec![1.0f32; 1000], &[1000]).unwrap().cast(DType::BF16).unwrap();
    let s = einsum("i->", &[&bo]).unwrap();
    assert_eq!((s.dtype(), s.item::<f32>().unwrap()), (DType::BF16, 1000.0));
    // integers wrap
    let big = Tensor::from_vec(vec![1i32 << 30, 1 << 30], &[2]).unwrap();
    assert_eq!(einsum("i->", &[&big]).unwrap().item::<i32>().unwrap(), i32::MIN);
    // complex: plain products
    let z = Tensor::from_vec(vec![num_complex::Complex64::new(1.0, 2.0)], &[1]).unwrap();
    assert_eq!(
        einsum("i,i->", &[&z, &z]).unwrap().item::<num_complex::Complex64>().unwrap(),
        num_complex::Complex64::new(-3.0, 4.0)
    );
    // bool: or of ands
    let t = Tensor::from_vec(vec![true, false, false, true], &[2, 1, 2]).unwrap();
    let u = Tensor::from_vec(vec![false, true, true, true], &[2, 2, 1]).unwrap();
    let r = numpy_einsum("...ij,...jk->...ik", &[&t, &u]).unwrap();
    assert_eq!((r.dtype(), r.to_vec::<bool>().unwrap()), (DType::Bool, vec![false, true]));
    // a Safe-mode refusal surfaces as a promotion error
    let i = Tensor::from_vec(vec![1i32, 2], &[2]).unwrap();
    let f = Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
    let e = lattensor::promote::with_mode(lattensor::PromotionMode::Safe, || einsum("i,i->", &[&i, &f])).unwrap_err();
    assert!(e.to_string().contains("einsum"), "{e}");
}

#[test]
fn large_matmul_uses_gemm_correctly() {
    let (m, k, n) = (67, 129, 45);
    for dt in [DType::F32, DType::F64, DType::C64, DType::C128, DType::I64, DType::F16] {
        let a = Tensor::from_vec(rand_vec(m * k, 1), &[m, k]).unwrap().cast(dt).unwrap();
        let b = Tensor::from_vec(rand_vec(k * n, 2), &[k, n]).unwrap().cast(dt).unwrap();
        let (shape, want) =
            reference("ij,jk->ik", &[vec![m, k], vec![k, n]], &[a.to_vec().unwrap(), b.to_vec().unwrap()]);
        let tol = match dt {
            DType::F16 => 1e-2,
            DType::F32 | DType::C64 => 1e-5,
            _ => 1e-12,
        };
        close(&einsum("ij,jk->ik", &[&a, &b]).unwrap(), &shape, &want, tol, &format!("{dt}"));
        // transposed (strided) operands
        let at = a.t().contiguous().unwrap().t();
        close(&einsum("ij,jk->ik", &[&at, &b]).unwrap(), &shape, &want, tol, &format!("{dt} T"));
        // reversed (negative-stride) views of both operands
        let rev = lattensor::SliceArg::stepped(None, None, -1);
        let ar = a.slice(&[rev, rev]).unwrap();
        let br = b.slice(&[rev, rev]).unwrap();
        let (shape, want) =
            reference("ij,jk->ik", &[vec![m, k], vec![k, n]], &[ar.to_vec().unwrap(), br.to_vec().unwrap()]);
        close(&einsum("ij,jk->ik", &[&ar, &br]).unwrap(), &shape, &want, tol, &format!("{dt} reversed"));
        // a batched contraction over strided views
        let a3 = a.slice(&[lattensor::SliceArg::stepped(None, None, 2)]).unwrap(); // [34, k]
        let (shape, want) = reference(
            "ij,jk,ik->ki",
            &[a3.shape().to_vec(), vec![k, n], vec![a3.shape()[0], n]],
            &[a3.to_vec().unwrap(), b.to_vec().unwrap(), vec![1.0; a3.shape()[0] * n]],
        );
        let ones = lattensor::ones(&[a3.shape()[0], n], dt).unwrap();
        close(&einsum("ij,jk,ik->ki", &[&a3, &b, &ones]).unwrap(), &shape, &want, tol, &format!("{dt} 3-op"));
    }
}

// ---- errors ------------------------------------------------------------------

fn err(front: Front, eq: &str, shapes: &[&[usize]]) -> String {
    let ts: Vec<Tensor> = shapes.iter().map(|s| Tensor::zeros(s, DType::F32).unwrap()).collect();
    let refs: Vec<&Tensor> = ts.iter().collect();
    let r = match front {
        Front::Raw => einsum_raw(eq, &refs),
        Front::Tf => einsum(eq, &refs),
        Front::NumPy => numpy_einsum(eq, &refs),
    };
    let e = r.expect_err(&format!("{front:?} {eq} {shapes:?} should fail"));
    // the raw op's kernel refuses everything with InvalidArgumentError; the Python-layer
    // front ends refuse equations and operand counts with ValueError (`error_classes_per_front_end`)
    let want: &[Category] = match front {
        Front::Raw => &[Category::InvalidArgument],
        _ => &[Category::InvalidArgument, Category::InvalidValue],
    };
    assert!(want.contains(&e.category()), "{front:?} {eq}: {e:?}");
    e.to_string()
}

/// `tf.einsum` and `tnp.einsum` check the equation and the operand count in TF's
/// Python layer (`ValueError`, measured in python/tests/data/tf_exceptions.json); the
/// raw op's kernel and every shape mismatch raise `InvalidArgumentError`.
#[test]
fn error_classes_per_front_end() {
    use Category::{InvalidArgument as Kernel, InvalidValue as PyLayer};
    let cases: &[(&str, &[&[usize]], Category, Category)] = &[
        // (equation, shapes, class for Tf and NumPy fronts, class for the raw op)
        ("ij,jk->ik", &[&[2, 3]], PyLayer, Kernel),       // too few operands
        ("ij->ij", &[&[2, 3], &[3, 4]], PyLayer, Kernel), // too many operands
        ("ij,jk,kl->il", &[&[2, 3], &[3, 4]], PyLayer, Kernel), // too few for three terms
        ("ij,jk->i->k", &[&[2, 3], &[3, 4]], PyLayer, Kernel), // two arrows
        ("..i.,i->", &[&[2, 3], &[3]], PyLayer, Kernel),  // broken ellipsis
        ("ij,jk->ik", &[&[2, 3], &[2, 3]], Kernel, Kernel), // label size mismatch
        ("ijk,jk->i", &[&[2, 3], &[3, 4]], Kernel, Kernel), // rank mismatch
        ("...ij,...jk->...ik", &[&[2, 2, 3], &[3, 3, 4]], Kernel, Kernel), // ellipsis dims mismatch
    ];
    for &(eq, shapes, front_class, raw_class) in cases {
        let ts: Vec<Tensor> = shapes.iter().map(|s| Tensor::zeros(s, DType::F32).unwrap()).collect();
        let refs: Vec<&Tensor> = ts.iter().collect();
        for front in [Front::Tf, Front::NumPy] {
            let e = einsum_front(front, eq, &refs, PathOptions::default()).expect_err(eq);
            assert_eq!(e.category(), front_class, "{front:?} {eq}: {e}");
            assert!(e.to_string().starts_with("einsum: "), "{e}");
        }
        if let Err(e) = einsum_raw(eq, &refs) {
            assert_eq!(e.category(), raw_class, "raw {eq}: {e}");
        }
    }
    // the raw op needs exactly one `->` and one or two inputs: its kernel's refusals
    let a = Tensor::zeros(&[2, 3], DType::F32).unwrap();
    let b = Tensor::zeros(&[3, 4], DType::F32).unwrap();
    for (eq, ops) in [("ij,jk", vec![&a, &b]), ("ij,ij,ij->ij", vec![&a, &a, &a]), ("ij,jk->ik", vec![&a])] {
        assert_eq!(einsum_raw(eq, &ops).unwrap_err().category(), Kernel, "raw {eq}");
    }
    // the same equations through the Python-layer front ends
    for eq in ["ij,jk->iz", "ij,jk->ii", "i$,jk->ik"] {
        assert_eq!(einsum(eq, &[&a, &b]).unwrap_err().category(), PyLayer, "{eq}");
        assert_eq!(numpy_einsum(eq, &[&a, &b]).unwrap_err().category(), PyLayer, "{eq}");
    }
}

#[test]
fn raw_errors() {
    let cases: &[(&str, &[&[usize]], &str)] = &[
        ("ij,jk", &[&[2, 2], &[2, 2]], "Expecting exactly one '->' in einsum equation: ij,jk"),
        ("ii", &[&[2, 2]], "Expecting exactly one '->'"),
        ("", &[&[]], "Expecting exactly one '->'"),
        ("i->i->i", &[&[2]], "Expecting exactly one '->'"),
        ("i,i,i->i", &[&[2], &[2], &[2]], "Expecting 1 or 2 input subscripts in equation 'i,i,i->i' but got: 3"),
        ("ij,jk->ik", &[&[2, 2]], "Expected 2 inputs but got: 1"),
        ("ij->ij", &[&[2, 2], &[2, 2]], "Expected 1 inputs but got: 2"),
        ("ij, jk -> ik", &[&[2, 2], &[2, 2]], "rank"),
        ("i.j->ij", &[&[2, 2]], "not part of an ellipsis"),
        ("i..j->ij", &[&[2, 2]], "not part of an ellipsis"),
        ("i....j->ij", &[&[2, 2]], "not part of an ellipsis"),
        ("i->......", &[&[2]], "more than one ellipsis"),
        ("...i...->i", &[&[2, 1, 3]], "more than one ellipsis"),
        ("ij->ik", &[&[2, 3]], "Einsum output subscripts for equation 'ij->ik' has label 'k' which is not present"),
        ("i->&", &[&[2]], "label '&'"),
        ("i->ij", &[&[2]], "label 'j'"),
        ("ff,ff->ffp", &[&[2, 2], &[2, 2]], "label 'p'"),
        ("j->..j", &[&[2]], "not part of an ellipsis"),
        ("ij,jk->ik", &[&[1, 2, 3], &[3, 4]], "Expected input 0 to have rank 2 but got: 3"),
        ("...ij,jk->ik", &[&[3], &[3, 4]], "Expected input 0 to have rank at least 2 but got: 1"),
        (
            "ij,jk->ik",
            &[&[2, 3], &[4, 4]],
            "Expected dimension 3 at axis 0 of the input shaped [4,4] but got dimension 4",
        ),
        ("ii->i", &[&[2, 3]], "Expected dimension 2 at axis 1 of the input shaped [2,3] but got dimension 3"),
        (
            "...ij,...jk->...ik",
            &[&[5, 2, 3], &[7, 3, 4]],
            "In[0] and In[1] must have compatible batch dimensions: [5,2,3] vs. [7,3,4]",
        ),
        (
            "...ij,...jk->ik",
            &[&[2, 2, 3], &[3, 4]],
            "Output contains 1 broadcasting dimension(s) but no ellipsis (...) was found in the output subscripts.",
        ),
        (
            "ij,ij->ij",
            &[&[1, 3], &[2, 3]],
            "Expected dimension 1 at axis 0 of the input shaped [2,3] but got dimension 2",
        ),
    ];
    for (eq, shapes, want) in cases {
        let m = err(Front::Raw, eq, shapes);
        assert!(m.contains(want), "{eq}: {m}");
        assert!(m.contains(eq), "{eq}: message does not name the equation: {m}");
    }
}

#[test]
fn tf_errors() {
    let cases: &[(&str, &[&[usize]], &str)] = &[
        ("...i0->i", &[&[2]], "Invalid character \"0\" in equation: ...i0->i"),
        ("i1,1k->ik", &[&[2, 2], &[2, 2]], "Subscripts have incorrect format: i1,1k->ik"),
        ("i_->i", &[&[2, 2]], "Subscripts have incorrect format"),
        ("i.j->ij", &[&[2, 2]], "Subscripts have incorrect format"),
        ("i\t->i", &[&[2]], "Subscripts have incorrect format"),
        ("i->->i", &[&[2]], "Subscripts have incorrect format"),
        ("i-i", &[&[2]], "Subscripts have incorrect format"),
        ("ié->i", &[&[2, 2]], "Subscripts have incorrect format"),
        ("ij,jk->ik", &[&[2, 2]], "Got 1 inputs for equation \"ij,jk->ik\", expecting 2"),
        ("->", &[], "Got 0 inputs"),
        ("ij->ii", &[&[2, 2]], "Output subscripts contain a label appearing more than once: ij->ii"),
        ("i->......", &[&[2]], "more than once"),
        ("ij->ik", &[&[2, 2]], "Output subscripts contain the label k not present in the input subscripts."),
        ("...ij,...jk", &[&[2, 2, 3], &[2, 3, 4]], "Output contains 1 broadcasting dimension(s) but no ellipsis"),
        ("i,i,i->i", &[&[3], &[1], &[3]], "Expected dimension 3"),
        ("ij,jk,kl->il", &[&[2, 3], &[3, 4], &[5, 6]], "Expected dimension"),
    ];
    for (eq, shapes, want) in cases {
        let m = err(Front::Tf, eq, shapes);
        assert!(m.contains(want), "{eq}: {m}");
    }
}

#[test]
fn numpy_errors() {
    let cases: &[(&str, &[&[usize]], &str)] = &[
        ("", &[], "at least one operand"),
        ("", &[&[], &[]], "more operands provided"),
        (",", &[&[]], "fewer operands provided"),
        ("i", &[&[]], "too many subscripts for operand 0"),
        ("ij", &[&[2]], "too many subscripts"),
        ("...i", &[&[]], "too many subscripts"),
        ("i...j", &[&[2]], "too many subscripts"),
        ("ij", &[&[2, 2, 2]], "more dimensions than subscripts"),
        ("i..", &[&[2]], "'.' that is not part of an ellipsis"),
        (".i...", &[&[2]], "'.' that is not part of an ellipsis"),
        ("j->..j", &[&[2]], "'.' that is not part of an ellipsis"),
        ("j->.j...", &[&[2]], "'.' that is not part of an ellipsis"),
        ("i%...", &[&[2]], "invalid subscript '%' in einstein sum subscripts string, subscripts must be letters"),
        ("...j$", &[&[2]], "invalid subscript '$'"),
        ("i->&", &[&[2]], "invalid subscript '&'"),
        (
            "i->ij",
            &[&[2]],
            "einstein sum subscripts string included output subscript 'j' which never appeared in an input",
        ),
        ("ij->jij", &[&[2, 2]], "einstein sum subscripts string includes output subscript 'j' multiple times"),
        ("ii", &[&[2, 3]], "dimensions in single operand for collapsing index 'i' don't match (2 != 3)"),
        ("ii->i", &[&[2, 3]], "collapsing index 'i'"),
        ("ii->i", &[&[1, 3]], "collapsing index 'i'"),
        ("aabcb,abc", &[&[3, 3, 4, 5, 6], &[3, 4, 5]], "'b'"),
        ("i-j", &[&[2]], "proper '->'"),
        ("i>j", &[&[2]], "proper '->'"),
        ("ij,jk->ik", &[&[2, 3], &[4, 4]], "operands could not be broadcast together"),
        ("...ij,...jk->ik", &[&[2, 2, 3], &[3, 4]], "output has more dimensions than subscripts given"),
        ("...ij,...jk->...ik", &[&[5, 2, 3], &[7, 3, 4]], "operands could not be broadcast together"),
    ];
    for (eq, shapes, want) in cases {
        let m = err(Front::NumPy, eq, shapes);
        assert!(m.contains(want), "{eq}: {m}");
    }
}

// ---- property tests -------------------------------------------------------------

const ALL_NUMERIC: [DType; 15] = DType::CORE;

fn case_strategy(max_ops: usize, repeat_out: bool) -> impl Strategy<Value = (String, Vec<Vec<usize>>, Vec<usize>)> {
    let labels = "abcd";
    (
        proptest::collection::vec(proptest::collection::vec(0usize..4, 0..4), 1..=max_ops),
        proptest::collection::vec(1usize..4, 4),
        proptest::collection::vec(0usize..4, 0..4),
        any::<u64>(),
    )
        .prop_map(move |(terms, sizes, out, seed)| {
            let used: Vec<usize> = {
                let mut u: Vec<usize> = terms.iter().flatten().copied().collect();
                u.sort_unstable();
                u.dedup();
                u
            };
            let mut o: Vec<usize> = out.into_iter().filter(|l| used.contains(l)).collect();
            if !repeat_out {
                let mut seen = vec![];
                o.retain(|l| {
                    if seen.contains(l) {
                        false
                    } else {
                        seen.push(*l);
                        true
                    }
                });
            }
            let term = |t: &[usize]| -> String { t.iter().map(|&i| labels.as_bytes()[i] as char).collect() };
            let ins: Vec<String> = terms.iter().map(|t| term(t)).collect();
            let eq = format!("{}->{}", ins.join(","), term(&o));
            let shapes = terms.iter().map(|t| t.iter().map(|&l| sizes[l]).collect()).collect();
            (eq, shapes, vec![seed as usize])
        })
}

fn run_prop(
    front: Front,
    eq: &str,
    shapes: &[Vec<usize>],
    seed: usize,
    dt: DType,
) -> std::result::Result<(), TestCaseError> {
    // values in {0, 1}: every result (≤ 3^4 terms) is exact in every dtype
    let ts: Vec<Tensor> = shapes
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let n: usize = s.iter().product();
            let v: Vec<f64> = (0..n).map(|i| ((i * 31 + k * 17 + seed) % 5 < 3) as u8 as f64).collect();
            Tensor::from_vec(v, s).unwrap().cast(dt).unwrap()
        })
        .collect();
    let ds: Vec<Vec<f64>> = ts.iter().map(|t| t.to_vec::<f64>().unwrap()).collect();
    let refs: Vec<&Tensor> = ts.iter().collect();
    let got = match front {
        Front::Raw => einsum_raw(eq, &refs),
        Front::Tf => einsum(eq, &refs),
        Front::NumPy => numpy_einsum(eq, &refs),
    };
    let got = got.map_err(|e| TestCaseError::fail(format!("{eq} {shapes:?} {dt}: {e}")))?;
    let (shape, mut want) = reference(eq, shapes, &ds);
    if dt == DType::Bool {
        want.iter_mut().for_each(|w| *w = (*w != 0.0) as u8 as f64);
    }
    prop_assert_eq!(got.dtype(), dt);
    prop_assert_eq!(got.shape(), &shape[..], "{} {:?}", eq, shapes);
    prop_assert_eq!(got.to_vec::<f64>().unwrap(), want, "{} {:?} {}", eq, shapes, dt);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn raw_matches_naive((eq, shapes, seed) in case_strategy(2, true), d in 0usize..15) {
        run_prop(Front::Raw, &eq, &shapes, seed[0], ALL_NUMERIC[d])?;
    }

    #[test]
    fn tf_matches_naive((eq, shapes, seed) in case_strategy(5, false), d in 0usize..15) {
        run_prop(Front::Tf, &eq, &shapes, seed[0], ALL_NUMERIC[d])?;
    }

    #[test]
    fn numpy_matches_naive((eq, shapes, seed) in case_strategy(5, false), d in 0usize..15) {
        run_prop(Front::NumPy, &eq, &shapes, seed[0], ALL_NUMERIC[d])?;
    }

    #[test]
    fn broadcasting_matches_naive(
        (eq, shapes, seed) in case_strategy(4, false),
        ell in proptest::collection::vec(1usize..4, 0..3),
        numpy in any::<bool>(),
        d in 0usize..15,
    ) {
        // give every term a leading `...` over a random suffix of `ell`, with random
        // 1s; for NumPy also squash some named labels of some operands to size 1
        let s0 = seed[0];
        let (lhs, rhs) = eq.split_once("->").unwrap();
        let terms: Vec<&str> = lhs.split(',').collect();
        let mut new_shapes = Vec::new();
        for (k, (t, shape)) in terms.iter().zip(&shapes).enumerate() {
            let take = (s0 / (k + 1)) % (ell.len() + 1);
            let mut sh: Vec<usize> = ell[ell.len() - take..]
                .iter()
                .enumerate()
                .map(|(q, &e)| if (s0 >> (k * 3 + q)) & 1 == 1 { 1 } else { e })
                .collect();
            for (c, &dim) in t.chars().zip(shape) {
                let squash = numpy && (s0 >> (c as usize % 7 + k * 5)).is_multiple_of(4);
                sh.push(if squash { 1 } else { dim });
            }
            new_shapes.push(sh);
        }
        let eq2 = format!(
            "{}->...{rhs}",
            terms.iter().map(|t| format!("...{t}")).collect::<Vec<_>>().join(",")
        );
        let front = if numpy { Front::NumPy } else { Front::Tf };
        run_prop(front, &eq2, &new_shapes, s0, ALL_NUMERIC[d])?;
    }

    #[test]
    fn parser_never_panics(s in "[a-dA-D.,>\\- _0%é\\t]{0,14}", n in 0usize..4) {
        let t = Tensor::zeros(&[2, 2], DType::F32).unwrap();
        let ops: Vec<&Tensor> = (0..n).map(|_| &t).collect();
        for front in [Front::Raw, Front::Tf, Front::NumPy] {
            let r = match front {
                Front::Raw => einsum_raw(&s, &ops),
                Front::Tf => einsum(&s, &ops),
                Front::NumPy => numpy_einsum(&s, &ops),
            };
            if let Err(e) = r {
                let ok = matches!(e, lattensor::Error::InvalidArgument(_))
                    || (front != Front::Raw && matches!(e, lattensor::Error::InvalidValue(_)));
                prop_assert!(ok, "{:?} {:?}", front, e);
            }
        }
    }

    #[test]
    fn parser_never_panics_on_any_bytes(s in ".{0,12}", n in 0usize..3) {
        let t = Tensor::zeros(&[2, 2], DType::F32).unwrap();
        let ops: Vec<&Tensor> = (0..n).map(|_| &t).collect();
        let _ = einsum_raw(&s, &ops);
        let _ = einsum(&s, &ops);
        let _ = numpy_einsum(&s, &ops);
        let _ = einsum_path(Front::NumPy, &s, &[&[2, 2]], PathOptions::default());
    }
}

// ---- planner vs opt_einsum ---------------------------------------------------------

#[test]
fn optimal_cost_matches_opt_einsum() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/einsum_paths.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 50);
    let (mut exact_opt, mut multi) = (0, 0);
    for c in cases {
        let eq = c["equation"].as_str().unwrap();
        let shapes: Vec<Vec<usize>> = c["shapes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_array().unwrap().iter().map(|d| d.as_u64().unwrap() as usize).collect())
            .collect();
        let refs: Vec<&[usize]> = shapes.iter().map(|s| s.as_slice()).collect();
        let reported = c["optimal_flops"].as_u64().unwrap() as u128;
        let p =
            numpy_einsum_path(eq, &refs, PathOptions { strategy: PathStrategy::Optimal, memory_limit: None }).unwrap();
        match (c["optimal_search_cost"].as_u64(), c["optimal_uncached_search_cost"].as_u64()) {
            (Some(opt), Some(exact)) => {
                // opt_einsum's `optimal` search with its pair cache keyed by context
                // (see scripts/golden/einsum_paths.py) — equal to a brute-force minimum
                // on every case. Upstream's context-free cache misses it on some cases.
                assert_eq!(p.cost, exact as u128, "{eq} {shapes:?}\n{p}");
                assert_eq!(c["exact_min_search_cost"].as_u64(), Some(exact));
                assert!(p.cost <= opt as u128, "{eq}");
                exact_opt += (p.cost == opt as u128) as usize;
                multi += 1;
            }
            _ => assert_eq!(p.flops, reported, "{eq}"),
        }
        assert!(p.flops <= reported * 2, "{eq} {shapes:?}\n{p}");
        let naive = c["naive_flops"].as_u64().unwrap() as u128;
        assert_eq!(p.naive_flops, naive, "{eq} naive");
        let g =
            numpy_einsum_path(eq, &refs, PathOptions { strategy: PathStrategy::Greedy, memory_limit: None }).unwrap();
        assert!(g.cost >= p.cost, "{eq}: greedy beat optimal");
    }
    println!("{exact_opt}/{multi} optimal costs equal opt_einsum's `optimal` exactly (the rest are lower)");
    assert!(exact_opt * 10 >= multi * 6, "{exact_opt}/{multi}");
}

#[test]
fn memory_limit_is_respected() {
    let shapes: &[&[usize]] = &[&[10, 10], &[10, 10], &[10, 10]];
    let p = numpy_einsum_path(
        "ab,cd,bc->ad",
        shapes,
        PathOptions { strategy: PathStrategy::Optimal, memory_limit: Some(100) },
    )
    .unwrap();
    // the outer product ab,cd (10^4 elements) is excluded
    assert!(p.steps.iter().take(p.steps.len() - 1).all(|s| s.size <= 100), "{p}");
    println!("{p}");
}

/// Products large enough for the AVX-512 GEMM (m·n·k ≥ 2¹⁹, sides not multiples
/// of its 12 × 32 tile), with transposed and batched operands, in f32 and f64,
/// against the naive loop nest. The last batch has over 2 MiB of output, which
/// the GEMM writes with streaming stores.
#[test]
fn large_products_match_the_loop_nest() {
    let cases: [(&str, &[&[usize]]); 6] = [
        ("ij,jk->ik", &[&[97, 131], &[131, 45]]),
        ("ij,kj->ik", &[&[61, 300], &[53, 300]]),
        ("ji,jk->ik", &[&[140, 75], &[140, 66]]),
        ("bij,bjk->bik", &[&[5, 60, 90], &[5, 90, 100]]),
        ("bhqd,bhkd->bhqk", &[&[2, 2, 90, 64], &[2, 2, 100, 64]]),
        ("bhqd,bhkd->bhqk", &[&[4, 4, 160, 16], &[4, 4, 208, 16]]),
    ];
    for (eq, shapes) in cases {
        let shapes: Vec<Vec<usize>> = shapes.iter().map(|s| s.to_vec()).collect();
        for (dtype, tol) in [(DType::F64, 1e-12), (DType::F32, 1e-5)] {
            let (ts, _) = tensors(&shapes, dtype, 11);
            // the reference sees the values the tensors hold (rounded to f32 for f32)
            let ds: Vec<Vec<f64>> = ts.iter().map(|t| t.to_vec::<f64>().unwrap()).collect();
            let refs: Vec<&Tensor> = ts.iter().collect();
            let (shape, want) = reference(eq, &shapes, &ds);
            let got = einsum(eq, &refs).unwrap();
            assert_eq!(got.dtype(), dtype);
            close(&got, &shape, &want, tol, &format!("{eq} {shapes:?} {dtype}"));
        }
    }
}
