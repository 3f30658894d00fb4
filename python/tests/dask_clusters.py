"""Dask clusters for the tests: a LocalCluster of two worker processes, and a
loopback cluster started from the command line (``dask scheduler`` plus two
``dask worker`` processes on 127.0.0.1), both torn down by the fixture that
starts them, on failure too."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

START_TIMEOUT = 60.0


def local_cluster():
    """A LocalCluster of two single-threaded worker processes and its client."""
    import distributed

    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    )
    client = distributed.Client(cluster, set_as_default=False)
    return cluster, client


class CliCluster:
    """``dask scheduler`` and ``dask worker`` processes started with this
    interpreter; :meth:`close` terminates them (then kills what is left)."""

    def __init__(self, directory, n_workers=2, env=None):
        self.directory = directory
        self.procs = []
        self.client = None
        self.env = dict(os.environ if env is None else env)
        self.scheduler_file = os.path.join(directory, "scheduler.json")
        self.n_workers = n_workers

    def _spawn(self, *args, env=None, log):
        out = open(os.path.join(self.directory, log), "wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "dask", *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env or self.env,
            start_new_session=True,
        )
        self.procs.append(proc)
        return proc

    def start(self):
        import distributed

        self._spawn(
            "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
            "--scheduler-file", self.scheduler_file, log="scheduler.log",
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not _readable_json(self.scheduler_file):
            if time.monotonic() > deadline or self.procs[0].poll() is not None:
                raise RuntimeError(f"dask scheduler did not start; see {self.directory}/scheduler.log")
            time.sleep(0.1)
        for i in range(self.n_workers):
            self.add_worker(log=f"worker{i}.log")
        self.client = distributed.Client(scheduler_file=self.scheduler_file, timeout=START_TIMEOUT, set_as_default=False)
        if self.n_workers:
            self.client.wait_for_workers(self.n_workers, timeout=START_TIMEOUT)
        return self

    def add_worker(self, env=None, log="worker-extra.log"):
        return self._spawn(
            "worker", "--scheduler-file", self.scheduler_file, "--nworkers", "1", "--nthreads", "1",
            "--no-dashboard", "--host", "127.0.0.1", env=env, log=log,
        )

    def close(self):
        if self.client is not None:
            try:
                self.client.close(timeout=10)
            except Exception:  # noqa: BLE001 (teardown must reach the processes below)
                pass
        for proc in reversed(self.procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


def _readable_json(path):
    try:
        with open(path) as f:
            json.load(f)
        return True
    except (OSError, ValueError):
        return False
