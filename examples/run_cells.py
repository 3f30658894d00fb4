"""Runs a `# %%` cell script the way a notebook does: each cell's last
expression statement is displayed with `repr`, after whatever it prints.

    python examples/run_cells.py examples/type_promotion_guide.py
"""

from __future__ import annotations

import ast
import sys


def cells(source: str) -> list[str]:
    """The cells of a `# %%` script (text before the first marker is dropped)."""
    parts = source.split("\n# %%\n")
    return parts[1:] if len(parts) > 1 else parts


def run_cell(code: str, env: dict, show=print) -> None:
    """Executes one cell; shows the value of a final expression statement (unless None)."""
    tree = ast.parse(code)
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    if last is not None:
        tree.body.pop()
    exec(compile(tree, "<cell>", "exec"), env)
    if last is not None:
        value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), env)
        if value is not None:
            show(repr(value))


def main(path: str) -> None:
    env: dict = {"__name__": "__main__"}
    for code in cells(open(path, encoding="utf-8").read()):
        run_cell(code, env)


if __name__ == "__main__":
    main(sys.argv[1])
