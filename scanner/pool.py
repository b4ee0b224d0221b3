"""Runs file analyses in worker processes, so that a libclang crash or hang costs one file, not the scan.

Each worker takes one file at a time; the parent waits on the worker's pipe and its process sentinel with
the file's deadline. A worker that dies (segfault) or overruns the per-file timeout is killed and replaced,
and that file gets an error result. Results come back in submission order through a small reorder buffer,
so memory stays bounded by the number of workers, not the number of files.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
import traceback
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait

from scanner.config import ScanOptions
from scanner.engine import FileJob, error_result
from scanner.model import FileResult

_STARTUP_GRACE = 120.0  # building the prelude PCH and importing libclang, before the first file


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    ready: bool = False
    job: tuple[int, FileJob] | None = None
    deadline: float = 0.0


def _worker_main(conn: Connection, options: ScanOptions) -> None:
    from scanner.engine import Analyzer
    from scanner.parsing.clang_unit import Parser
    from scanner.rules import select

    translator = None
    if options.translate:
        from scanner.translate import TranslateOptions, Translator

        translator = Translator(TranslateOptions(backend=options.translate_backend))
    analyzer = Analyzer(_parser(options), select(list(options.enable), list(options.disable)), options.target,
                        options.max_file_bytes, translator)
    conn.send(("ready", None))
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        _fault_injection(job)
        try:
            result = analyzer.analyze(job)
        except Exception:  # a rule or parser bug must cost one file, and say so
            result = error_result(job, "internal error while analysing: " + traceback.format_exc(limit=3))
        conn.send(("result", result))


def _fault_injection(job: FileJob) -> None:
    """Test seam: ROCPORT_FAULT="crash:NAME" or "hang:NAME" makes the worker die or hang on that file, the way
    a libclang segfault or infinite loop would, so the tests exercise the real kill-and-replace path."""
    fault = os.environ.get("ROCPORT_FAULT", "")
    kind, _, name = fault.partition(":")
    if not name or not job.rel.endswith(name):
        return
    if kind == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif kind == "hang":
        time.sleep(3600)


def _parser(options: ScanOptions):
    from scanner.parsing.clang_unit import ParseSettings, Parser

    return Parser(ParseSettings(include_dirs=tuple(options.include_dirs), defines=tuple(options.defines),
                                cuda_path=options.cuda_path))


class WorkerPool:
    def __init__(self, options: ScanOptions, jobs: int):
        self.options = options
        self.size = max(1, jobs)
        self._mp = multiprocessing.get_context("spawn")  # no fork: callers may hold threads or sockets
        self.workers: list[_Worker] = []

    def _start(self) -> _Worker:
        parent, child = self._mp.Pipe()
        process = self._mp.Process(target=_worker_main, args=(child, self.options), daemon=True)
        process.start()
        child.close()
        worker = _Worker(process, parent, deadline=time.monotonic() + _STARTUP_GRACE)
        self.workers.append(worker)
        return worker

    def _retire(self, worker: _Worker) -> None:
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(timeout=5)
        worker.conn.close()
        self.workers.remove(worker)

    def run(self, jobs: Iterable[FileJob]) -> Iterator[FileResult]:
        queue = deque(enumerate(jobs))
        done: dict[int, FileResult] = {}
        next_out = 0
        timeout = self.options.timeout_seconds
        try:
            while queue or any(w.job for w in self.workers):
                while len(self.workers) < min(self.size, len(queue) + sum(1 for w in self.workers if w.job)):
                    self._start()
                for worker in self.workers:
                    if worker.ready and worker.job is None and queue:
                        worker.job = queue.popleft()
                        worker.deadline = time.monotonic() + timeout
                        worker.conn.send(worker.job[1])
                self._collect(done, timeout)
                while next_out in done:
                    yield done.pop(next_out)
                    next_out += 1
        finally:
            for worker in list(self.workers):
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
                self._retire(worker)

    def _collect(self, done: dict[int, FileResult], timeout: float) -> None:
        now = time.monotonic()
        wait_for = max(0.0, min((w.deadline for w in self.workers), default=now + 1) - now)
        handles = [w.conn for w in self.workers] + [w.process.sentinel for w in self.workers]
        ready = set(wait(handles, timeout=wait_for + 0.01))
        for worker in list(self.workers):
            if worker.conn in ready:
                try:
                    kind, payload = worker.conn.recv()
                except (EOFError, OSError):
                    self._fail(worker, done, "the analysing process died (libclang crashed?)")
                    continue
                if kind == "ready":
                    worker.ready = True
                else:
                    index, _ = worker.job
                    done[index] = payload
                    worker.job = None
            elif worker.process.sentinel in ready:
                self._fail(worker, done, f"the analysing process died (exit code {worker.process.exitcode})")
            elif time.monotonic() > worker.deadline:
                what = f"timed out after {timeout:g}s (scan.timeout_seconds)" if worker.ready else "worker did not start"
                self._fail(worker, done, what)

    def _fail(self, worker: _Worker, done: dict[int, FileResult], why: str) -> None:
        if worker.job is not None:
            index, job = worker.job
            done[index] = error_result(job, why)
        elif not worker.ready:
            raise RuntimeError(f"scanner worker failed to start: {why}")
        self._retire(worker)
