//! Philox-4x32-10 (Salmon et al., SC 2011) as TensorFlow keys it for its
//! stateless random ops, so that `stateless_uniform`, `stateless_normal` and
//! `stateless_random_brightness` reproduce TF's values bit for bit.
//!
//! Written here rather than taken from a crate: the generator is ten rounds
//! of two multiplications, and what has to match TF is not the generator but
//! how TF derives key and counter from a seed and turns words into floats,
//! which no crate reproduces.

/// Round multipliers and key increments (the constants of the paper).
const M0: u32 = 0xD251_1F53;
const M1: u32 = 0xCD9E_8D57;
const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;

/// One block of Philox-4x32-10: 128 random bits for `counter` under `key`.
pub(crate) fn block(mut counter: [u32; 4], mut key: [u32; 2]) -> [u32; 4] {
    for round in 0..10 {
        if round > 0 {
            key = [key[0].wrapping_add(W0), key[1].wrapping_add(W1)];
        }
        let p0 = u64::from(M0) * u64::from(counter[0]);
        let p1 = u64::from(M1) * u64::from(counter[2]);
        counter =
            [(p1 >> 32) as u32 ^ counter[1] ^ key[0], p1 as u32, (p0 >> 32) as u32 ^ counter[3] ^ key[1], p0 as u32];
    }
    counter
}

/// Blocks computed side by side in [`lanes`].
pub(crate) const LANES: usize = 16;

/// [`block`] for `LANES` counters at once, word `j` of counter `i` in
/// `counters[j][i]`: the same rounds on arrays of lanes, which the compiler
/// turns into SIMD multiplies (16 lanes fill an AVX-512 register pair of 64-bit
/// products). A 32 MiB float32 draw took 20 ms one block at a time and 6.6 ms
/// this way on AVX-512 (8.1 ms on AVX2, 11 ms on SSE2).
#[inline(always)]
pub(crate) fn lanes(mut counters: [[u32; LANES]; 4], mut key: [u32; 2]) -> [[u32; LANES]; 4] {
    for round in 0..10 {
        if round > 0 {
            key = [key[0].wrapping_add(W0), key[1].wrapping_add(W1)];
        }
        let c = counters;
        for i in 0..LANES {
            let p0 = u64::from(M0) * u64::from(c[0][i]);
            let p1 = u64::from(M1) * u64::from(c[2][i]);
            counters[0][i] = (p1 >> 32) as u32 ^ c[1][i] ^ key[0];
            counters[1][i] = p1 as u32;
            counters[2][i] = (p0 >> 32) as u32 ^ c[3][i] ^ key[1];
            counters[3][i] = p0 as u32;
        }
    }
    counters
}

/// The key and starting counter TF's `StatelessRandomGetKeyCounter` derives
/// from a two-element seed: the seed words, as a counter, are scrambled by one
/// Philox block under a fixed key; its first half becomes the key, its second
/// half the high words of the counter. int32 seeds are sign-extended first,
/// so `[i32; 2]` and `[i64; 2]` seeds of equal value agree.
pub(crate) fn key_counter(seed: [i64; 2]) -> ([u32; 2], [u32; 4]) {
    let (s0, s1) = (seed[0] as u64, seed[1] as u64);
    let mix = block([s0 as u32, (s0 >> 32) as u32, s1 as u32, (s1 >> 32) as u32], [0x3EC8_F720, 0x0246_1E29]);
    ([mix[0], mix[1]], [0, 0, mix[2], mix[3]])
}

/// A Philox stream: the blocks of successive counters under one key, as TF's
/// `PhiloxRandom` hands them out (the 128-bit counter steps by one per block).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stream {
    key: [u32; 2],
    counter: u128,
}

impl Stream {
    /// The stream TF's stateless ops draw from for `seed`.
    pub(crate) fn from_seed(seed: [i64; 2]) -> Self {
        let (key, c) = key_counter(seed);
        let counter = c.iter().rev().fold(0u128, |acc, &w| (acc << 32) | u128::from(w));
        Stream { key, counter }
    }

    /// The stream `blocks` blocks further on (TF's `Skip`).
    pub(crate) fn skipped(self, blocks: u64) -> Self {
        Stream { counter: self.counter.wrapping_add(u128::from(blocks)), ..self }
    }

