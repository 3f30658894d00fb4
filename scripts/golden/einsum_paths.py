"""Golden data for the einsum planner: opt_einsum's `optimal` FLOP counts.

Generates random einsum equations (2-7 operands, letters a-j, repeated labels
allowed, random explicit outputs) with random sizes, and records
opt_einsum.contract_path(..., optimize='optimal').opt_cost and naive_cost.
Run: /work/venv/oracle/bin/python scripts/golden/einsum_paths.py
Writes crates/lattensor/tests/data/einsum_paths.json.
"""
import json
import random
import opt_einsum

random.seed(20261130)
LABELS = "abcdefghij"
cases = []
fixed = [
    ("ij,jk,kl->il", [(2, 100), (100, 2), (2, 100)]),
    ("ea,fb,gc,hd,abcd->efgh", [(3, 2), (4, 3), (2, 4), (3, 5), (2, 3, 4, 5)]),
    ("ab,cd,bc->ad", [(10, 10), (10, 10), (10, 10)]),
    ("ab,bc->ac", [(3, 4), (4, 5)]),
    ("abc->a", [(3, 4, 5)]),
]
for eq, shapes in fixed:
    cases.append((eq, shapes))
while len(cases) < 120:
    n = random.randint(2, 7)
    sizes = {c: random.randint(1, 6) for c in LABELS}
    used = random.sample(LABELS, random.randint(3, 8))
    terms = []
    for _ in range(n):
        k = random.randint(1, 4)
        terms.append("".join(random.choice(used) for _ in range(k)))
    allused = sorted(set("".join(terms)))
    out = "".join(random.sample(allused, random.randint(0, min(3, len(allused)))))
    eq = ",".join(terms) + "->" + out
    shapes = [tuple(sizes[c] for c in t) for t in terms]
    cases.append((eq, shapes))

out = []
for eq, shapes in cases:
    path, info = opt_einsum.contract_path(eq, *shapes, shapes=True, optimize="optimal")
    out.append({
        "equation": eq,
        "shapes": [list(s) for s in shapes],
        "optimal_flops": int(info.opt_cost),
        "naive_flops": int(info.naive_cost),
        "largest_intermediate": int(info.largest_intermediate),
        "path": [list(p) for p in path],
    })
with open("crates/lattensor/tests/data/einsum_paths.json", "w") as f:
    json.dump({"generator": "scripts/golden/einsum_paths.py", "opt_einsum": opt_einsum.__version__, "cases": out}, f, indent=1)
print(len(out), "cases")
