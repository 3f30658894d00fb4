/* What bounds an f32 sum accumulated in f64 (lattensor's reduce_sum of f32)?
 *
 * Sums n f32 values, repeated, and prints the best time of each loop:
 *   avx2x8  - eight AVX2 vectors of four f64 partial sums (32 lanes): the shape
 *             of lattensor's fold_lanes loop (kernels/fast.rs)
 *   z4/z8/z16 - four, eight, sixteen AVX-512 vectors of eight f64 partial sums
 *   f32     - eight AVX-512 vectors of sixteen f32 partial sums (what an
 *             f32-accumulating library such as torch does; not exact)
 *
 * Build and run (Linux, x86-64 with AVX-512F):
 *   gcc -O3 -funroll-all-loops -o widening_sum widening_sum.c
 *   ./widening_sum 4096 20000 200      # 16 KiB, in L1
 *   ./widening_sum 65536 300 20        # 256 KiB, in L2
 *   ./widening_sum 4194304 40 1        # 16 MiB, in L3
 * (At -O2 gcc does not unroll the loop over the accumulators and keeps them in
 * memory: every loop then measures store forwarding, not the conversion.)
 *
 * On a Zen 4 core (2026-12-05), best of the runs above: every f64
 * loop read 55-59 GB/s from L1, L2 and L3 alike, whatever its width and number
 * of accumulators: vcvtps2pd converts about four f32 a cycle (one ymm a cycle,
 * one zmm in two), and that is the bound. The f32 loop read 189 GB/s from L1,
 * 118 from L2 and 73 from L3. */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define T512 __attribute__((target("avx512f"), noinline))
#define WIDE(NAME, K)                                                                      \
    T512 double NAME(const float *x, size_t n) {                                          \
        __m512d a[K];                                                                      \
        for (int j = 0; j < K; j++) a[j] = _mm512_setzero_pd();                            \
        for (size_t i = 0; i + 8 * K <= n; i += 8 * K)                                     \
            for (int j = 0; j < K; j++)                                                    \
                a[j] = _mm512_add_pd(a[j], _mm512_cvtps_pd(_mm256_loadu_ps(x + i + 8 * j))); \
        double s = 0;                                                                      \
        for (int j = 0; j < K; j++) s += _mm512_reduce_add_pd(a[j]);                       \
        return s;                                                                          \
    }
WIDE(z4, 4)
WIDE(z8, 8)
WIDE(z16, 16)

__attribute__((target("avx2"), noinline)) double avx2x8(const float *x, size_t n) {
    __m256d a[8];
    for (int j = 0; j < 8; j++) a[j] = _mm256_setzero_pd();
    for (size_t i = 0; i + 32 <= n; i += 32)
        for (int j = 0; j < 8; j++) a[j] = _mm256_add_pd(a[j], _mm256_cvtps_pd(_mm_loadu_ps(x + i + 4 * j)));
    double t[4], s = 0;
    for (int j = 0; j < 8; j++) {
        _mm256_storeu_pd(t, a[j]);
        s += t[0] + t[1] + t[2] + t[3];
    }
    return s;
}

T512 double f32(const float *x, size_t n) {
    __m512 a[8];
    for (int j = 0; j < 8; j++) a[j] = _mm512_setzero_ps();
    for (size_t i = 0; i + 128 <= n; i += 128)
        for (int j = 0; j < 8; j++) a[j] = _mm512_add_ps(a[j], _mm512_loadu_ps(x + i + 16 * j));
    double s = 0;
    for (int j = 0; j < 8; j++) s += _mm512_reduce_add_ps(a[j]);
    return s;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s N REPS INNER  (N a multiple of 128)\n", argv[0]);
        return 2;
    }
    size_t n = strtoul(argv[1], 0, 10) / 128 * 128;
    int reps = atoi(argv[2]), inner = atoi(argv[3]);
    float *x = aligned_alloc(64, (n * 4 + 63) / 64 * 64);
    for (size_t i = 0; i < n; i++) x[i] = (float)((i * 2654435761u) % 1000) / 1000.f;
    double (*loops[])(const float *, size_t) = {avx2x8, z4, z8, z16, f32};
    const char *names[] = {"avx2x8", "z4", "z8", "z16", "f32"};
    volatile double sink = 0;
    for (int round = 0; round < 2; round++)  /* the first round warms up */
        for (int k = 0; k < 5; k++) {
            double best = 1e9;
            for (int r = 0; r < reps; r++) {
                double t = now();
                for (int q = 0; q < inner; q++) sink += loops[k](x, n);
                t = (now() - t) / inner;
                if (t < best) best = t;
            }
            if (round) printf("%-7s n=%zu  best %9.2f us  %6.1f GB/s\n", names[k], n, best * 1e6, n * 4 / best / 1e9);
        }
    return 0;
}
