from mpmath import mp, findroot, digamma, zeta, mpf
mp.dps=60
x0=findroot(digamma, 1.46)
hi=float(x0); lo=float(x0-mpf(hi))
print("const X0_HI: f64 = %r;\nconst X0_LO: f64 = %r;" % (hi,lo))
c=[]
for k in range(1,46):
    c.append(float((-1)**(k+1)*zeta(k+1,x0)))
print("const PSI_ROOT_TAYLOR: [f64; %d] = [%s];" % (len(c), ", ".join(repr(v) for v in c)))
