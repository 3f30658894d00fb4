from mpmath import mp, digamma, ei, mpf, taylor, psi, gamma, log, fabs, findroot
mp.dps=60
def bis(f,a,b):
    fa=f(a)
    for _ in range(220):
        m=(a+b)/2; fm=f(m)
        if (fm<0)==(fa<0): a,fa=m,fm
        else: b=m
    return (a+b)/2
def emit(x0, coeffs):
    hi=float(x0); lo=float(x0-mpf(hi))
    return "(%r, %r, &[%s])" % (hi, lo, ", ".join(repr(float(c)) for c in coeffs))
r=bis(ei, mpf('0.3'), mpf('0.45'))
print("/// Root of Ei as (hi, lo) and Taylor coefficients c1, c2, … about it (generated with mpmath).")
print("const EI_ROOT: (f64, f64, &[f64]) = %s;" % emit(r, taylor(ei, r, 30)[1:]))
ps=[]
for n in range(0,6):
    m=bis(digamma, mpf(-n-1)+mpf('1e-40'), mpf(-n)-mpf('1e-40'))
    ps.append(emit(m,[psi(k,m)/mp.factorial(k) for k in range(1,31)]))
print("/// Negative roots of ψ as (hi, lo) and Taylor coefficients c1, c2, … (generated with mpmath).")
print("const PSI_NEG_ROOTS: [(f64, f64, &[f64]); %d] = [\n%s,\n];" % (len(ps), ",\n".join(ps)))
