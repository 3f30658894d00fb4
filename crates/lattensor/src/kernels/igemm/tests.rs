use super::*;

/// A deterministic byte stream (xorshift), so failures reproduce.
fn bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

const KINDS: [ByteKind; 4] = [ByteKind::I8, ByteKind::U8, ByteKind::I4, ByteKind::U4];

/// `[bt, m, k] × [bt, k, n]` by the definition in i64.
fn exact(a: Bytes<'_>, b: Bytes<'_>) -> Vec<i64> {
    let ([bt, m, k], n) = (a.m.dims(), b.m.dims()[2]);
    let mut out = Vec::with_capacity(bt * m * n);
    for i in 0..bt {
        for r in 0..m {
            for c in 0..n {
                out.push((0..k).map(|p| a.at(i, r, p) as i64 * b.at(i, p, c) as i64).sum());
            }
        }
    }
    out
}

/// Both paths of [`product_i32`] on one pair of operands.
fn both_paths(a: Bytes<'_>, b: Bytes<'_>) -> Vec<(&'static str, Vec<i32>)> {
    let len = a.m.dims()[0] * a.m.dims()[1] * b.m.dims()[2];
    let mut runs = Vec::new();
    let mut out = vec![7i32; len];
    portable(a, b, &mut out, "test").unwrap();
    runs.push(("portable", out));
    #[cfg(target_arch = "x86_64")]
    if vnni::available() {
        let mut out = vec![7i32; len];
        vnni::product(a, b, &mut out, "test").unwrap();
        runs.push(("vnni", out));
    }
    runs
}

fn view(data: &[u8], kind: ByteKind, offset: usize, dims: [usize; 3], strides: [isize; 3]) -> Bytes<'_> {
    Bytes { m: Strided::new(data, offset, dims, strides).unwrap(), kind }
}

#[test]
fn every_kind_pair_matches_the_exact_product_on_both_paths() {
    // sizes below and above a tile (12 × 32), a group (4) and a depth block (1024)
    for (bt, m, k, n) in
        [(1, 1, 1, 1), (2, 3, 5, 7), (1, 13, 9, 33), (3, 12, 16, 32), (1, 25, 1030, 40), (1, 130, 70, 65)]
    {
        for (x, &ka) in KINDS.iter().enumerate() {
            for (y, &kb) in KINDS.iter().enumerate() {
                let ad = bytes(bt * m * k + 3, 1 + x as u64 + 10 * k as u64);
                let bd = bytes(bt * k * n + 3, 5 + y as u64 + 10 * n as u64);
                let a = view(&ad, ka, 3, [bt, m, k], [(m * k) as isize, k as isize, 1]);
                let b = view(&bd, kb, 0, [bt, k, n], [(k * n) as isize, n as isize, 1]);
                let want: Vec<i32> = exact(a, b).iter().map(|&v| v as i32).collect();
                for (path, got) in both_paths(a, b) {
                    assert_eq!(got, want, "{path}: {ka:?} × {kb:?}, {bt}x{m}x{k}x{n}");
                }
            }
        }
    }
}

#[test]
fn threaded_and_batch_parallel_products() {
    // one product large enough to run in bands of rows (≥ 2²² multiply-adds), and a
    // batch of products run one per task
    for (bt, m, k, n, ka) in
        [(1, 100, 1000, 64, ByteKind::U8), (1, 100, 1000, 64, ByteKind::I8), (4, 64, 256, 64, ByteKind::I8)]
    {
        let ad = bytes(bt * m * k, 21);
        let bd = bytes(bt * k * n, 22);
        let a = view(&ad, ka, 0, [bt, m, k], [(m * k) as isize, k as isize, 1]);
        let b = view(&bd, ByteKind::I8, 0, [bt, k, n], [(k * n) as isize, n as isize, 1]);
        let want: Vec<i32> = exact(a, b).iter().map(|&v| v as i32).collect();
        for (path, got) in both_paths(a, b) {
            assert_eq!(got, want, "{path}: {bt}x{m}x{k}x{n}");
        }
    }
}

