"""Taylor coefficients of 1/Γ(1+z) about z = 0 as (hi, lo) double pairs, for
`ops/special/gamma.rs` (lgamma for negative x). Run with mpmath:
    python scripts/golden/recip_gamma_taylor.py
Terms are kept while |r_k|·0.5^k > 1e-36 (|z| ≤ 0.5 in use)."""
from mpmath import mp, mpf, taylor, rgamma

mp.dps = 80
coeffs = taylor(lambda z: rgamma(1 + z), 0, 60)
rows = []
for k, c in enumerate(coeffs):
    if k > 10 and abs(c) * mpf(0.5) ** k < mpf("1e-36"):
        break
    hi = float(c)
    lo = float(c - mpf(hi))
    rows.append("    (%r, %r)," % (hi, lo))
print("/// Taylor coefficients of 1/Γ(1+z) about 0 as (hi, lo), lowest first (generated with mpmath:")
print("/// `scripts/golden/recip_gamma_taylor.py`).")
print("const RECIP_GAMMA_TAYLOR: [(f64, f64); %d] = [" % len(rows))
print("\n".join(rows))
print("];")
