//! Algebraic laws of the promotion lattice and of the modes built on it.
//! The 28 nodes are few, so the laws are checked exhaustively; proptest
//! drives the n-ary, order-independence properties.
//!
//! With the low-precision leaves some pairs have no upper bound ([`join`] is
//! `None`); with `None` read as an added top element ("no implicit
//! promotion") the nodes form a lattice again, and the laws are checked on it.

use crate::common;

use common::{golden, kind};
use lattensor::promote::{COVERING_EDGES, join, result_type_in};
use lattensor::{DType, LatticeType, PromotionMode};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

const NODES: [LatticeType; 28] = LatticeType::ALL;

/// The join on nodes plus a top (`None`).
fn j(a: Option<LatticeType>, b: Option<LatticeType>) -> Option<LatticeType> {
    a.zip(b).and_then(|(a, b)| join(a, b))
}

#[test]
fn join_is_commutative_idempotent_and_associative() {
    let mut triples = 0;
    for &a in &NODES {
        assert_eq!(join(a, a), Some(a), "idempotent at {a}");
        for &b in &NODES {
            assert_eq!(join(a, b), join(b, a), "commutative at {a}, {b}");
            for &c in &NODES {
                let (a, b, c) = (Some(a), Some(b), Some(c));
                assert_eq!(j(j(a, b), c), j(a, j(b, c)), "associative at {a:?}, {b:?}, {c:?}");
                triples += 1;
            }
        }
    }
    assert_eq!(triples, 28 * 28 * 28);
}

#[test]
fn le_is_a_partial_order_consistent_with_join() {
    for &a in &NODES {
        assert!(a.le(a), "reflexive at {a}");
        for &b in &NODES {
            // a ≤ b iff join(a, b) = b
            assert_eq!(a.le(b), join(a, b) == Some(b), "le vs join at {a}, {b}");
            if a.le(b) && b.le(a) {
                assert_eq!(a, b, "antisymmetric at {a}, {b}");
            }
            for &c in &NODES {
                if a.le(b) && b.le(c) {
                    assert!(a.le(c), "transitive at {a} ≤ {b} ≤ {c}");
                }
            }
        }
    }
    // bool is the bottom; complex128 is the top of the 20 core nodes, and
    // each low-precision dtype is a leaf, below nothing but itself.
    let bottom = LatticeType::strong(DType::Bool);
    let top = LatticeType::strong(DType::C128);
    assert!(NODES.iter().all(|&x| bottom.le(x)));
    assert!(LatticeType::CORE.iter().all(|&x| x.le(top)));
    for &x in NODES.iter().filter(|x| x.dtype.is_low_precision()) {
        assert!(NODES.iter().all(|&y| !x.le(y) || x == y), "{x} is not a leaf");
    }
}

#[test]
fn every_join_is_the_least_upper_bound() {
    for &a in &NODES {
        for &b in &NODES {
            let Some(j) = join(a, b) else {
                assert!(!NODES.iter().any(|&u| a.le(u) && b.le(u)), "{a}, {b} have an upper bound but no join");
                continue;
            };
            assert!(a.le(j) && b.le(j), "{j} is not an upper bound of {a}, {b}");
            for &u in &NODES {
                if a.le(u) && b.le(u) {
                    assert!(j.le(u), "{j} = {a} ⊔ {b} is not below the upper bound {u}");
                }
            }
        }
    }
}