    /// The next [`LANES`] blocks, block `i`'s word `j` in `[j][i]`: what
    /// `LANES` calls of [`Stream::next_block`] give, computed by [`lanes`].
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // lane i of four word arrays at once
    pub(crate) fn next_lanes(&mut self) -> [[u32; LANES]; 4] {
        let c = self.counter;
        self.counter = c.wrapping_add(LANES as u128);
        let mut counters = [[0; LANES]; 4];
        let lo = c as u32;
        if lo <= u32::MAX - (LANES as u32 - 1) {
            // no carry out of the low word: the other words are the same in every lane
            for i in 0..LANES {
                counters[0][i] = lo + i as u32;
                counters[1][i] = (c >> 32) as u32;
                counters[2][i] = (c >> 64) as u32;
                counters[3][i] = (c >> 96) as u32;
            }
        } else {
            for i in 0..LANES {
                let ci = c.wrapping_add(i as u128);
                counters[0][i] = ci as u32;
                counters[1][i] = (ci >> 32) as u32;
                counters[2][i] = (ci >> 64) as u32;
                counters[3][i] = (ci >> 96) as u32;
            }
        }
        lanes(counters, self.key)
    }

    /// The next block of four words.
    pub(crate) fn next_block(&mut self) -> [u32; 4] {
        let c = self.counter;
        self.counter = c.wrapping_add(1);
        block([c as u32, (c >> 32) as u32, (c >> 64) as u32, (c >> 96) as u32], self.key)
    }
}

/// The words of a stream one at a time (TF's `SingleSampleAdapter`), for
/// distributions that use a varying number of them per value.
pub(crate) struct Words {
    stream: Stream,
    block: [u32; 4],
    used: usize,
}

impl Words {
    pub(crate) fn new(stream: Stream) -> Self {
        Words { stream, block: [0; 4], used: 4 }
    }

    pub(crate) fn next(&mut self) -> u32 {
        if self.used == 4 {
            self.block = self.stream.next_block();
            self.used = 0;
        }
        self.used += 1;
        self.block[self.used - 1]
    }
}

/// A float in `[0, 1)` from the low 23 bits of a word, as TF's `Uint32ToFloat`:
/// those bits become the mantissa of a number in `[1, 2)`, then 1 is subtracted.
pub(crate) fn word_to_f32(x: u32) -> f32 {
    f32::from_bits((127 << 23) | (x & 0x7F_FFFF)) - 1.0
}

/// A double in `[0, 1)` from 52 bits of two words, as TF's `Uint64ToDouble`:
/// the low 20 bits of `hi` and all of `lo` become the mantissa of a number in
/// `[1, 2)`, then 1 is subtracted.
pub(crate) fn words_to_f64(hi: u32, lo: u32) -> f64 {
    f64::from_bits((1023 << 52) | (u64::from(hi & 0xF_FFFF) << 32) | u64::from(lo)) - 1.0
}

/// A half in `[0, 1)` from the low 10 bits of a word (TF's `Uint16ToHalf`:
/// those bits as the mantissa of a half in `[1, 2)`, minus 1).
pub(crate) fn word_to_f16(x: u32) -> half::f16 {
    half::f16::from_bits(unit_bits(x & 0x3FF, 10, 15))
}

/// A bfloat16 in `[0, 1)` from the low 7 bits of a word (TF's `Uint16ToGfloat16`).
pub(crate) fn word_to_bf16(x: u32) -> half::bf16 {
    half::bf16::from_bits(unit_bits(x & 0x7F, 7, 127))
}

/// The bits of `m / 2^mant` in a 16-bit float with `mant` mantissa bits and
/// exponent bias `bias`, for `m < 2^mant`: what `(1 + m / 2^mant) - 1` gives,
/// which is exact. Its leading one at bit `e` becomes the implicit bit of
/// exponent `e - mant`, the bits below it the mantissa. In integer operations
/// rather than half's subtraction (which widens both halves to float32 and
/// rounds back): a 32 MiB float16 draw took 90 ms with the subtraction.
#[inline(always)]
fn unit_bits(m: u32, mant: u32, bias: u32) -> u16 {
    if m == 0 {
        return 0;
    }
    let e = 31 - m.leading_zeros();
    (((e + bias - mant) << mant) | ((m << (mant - e)) & ((1 << mant) - 1))) as u16
}

