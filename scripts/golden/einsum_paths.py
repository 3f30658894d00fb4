"""Golden data for the einsum planner: opt_einsum's `optimal` FLOP counts.

Generates random einsum equations (2-7 operands, letters a-j, repeated labels
allowed, random explicit outputs) with random sizes, and records
opt_einsum.contract_path(..., optimize='optimal').opt_cost and naive_cost, plus
the value of the objective `optimal` minimises (calc_k12_flops summed over the
path) for: upstream `optimal`; `optimal` with its pair-result cache keyed by the
full search context (upstream keys it by the two index sets only, so it reuses
results computed while other operands still needed a label — on about a quarter
of these cases it then returns a path above the minimum); and a brute-force DP.
The last two agree on every case; lattensor's planner is tested against them.
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



def search_cost(eq, shapes, path):
    """The objective opt_einsum's `optimal` minimises (paths.calc_k12_flops summed
    over the path): a step costs size(A|B) * (1 + [a label shared by A and B is
    summed]). contract_path's reported opt_cost instead doubles a step when *any*
    label is removed, so it is not what the search minimises."""
    lhs, out = eq.split("->")
    inputs = [frozenset(t) for t in lhs.split(",")]
    output = frozenset(out)
    sizes = {}
    for t, s in zip(lhs.split(","), shapes):
        for c, d in zip(t, s):
            sizes[c] = d
    if len(inputs) == 1:
        return None
    total = 0
    for step in path:
        i, j = sorted(step)
        a, b = inputs[i], inputs[j]
        rest = [x for k, x in enumerate(inputs) if k not in (i, j)]
        keep = frozenset(output.union(*rest))
        either = a | b
        size = 1
        for c in either:
            size *= sizes[c]
        total += size * (1 + bool((a & b) - keep))
        inputs = rest + [either & keep]
    return total


def exact_min_search_cost(eq, shapes):
    """Brute-force minimum of the same objective over *all* contraction trees
    (memoised recursion over subsets of operands; each subset's intermediate
    depends only on the subset). opt_einsum's `optimal` caches pair results by
    the two index sets alone, ignoring which operands remain, so on rare cases
    (e.g. repeated labels making sets coincide) its answer is not the minimum."""
    from functools import lru_cache
    lhs, out = eq.split("->")
    terms = lhs.split(",")
    n = len(terms)
    if n <= 2:
        return None
    sets = [frozenset(t) for t in terms]
    output = frozenset(out)
    sizes = {}
    for t, s in zip(terms, shapes):
        for c, d in zip(t, s):
            sizes[c] = d
    full = (1 << n) - 1

    def union(mask):
        return frozenset().union(*[sets[k] for k in range(n) if mask >> k & 1])

    def result(mask):
        if bin(mask).count("1") == 1:
            return sets[mask.bit_length() - 1]
        return union(mask) & (output | union(full & ~mask))

    @lru_cache(maxsize=None)
    def best(mask):
        if bin(mask).count("1") == 1:
            return 0
        low = mask & -mask
        rest = mask ^ low
        r = result(mask)
        m = None
        sub = rest
        while True:
            a = sub | low
            b = mask ^ a
            if b:
                ra, rb = result(a), result(b)
                either = ra | rb
                size = 1
                for c in either:
                    size *= sizes[c]
                c = best(a) + best(b) + size * (1 + bool((ra & rb) - r))
                m = c if m is None else min(m, c)
            if sub == 0:
                break
            sub = (sub - 1) & rest
        return m

    return best(full)


def _uncached_optimal():
    """opt_einsum's own `optimal` search with its pair-result cache keyed also by
    the remaining operands (upstream keys it by the two index sets only, so a
    result computed while other operands still needed some label is reused
    when they no longer do)."""
    import inspect
    import textwrap
    from opt_einsum import paths

    src = textwrap.dedent(inspect.getsource(paths.optimal))
    src = src.replace("key = (inputs[i], inputs[j])", "key = (i, j, inputs, frozenset(remaining))")
    src = src.replace("def optimal(", "def optimal_uncached(", 1)
    ns = dict(vars(paths))
    exec(src, ns)
    return ns["optimal_uncached"]


optimal_uncached = _uncached_optimal()


def uncached_search_cost(eq, shapes):
    lhs, out = eq.split("->")
    terms = lhs.split(",")
    if len(terms) <= 2:
        return None
    sizes = {}
    for t, s in zip(terms, shapes):
        for c, d in zip(t, s):
            sizes[c] = d
    path = optimal_uncached([frozenset(t) for t in terms], frozenset(out), sizes, None)
    return search_cost(eq, shapes, path)


out = []
for eq, shapes in cases:
    path, info = opt_einsum.contract_path(eq, *shapes, shapes=True, optimize="optimal")
    out.append({
        "equation": eq,
        "shapes": [list(s) for s in shapes],
        "optimal_flops": int(info.opt_cost),
        "optimal_search_cost": search_cost(eq, shapes, path),
        "exact_min_search_cost": exact_min_search_cost(eq, shapes),
        "optimal_uncached_search_cost": uncached_search_cost(eq, shapes),
        "naive_flops": int(info.naive_cost),
        "largest_intermediate": int(info.largest_intermediate),
        "path": [list(p) for p in path],
    })
with open("crates/lattensor/tests/data/einsum_paths.json", "w") as f:
    json.dump({"generator": "scripts/golden/einsum_paths.py", "opt_einsum": opt_einsum.__version__, "cases": out}, f, indent=1)
worse = sum(1 for c in out if c["exact_min_search_cost"] is not None and c["optimal_search_cost"] != c["exact_min_search_cost"])
agree = all(c["exact_min_search_cost"] == c["optimal_uncached_search_cost"] for c in out)
print("uncached opt_einsum optimal == exact minimum on every case:", agree)
print(len(out), "cases;", worse, "where opt_einsum's optimal is above the exact minimum")