#[test]
fn every_tf_table_cell_is_the_least_upper_bound_of_its_kinds() {
    let table = golden("tf_promotion_all.json");
    let names: Vec<&str> = table["dtypes"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    let mut cells = 0;
    for a in &names {
        for b in &names {
            let cell = &table["table"][a][b];
            let r = LatticeType::weak_or_strong(
                DType::parse(cell["dtype"].as_str().unwrap()).unwrap(),
                cell["weak"].as_bool().unwrap(),
            );
            let (ka, kb) = (kind(a), kind(b));
            assert!(ka.le(r) && kb.le(r), "TF's {a} ⊔ {b} = {r} is not an upper bound");
            for &u in &NODES {
                if ka.le(u) && kb.le(u) {
                    assert!(r.le(u), "TF's {a} ⊔ {b} = {r} is not below the upper bound {u}");
                }
            }
            cells += 1;
        }
    }
    assert_eq!(cells, 576);
}

#[test]
fn covering_edges_are_covers() {
    assert_eq!(COVERING_EDGES.len(), 35);
    for (a, b) in COVERING_EDGES {
        assert!(a.le(b) && a != b, "{a} → {b} is not strictly increasing");
        // nothing strictly between a and b
        for &m in &NODES {
            assert!(!(a.le(m) && m.le(b) && m != a && m != b), "{m} lies between {a} and {b}");
        }
    }
}

#[test]
fn safe_allows_a_subset_of_all_with_the_same_results() {
    let mut allowed = 0;
    for &a in &NODES {
        for &b in &NODES {
            let Ok(all) = result_type_in(&[a, b], PromotionMode::All) else {
                // refused in ALL only without a join, and then in every mode
                assert_eq!(join(a, b), None, "{a}, {b}");
                for mode in [PromotionMode::Safe, PromotionMode::Strict] {
                    assert!(result_type_in(&[a, b], mode).is_err(), "{a}, {b} in {mode}");
                }
                continue;
            };
            assert_eq!(Some(all), join(a, b));
            let core = !a.dtype.is_low_precision() && !b.dtype.is_low_precision();
            if let Ok(safe) = result_type_in(&[a, b], PromotionMode::Safe) {
                assert_eq!(safe, all, "SAFE result differs from ALL at {a}, {b}");
                allowed += core as usize;
            }
            if let Ok(strict) = result_type_in(&[a, b], PromotionMode::Strict) {
                assert_eq!(strict, all, "Strict result differs from ALL at {a}, {b}");
                assert!(
                    result_type_in(&[a, b], PromotionMode::Safe).is_ok(),
                    "Strict allows {a}, {b} but SAFE refuses"
                );
            }
        }
    }
    // SAFE refuses 51 unordered pairs (TF 2.21's measured table) → 102 ordered lattice pairs
    // among the 20 nodes (the Python literal duplicates are not nodes).
    assert_eq!(allowed, 400 - 2 * 51, "SAFE refuses 51 unordered pairs of lattice nodes");
}

fn node() -> impl Strategy<Value = LatticeType> {
    (0usize..28).prop_map(|i| NODES[i])
}

proptest! {
    // Integration tests have no lib.rs for proptest's default persistence to find,
    // so name the regressions file (relative to the crate, where cargo runs tests).
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("tests/promotion_laws.proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn nary_results_do_not_depend_on_order(
        xs in proptest::collection::vec(node(), 3..=5),
        perm_seed in any::<u64>(),
        mode in prop_oneof![Just(PromotionMode::All), Just(PromotionMode::Safe),
                            Just(PromotionMode::Strict), Just(PromotionMode::NumPy)],
    ) {
        // a deterministic permutation from the seed (Fisher–Yates with an LCG)
        let mut ys = xs.clone();
        let mut s = perm_seed;
        for i in (1..ys.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ys.swap(i, (s >> 33) as usize % (i + 1));
        }
        let r1 = result_type_in(&xs, mode);
        let r2 = result_type_in(&ys, mode);
        prop_assert_eq!(r1.is_ok(), r2.is_ok(), "{:?} vs {:?} in {}", xs, ys, mode);
        if let (Ok(a), Ok(b)) = (r1, r2) {
            prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn nary_results_never_widen_past_the_join(xs in proptest::collection::vec(node(), 1..=5)) {
        let Some(j) = xs.iter().skip(1).try_fold(xs[0], |acc, &x| join(acc, x)) else {
            for mode in [PromotionMode::All, PromotionMode::Safe, PromotionMode::Strict] {
                prop_assert!(result_type_in(&xs, mode).is_err());
            }
            return Ok(());
        };
        for mode in [PromotionMode::All, PromotionMode::Safe, PromotionMode::Strict] {
            if let Ok(r) = result_type_in(&xs, mode) {
                prop_assert!(r.le(j) && j.le(r), "{:?} in {}: {} vs join {}", xs, mode, r, j);
                for x in &xs {
                    prop_assert!(x.le(r), "{} not below the result {}", x, r);
                }
            }
        }
        prop_assert_eq!(result_type_in(&xs, PromotionMode::All).unwrap(), j);
    }

    #[test]
    fn nary_safe_is_subset_of_all(xs in proptest::collection::vec(node(), 1..=5)) {
        if let Ok(r) = result_type_in(&xs, PromotionMode::Safe) {
            prop_assert_eq!(Ok(r), result_type_in(&xs, PromotionMode::All).map_err(|e| e.to_string()));
            // SAFE's rule: the result is some operand's dtype, and every strong
            // operand converts to it without loss.
            prop_assert!(xs.iter().any(|x| x.dtype == r.dtype));
            for x in xs.iter().filter(|x| !x.weak) {
                prop_assert!(lattensor::promote::converts_losslessly(x.dtype, r.dtype), "{} → {}", x, r);
            }
        }
    }
}