/// The first float32 of `tf.random.stateless_uniform(shape, seed)` (auto-selected
/// algorithm on CPU, which is Philox), in `[0, 1)`.
pub(crate) fn stateless_uniform_f32(seed: [i64; 2]) -> f32 {
    word_to_f32(Stream::from_seed(seed).next_block()[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_answer_vectors() {
        // Random123's published known-answer tests for philox4x32-10.
        assert_eq!(block([0; 4], [0; 2]), [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]);
        assert_eq!(block([u32::MAX; 4], [u32::MAX; 2]), [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]);
        assert_eq!(
            block([0x243f_6a88, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344], [0xa409_3822, 0x299f_31d0]),
            [0xd16c_fe09, 0x94fd_cceb, 0x5001_e420, 0x2412_6ea1]
        );
    }

    #[test]
    fn floats_cover_the_unit_interval() {
        assert_eq!(word_to_f32(0), 0.0);
        assert_eq!(word_to_f32(u32::MAX), 1.0 - f32::EPSILON);
        assert_eq!(word_to_f32(0x40_0000), 0.5);
        assert_eq!(words_to_f64(0, 0), 0.0);
        assert_eq!(words_to_f64(u32::MAX, u32::MAX), 1.0 - f64::EPSILON);
        assert_eq!(words_to_f64(0x8_0000, 0), 0.5);
        assert_eq!(word_to_f16(u32::MAX).to_f32(), 1.0 - 2f32.powi(-10));
        assert_eq!(word_to_bf16(0x40).to_f32(), 0.5);
    }

    #[test]
    fn half_units_are_the_differences_tf_takes() {
        // every mantissa value, against TF's formula: a number in [1, 2) minus 1,
        // each rounded to the 16-bit type (exact here)
        for m in 0..1024u32 {
            let one_plus = half::f16::from_bits((15 << 10) | m as u16);
            let want = half::f16::from_f32(one_plus.to_f32() - 1.0);
            assert_eq!(word_to_f16(m | 0xABCD_0000).to_bits(), want.to_bits(), "m = {m}");
        }
        for m in 0..128u32 {
            let one_plus = half::bf16::from_bits((127 << 7) | m as u16);
            let want = half::bf16::from_f32(one_plus.to_f32() - 1.0);
            assert_eq!(word_to_bf16(m | 0x1234_5600).to_bits(), want.to_bits(), "m = {m}");
        }
    }

    #[test]
    fn the_stream_carries_across_counter_words() {
        let mut s = Stream { key: [1, 2], counter: u128::from(u32::MAX) };
        assert_eq!(s.next_block(), block([u32::MAX, 0, 0, 0], [1, 2]));
        assert_eq!(s.next_block(), block([0, 1, 0, 0], [1, 2]));
        let far = Stream { key: [1, 2], counter: u128::MAX }.skipped(1);
        assert_eq!(far.counter, 0);
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // lane i of four word arrays at once
    fn lanes_give_the_blocks_of_the_scalar_path() {
        // counters where the low word, the low 64 bits and all 128 bits wrap
        // inside a batch, and plain ones at odd offsets
        let starts = [
            0u128,
            7,
            u128::from(u32::MAX) - 5,
            u128::from(u32::MAX) - (LANES as u128 - 1),
            u128::from(u32::MAX) - (LANES as u128 - 2),
            u128::from(u64::MAX) - 3,
            u128::MAX - 9,
            0x0123_4567_89ab_cdef_0011_2233_ffff_fff3,
        ];
        for (k, &start) in starts.iter().enumerate() {
            let key = [0x9e37_79b9u32.wrapping_mul(k as u32 + 1), 0x7f4a_7c15 ^ k as u32];
            let mut vector = Stream { key, counter: start };
            let mut scalar = vector;
            for _ in 0..3 {
                let w = vector.next_lanes();
                for i in 0..LANES {
                    assert_eq!([w[0][i], w[1][i], w[2][i], w[3][i]], scalar.next_block(), "start {start:#x}, lane {i}");
                }
            }
            assert_eq!(vector.counter, scalar.counter);
        }
    }
}
