"""Git servers on 127.0.0.1 for tests: `git daemon` (git://) and `git http-backend` behind HTTP basic auth."""

from __future__ import annotations

import base64
import os
import signal
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def serve_http(handler, poll_interval: float = 0.05) -> ThreadingHTTPServer:
    """A ThreadingHTTPServer on a free port of 127.0.0.1, serving on a daemon thread. Its listening socket has a
    timeout: when a client goes away between the poll that saw it and the accept (seen under load, the git client
    of a test that had ended), a blocking accept would wait for the next client forever and `shutdown()` with it;
    with the timeout the accept gives up and the loop sees the shutdown."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.socket.settimeout(1.0)
    threading.Thread(target=server.serve_forever, args=(poll_interval,), daemon=True).start()
    return server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class GitDaemon:
    def __init__(self, base: Path):
        self.base = base
        self.port = free_port()
        self.process = subprocess.Popen(
            [
                "git",
                "daemon",
                "--reuseaddr",
                f"--base-path={base}",
                "--export-all",
                "--listen=127.0.0.1",
                f"--port={self.port}",
                "--enable=upload-pack",
                str(base),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("git daemon did not start")

    def url(self, name: str) -> str:
        return f"git://127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """The whole group: `git daemon` runs `git-daemon` as a child, which outlived a kill of `git` alone (two
        daemons were left behind by every test run)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()


class _Handler(BaseHTTPRequestHandler):
    root: Path
    credentials: tuple[str, str]

    def log_message(self, *args) -> None:
        pass

    def _authorised(self) -> bool:
        expected = "Basic " + base64.b64encode(":".join(self.credentials).encode()).decode()
        return self.headers.get("Authorization") == expected

    def _serve(self) -> None:
        if not self._authorised():
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="git"')
            self.end_headers()
            return
        path, _, query = self.path.partition("?")
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        env = {
            "GIT_PROJECT_ROOT": str(self.root),
            "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "REQUEST_METHOD": self.command,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "REMOTE_USER": self.credentials[0],
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        }
        if self.headers.get("Git-Protocol"):
            env["HTTP_GIT_PROTOCOL"] = self.headers["Git-Protocol"]
        proc = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True)
        head, _, payload = proc.stdout.partition(b"\r\n\r\n")
        status = 200
        headers = []
        for line in head.decode().split("\r\n"):
            name, _, value = line.partition(": ")
            if name.lower() == "status":
                status = int(value.split()[0])
            elif name:
                headers.append((name, value))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = _serve
    do_POST = _serve


class GitHttpServer:
    """Smart HTTP with a username and password, for credential tests; `public`: anyone may fetch (a host's public
    repositories), so that a missing repository answers 404 rather than asking for credentials."""

    def __init__(self, root: Path, username: str = "", password: str = "", public: bool = False):
        attrs = {"root": root, "credentials": (username, password)}
        if public:
            attrs["_authorised"] = lambda handler: True
        handler = type("Handler", (_Handler,), attrs)
        self.server = serve_http(handler)
        self.port = self.server.server_address[1]

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        self.server.shutdown()
