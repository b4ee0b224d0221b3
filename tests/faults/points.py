"""Faults at named points (scanner/faultpoints.py), planned by a test and carried out by the processes it breaks.

A test writes a `FaultPlan` (a JSON file of rules in a directory of its own) and gives the processes it wants to
break `plan.env()`: PYTHONPATH with tests/faults/hooks (whose sitecustomize.py calls `install_from_environment`
when the interpreter starts) and the plan's path. A Celery worker started with it, its prefork children (forked
after the hook is installed) and the scanner's worker processes it starts (they inherit the environment) then
run the plan's rules at the points they reach. Production code reads no environment variable for this: only this
test-owned hook does.

A rule: a point's name, what its details must be (`where`: equal, or `{"suffix": s}` for a path, or any path of
a list, ending with s), an action, and `once` (the default): a once-rule fires in the first process that reaches
it, which writes `<id>.landed` (O_EXCL, so two processes never both fire) before acting; `plan.landed()` reads
those records back, so a test can count the faults that really happened. Actions:
- `raise`: a RuntimeError at the point, as a bug there would raise;
- `kill`: SIGKILL to the process that reached the point (a Celery pool process: as the OOM killer picks it);
- `kill-group`: SIGKILL to its whole process group (a Celery worker started in a session of its own, with its
  pool and scanner processes: as a container or machine dies);
- `crash`: SIGSEGV on the calling thread, as a libclang fault would (a scanner worker process);
- `hang`: never return, until the process's parent is gone (a scanner worker process: a libclang loop).

Dependency-free (the standard library and scanner.faultpoints): it loads in every process the plan reaches.
"""

from __future__ import annotations

import ctypes
import itertools
import json
import os
import signal
import threading
import time
from contextlib import contextmanager
from pathlib import Path

HOOKS = Path(__file__).resolve().parent / "hooks"
PLAN_ENV = "ROCPORT_TEST_FAULT_PLAN"  # read by the hook below, never by production code
ACTIONS = ("raise", "kill", "kill-group", "crash", "hang")


class FaultPlan:
    def __init__(self, directory: Path):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.file = self.dir / "plan.json"
        self.rules: list[dict] = []
        self._ids = itertools.count(1)
        self._write()

    def add(self, point: str, action: str, *, once: bool = True, name: str = "", **where) -> str:
        """A rule; returns its id. `where`: the details the point must have (a value, or `suffix(...)`)."""
        assert action in ACTIONS, action
        rule_id = name or f"rule-{next(self._ids)}"
        self.rules.append({"id": rule_id, "point": point, "action": action, "once": once, "where": where})
        self._write()
        return rule_id

    def env(self) -> dict[str, str]:
        """What a child process needs in its environment to run this plan."""
        path = [str(HOOKS), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
        return {"PYTHONPATH": os.pathsep.join(path), PLAN_ENV: str(self.file)}

    @contextmanager
    def in_children(self):
        """This process's environment carries the plan while the block runs: processes it starts meanwhile (the
        scanner pool's workers) run the plan; this process does not."""
        saved = {key: os.environ.get(key) for key in (PLAN_ENV, "PYTHONPATH")}
        os.environ.update(self.env())
        try:
            yield self
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value

    def landed(self) -> list[dict]:
        """The once-rules that fired: {"id", "point", "details", "pid"}, in the order of their ids."""
        out = []
        for rule in self.rules:
            path = self.dir / f"{rule['id']}.landed"
            if path.exists():
                out.append(json.loads(path.read_text() or "{}"))
        return out

    def fired(self, rule_id: str) -> bool:
        return (self.dir / f"{rule_id}.landed").exists()

    def _write(self) -> None:
        tmp = self.file.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.rules))
        os.replace(tmp, self.file)  # a process reading the plan sees the old one or the new one


def suffix(text: str) -> dict:
    """A `where` value: the detail (a path, or any path of a list) ends with `text`."""
    return {"suffix": text}


# -- the hook side: runs in the processes the plan reaches --------------------------------------------------------


def install_from_environment() -> None:
    """Called by hooks/sitecustomize.py at interpreter start: register the hook when a plan is named."""
    path = os.environ.get(PLAN_ENV)
    if not path:
        return
    from scanner import faultpoints

    faultpoints.register(_Hook(Path(path)))


class _Hook:
    def __init__(self, plan: Path):
        self.plan = plan

    def __call__(self, point: str, **details) -> None:
        for rule in self._rules():
            if rule["point"] != point or not all(_matches(details.get(k), v) for k, v in rule["where"].items()):
                continue
            record = {"id": rule["id"], "point": point, "details": details, "pid": os.getpid()}
            if rule["once"]:
                try:
                    fd = os.open(self.plan.parent / f"{rule['id']}.landed", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
                except FileExistsError:
                    continue  # fired already, here or in another process
                os.write(fd, json.dumps(record, default=str).encode())
                os.close(fd)
            _act(rule["action"], f"{rule['id']} at {point}")

    def _rules(self) -> list[dict]:
        # Read at every point: a test may extend the plan after the processes started.
        try:
            return json.loads(self.plan.read_text())
        except (OSError, ValueError):
            return []


def _matches(value, wanted) -> bool:
    if isinstance(wanted, dict) and "suffix" in wanted:
        values = value if isinstance(value, list | tuple) else [value]
        return any(isinstance(v, str) and v.endswith(wanted["suffix"]) for v in values)
    return value == wanted


def _act(action: str, what: str) -> None:
    if action == "raise":
        raise RuntimeError(f"injected failure ({what})")
    if action == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif action == "kill-group":
        os.killpg(os.getpgrp(), signal.SIGKILL)
    elif action == "crash":
        # LLVM's own SIGSEGV handler (installed by libclang's crash recovery) returns for a signal that was sent
        # rather than caused by a fault, and the process would go on: restore the default action first (through
        # libc: Python's signal module works on the main thread only, and this is the analysis thread).
        ctypes.CDLL(None).signal(signal.SIGSEGV, 0)  # SIG_DFL
        signal.pthread_kill(threading.get_ident(), signal.SIGSEGV)  # on this thread, as a real fault would be
        time.sleep(2)
        os.kill(os.getpid(), signal.SIGKILL)  # a handler that swallowed the SIGSEGV must not keep the process
    elif action == "hang":
        parent = os.getppid()
        while os.getppid() == parent:  # hang until our parent is gone, then leave no orphan behind
            time.sleep(0.2)
        os._exit(1)
    time.sleep(60)  # a SIGKILL to ourselves is delivered at once; never go on past a kill
