#!/usr/bin/env python3
"""Times one workload's calls one by one after idle pauses, through the bench server.

A call made after the process has been idle can be slower than the same call back
to back: the helper threads are napping (see crates/lattensor/src/kernels/pool.rs)
and the caches have been used by others. This prints, for each round, the
microseconds of each call after a pause, for one or more bench-server builds in
turn, e.g.

    python3 bench/after_idle.py E2_bmm
    python3 bench/after_idle.py E1a_mm_f32 --calls 4 --pause-ms 20 \\
        --server old=/tmp/bench_server_old --server new=target/release/bench_server
"""

from __future__ import annotations

import argparse
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "target" / "release" / "bench_server"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workload", help="a bench-server workload name, e.g. E2_bmm")
    ap.add_argument("--calls", type=int, default=30, help="calls after each pause (default 30)")
    ap.add_argument("--rounds", type=int, default=4, help="pauses per build (default 4)")
    ap.add_argument("--pause-ms", type=float, default=20.0, help="idle before each round (default 20)")
    ap.add_argument("--server", action="append", default=[], metavar="NAME=PATH",
                    help=f"a bench_server build (repeatable; default {SERVER.relative_to(ROOT)})")
    args = ap.parse_args()
    servers = [s.split("=", 1) for s in args.server] or [["lattensor", str(SERVER)]]
    for name, path in servers:
        p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

        def cmd(line: str) -> list[str]:
            p.stdin.write(line + "\n")
            p.stdin.flush()
            reply = p.stdout.readline().split()
            if not reply or reply[0] != "ok":
                raise SystemExit(f"{name}: {line!r} -> {' '.join(reply)}")
            return reply

        cmd(f"run {args.workload} 3")  # inputs built, buffers recycled
        for _ in range(args.rounds):
            time.sleep(args.pause_ms / 1e3)
            us = [int(cmd(f"run {args.workload} 1")[1]) / 1e3 for _ in range(args.calls)]
            print(f"{name}: " + " ".join(f"{t:.0f}" for t in us), flush=True)
        p.stdin.write("quit\n")
        p.stdin.close()
        p.wait()


if __name__ == "__main__":
    main()
