from mpmath import mp, mpf, besselj, bessely, besseljzero, besselyzero, factorial
mp.dps=40
def emit(x0, coeffs):
    hi=float(x0); lo=float(x0-mpf(hi))
    return "(%r, %r, &[%s])" % (hi, lo, ", ".join(repr(float(c)) for c in coeffs))
for name,n,f,zf in [("J0",0,besselj,lambda k:besseljzero(0,k)),("J1",1,besselj,lambda k:besseljzero(1,k)),
                  ("Y0",0,bessely,lambda k:besselyzero(0,k)),("Y1",1,bessely,lambda k:besselyzero(1,k))]:
    out=[]
    k=1
    while True:
        z=zf(k)
        if z>100: break
        out.append(emit(z, [f(n, z, derivative=j)/factorial(j) for j in range(1,22)]))
        k+=1
    print("/// Zeros of %s below 100 as (hi, lo) and Taylor coefficients c1, c2, … (generated with mpmath)." % name)
    print("const %s_ZEROS: [(f64, f64, &[f64]); %d] = [\n%s,\n];" % (name, len(out), ",\n".join(out)))