#[test]
fn transposed_strided_and_broadcast_operands() {
    let (bt, m, k, n) = (2, 17, 40, 35);
    let ad = bytes(2 * bt * m * k, 3);
    let bd = bytes(2 * bt * k * n, 4);
    let a_t = view(&ad, ByteKind::I8, 0, [bt, m, k], [(m * k) as isize, 1, m as isize]);
    let a_step = view(&ad, ByteKind::U8, 1, [bt, m, k], [(2 * m * k) as isize, 2 * k as isize, 2]);
    let b_t = view(&bd, ByteKind::I8, 0, [bt, k, n], [(k * n) as isize, 1, k as isize]);
    let b_bcast = view(&bd, ByteKind::I8, 0, [bt, k, n], [0, n as isize, 1]);
    let b_rev = view(&bd, ByteKind::U8, (k - 1) * n, [bt, k, n], [(k * n) as isize, -(n as isize), 1]);
    for a in [a_t, a_step] {
        for b in [b_t, b_bcast, b_rev] {
            let want: Vec<i32> = exact(a, b).iter().map(|&v| v as i32).collect();
            for (path, got) in both_paths(a, b) {
                assert_eq!(got, want, "{path}: A {:?} B {:?}", a.m.strides(), b.m.strides());
            }
        }
    }
}

#[test]
fn extreme_int8_sums_are_exact_up_to_depth_two_to_the_seventeen() {
    // (−128)·(−128) at depth 2¹⁷ − 1 and 127·127 at 2¹⁷: the largest sums that fit
    // i32; (−128)·127 at 2¹⁷: the most negative one
    let k = 1usize << 17;
    for (x, y, depth) in [(-128i8, -128i8, k - 1), (127, 127, k), (-128, 127, k), (127, -128, k)] {
        let ad = vec![x as u8; 2 * depth];
        let bd = vec![y as u8; depth * 3];
        let a = view(&ad, ByteKind::I8, 0, [1, 2, depth], [0, depth as isize, 1]);
        let b = view(&bd, ByteKind::I8, 0, [1, depth, 3], [0, 3, 1]);
        let want = x as i64 * y as i64 * depth as i64;
        assert!(i32::try_from(want).is_ok());
        for (path, got) in both_paths(a, b) {
            assert!(got.iter().all(|&v| v as i64 == want), "{path}: {x}·{y}·{depth} gave {got:?}");
        }
    }
    // one step past: (−128)²·2¹⁷ = 2³¹ wraps in i32, as int32 accumulation does,
    // and is exact in the i64 product
    let ad = vec![0x80u8; k];
    let a = view(&ad, ByteKind::I8, 0, [1, 1, k], [0, k as isize, 1]);
    let b = view(&ad, ByteKind::I8, 0, [1, k, 1], [0, 1, 1]);
    for (path, got) in both_paths(a, b) {
        assert_eq!(got, vec![i32::MIN], "{path}");
    }
    let mut wide = vec![0i64; 1];
    product_i64(a, b, &mut wide, "test").unwrap();
    assert_eq!(wide, vec![1i64 << 31]);
}

#[test]
fn i64_products_are_exact_past_i32_range() {
    // uint8 255·255 at depth 40000: 2.6e9, past i32; and random int8 at depth 3·2¹⁷
    let k = 40_000usize;
    let ad = vec![255u8; 2 * k];
    let a = view(&ad, ByteKind::U8, 0, [1, 2, k], [0, k as isize, 1]);
    let b = view(&ad, ByteKind::U8, 0, [1, k, 1], [0, 1, 1]);
    let mut out = vec![0i64; 2];
    product_i64(a, b, &mut out, "test").unwrap();
    assert_eq!(out, vec![255 * 255 * k as i64; 2]);
    let k = 3 << 17;
    let ad = bytes(2 * k, 9);
    let bd = bytes(2 * k, 10);
    let a = view(&ad, ByteKind::I8, 0, [1, 2, k], [0, k as isize, 1]);
    let b = view(&bd, ByteKind::I8, 0, [1, k, 2], [0, 2, 1]);
    let mut out = vec![0i64; 4];
    product_i64(a, b, &mut out, "test").unwrap();
    assert_eq!(out, exact(a, b));
}

#[test]
fn int4_bytes_ignore_their_high_bits() {
    // int4 −1 may be stored as 0x0f or 0xff; uint4 3 as 0x03 or 0xf3
    assert_eq!((ByteKind::I4.value(0x0f), ByteKind::I4.value(0xff), ByteKind::I4.value(0xf7)), (-1, -1, 7));
    assert_eq!((ByteKind::U4.value(0xf3), ByteKind::I8.value(0x80), ByteKind::U8.value(0x80)), (3, -128, 128));
    let ad = [0xffu8, 0x0f, 0x17, 0xf8];
    let a = view(&ad, ByteKind::I4, 0, [1, 1, 4], [0, 4, 1]);
    let b = view(&ad, ByteKind::U4, 0, [1, 4, 1], [0, 1, 1]);
    // (−1)(15) + (−1)(15) + 7·7 + (−8)(8)
    let want = -15 - 15 + 49 - 64;
    for (path, got) in both_paths(a, b) {
        assert_eq!(got, vec![want], "{path}");
    }
}
