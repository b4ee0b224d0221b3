"""Runs file analyses in worker processes, so that a libclang crash or hang costs one file, not the scan.

Workers are plain subprocesses (`python -m scanner.worker`) exchanging pickled messages over their stdin and
stdout, not multiprocessing children: the scanner runs inside hosts such as Celery's prefork pool, whose
daemonic children may not start multiprocessing children. A worker exits when its stdin closes, so it never
outlives whoever started it. Each worker takes one file at a time; the parent waits on the workers' pipes with
the current file's deadline. A worker that dies (segfault) or overruns the per-file timeout is killed and
replaced, and that file gets an error result. Results come back in submission order through a small reorder
buffer, so memory stays bounded by the number of workers, not the number of files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait

from scanner import faultpoints
from scanner.config import ScanOptions
from scanner.engine import Analyzer, FileJob, error_result
from scanner.model import FileResult
from scanner.parsing.clang_unit import Parser, ParseSettings
from scanner.rules import select

_STARTUP_GRACE = 120.0  # importing libclang and building the prelude PCH, before the first file
# The compile check's temporary trees live under one directory per run, which the pool removes at the end: a
# worker killed mid-file (a timeout) cannot clean up after itself.
SCRATCH_ENV = "ROCPORT_COMPILE_SCRATCH"


class DeadlineExceeded(RuntimeError):
    """The whole run passed the deadline given to the pool (a scan's time limit)."""


@dataclass
class _Worker:
    process: subprocess.Popen
    send: Connection
    receive: Connection
    ready: bool = False
    job: tuple[int, FileJob] | None = None
    deadline: float = 0.0


# The analysis runs on a thread of its own with this much stack, and libclang parses on that thread
# (LIBCLANG_NOTHREADS) instead of its 8 MiB safety thread: clang's parser recurses once per nesting level, and a
# hostile header nested some thousands of levels deep (`template <typename T` repeated) overflowed 8 MiB and took
# the worker down (SIGSEGV). Only the pages used are ever committed.
_ANALYSIS_STACK_BYTES = 512 * 1024 * 1024


def worker_main() -> None:
    """The worker side (`python -m scanner.worker`): options first, then one job at a time until stdin closes."""
    os.environ.setdefault("LIBCLANG_NOTHREADS", "1")
    threading.stack_size(_ANALYSIS_STACK_BYTES)
    analysis = threading.Thread(target=_serve, name="rocport-analysis")
    analysis.start()
    analysis.join()


def _serve() -> None:
    receive = Connection(os.dup(0), writable=False)
    send = Connection(os.dup(1), readable=False)
    os.dup2(2, 1)  # whatever a library prints goes to stderr, never into the protocol
    options: ScanOptions = receive.recv()
    translator = None
    if options.translate or options.compile_check:
        # inside: scanner.translate (about 30 ms of imports) loads only in the workers of a scan that translates
        from scanner.translate import TranslateOptions, Translator

        translator = Translator(TranslateOptions(backend=options.translate_backend))
    compiler = None
    if options.compile_check:
        # inside: scanner.compile loads only in the workers of a scan with the compile check on
        from scanner.compile import CompileChecker, settings_from

        compiler = CompileChecker(
            settings_from(options),
            lambda rel, text, path: translator.translate(rel, text, path).text,
            os.environ.get(SCRATCH_ENV) or None,
        )
    analyzer = Analyzer(
        _parser(options),
        select(list(options.enable), list(options.disable)),
        options.target,
        options.max_file_bytes,
        translator,
        compiler,
        port=options.port,
        missing_submodules=options.submodules_missing,
    )
    send.send(("ready", None))
    try:
        while True:
            try:
                job = receive.recv()
            except EOFError:
                return
            if job is None:
                return
            faultpoints.reached("pool.file", path=job.rel)  # tests break a file here (tests/faults/points.py)
            try:
                result = analyzer.analyze(job)
            except Exception:  # a rule or parser bug must cost one file, and say so
                result = error_result(job, "internal error while analysing: " + traceback.format_exc(limit=3))
            send.send(("result", result))
    finally:
        if compiler is not None:
            compiler.close()


def _parser(options: ScanOptions):
    return Parser(
        ParseSettings(
            include_dirs=tuple(options.include_dirs), defines=tuple(options.defines), cuda_path=options.cuda_path
        )
    )


class WorkerPool:
    def __init__(self, options: ScanOptions, jobs: int, deadline: float | None = None):
        self.options = options
        self.size = max(1, jobs)
        self.deadline = deadline  # time.monotonic() value; past it, run() raises DeadlineExceeded
        self.workers: list[_Worker] = []
        self.scratch = ""  # the compile check's temporary directory during run()

    def _start(self) -> _Worker:
        env = dict(os.environ, **{SCRATCH_ENV: self.scratch}) if self.scratch else None
        process = subprocess.Popen(
            [sys.executable, "-m", "scanner.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
            env=env,
        )
        send = Connection(os.dup(process.stdin.fileno()), readable=False)
        receive = Connection(os.dup(process.stdout.fileno()), writable=False)
        process.stdin.close()
        process.stdout.close()
        send.send(self.options)
        worker = _Worker(process, send, receive, deadline=time.monotonic() + _STARTUP_GRACE)
        self.workers.append(worker)
        return worker

    def _retire(self, worker: _Worker) -> None:
        if worker.process.poll() is None:
            worker.process.kill()
        worker.process.wait(timeout=5)
        worker.send.close()
        worker.receive.close()
        self.workers.remove(worker)

    def run(self, jobs: Iterable[FileJob]) -> Iterator[FileResult]:
        queue = deque(enumerate(jobs))
        done: dict[int, FileResult] = {}
        next_out = 0
        timeout = self.options.timeout_seconds
        if self.options.compile_check:
            # The check has a deadline of its own, inside this one: a slow compilation is "not checked", and
            # the analysis of the file is kept.
            timeout += self.options.compile_timeout_seconds + 10
            self.scratch = tempfile.mkdtemp(prefix="rocport-pool-")
        try:
            while queue or any(w.job for w in self.workers):
                while len(self.workers) < min(self.size, len(queue) + sum(1 for w in self.workers if w.job)):
                    self._start()
                for worker in self.workers:
                    if worker.ready and worker.job is None and queue:
                        worker.job = queue.popleft()
                        worker.deadline = time.monotonic() + timeout
                        worker.send.send(worker.job[1])
                if self.deadline is not None and time.monotonic() > self.deadline:
                    raise DeadlineExceeded("the run passed its deadline")
                self._collect(done, timeout)
                while next_out in done:
                    yield done.pop(next_out)
                    next_out += 1
        finally:
            for worker in list(self.workers):
                try:
                    worker.send.send(None)
                except OSError:
                    pass
                self._retire(worker)
            if self.scratch:
                shutil.rmtree(self.scratch, ignore_errors=True)
                self.scratch = ""

    def _collect(self, done: dict[int, FileResult], timeout: float) -> None:
        now = time.monotonic()
        deadlines = [w.deadline for w in self.workers] + ([self.deadline] if self.deadline is not None else [])
        wait_for = max(0.0, min(deadlines, default=now + 1) - now)
        ready = set(wait([w.receive for w in self.workers], timeout=wait_for + 0.01))
        for worker in list(self.workers):
            if worker.receive in ready:
                try:
                    kind, payload = worker.receive.recv()
                except (EOFError, OSError):
                    code = worker.process.wait(timeout=5)
                    self._fail(worker, done, f"the analysing process died (exit code {code}; libclang crashed?)")
                    continue
                if kind == "ready":
                    worker.ready = True
                else:
                    index, _ = worker.job
                    done[index] = payload
                    worker.job = None
            elif time.monotonic() > worker.deadline:
                what = (
                    f"timed out after {timeout:g}s (scan.timeout_seconds)" if worker.ready else "worker did not start"
                )
                self._fail(worker, done, what)

    def _fail(self, worker: _Worker, done: dict[int, FileResult], why: str) -> None:
        if worker.job is not None:
            index, job = worker.job
            done[index] = error_result(job, why)
        elif not worker.ready:
            raise RuntimeError(f"scanner worker failed to start: {why}")
        self._retire(worker)
