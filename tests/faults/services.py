"""The services the fault suite breaks: its own PostgreSQL cluster (initdb on a free port, trust auth) and its own
Redis, so that stopping them disturbs nobody else on the machine."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.portal.servers import free_port

PG_BIN = Path("/usr/lib/postgresql/15/bin")


class Postgres:
    """A throwaway cluster. initdb refuses to run as root, so the cluster belongs to the `postgres` user and every
    command runs through runuser; its directory is outside pytest's tmp_path, which only root may enter."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="rocport-faults-pg-"))
        self.dir.chmod(0o755)
        shutil.chown(self.dir, "postgres", "postgres")
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.port = free_port()
        self._as_postgres(
            PG_BIN / "initdb", "--no-sync", "--auth=trust", "--username=postgres", "-E", "UTF8", "-D", str(self.data)
        )
        self.start()

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _as_postgres(self, *command) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *map(str, command)], check=True, capture_output=True, timeout=120
        )

    def start(self) -> None:
        # fsync off: the machine does not crash in these tests, only the server does; crash recovery after an
        # immediate stop still replays the WAL.
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off "
            "-c full_page_writes=off -c max_connections=60"
        )
        self._as_postgres(PG_BIN / "pg_ctl", "-D", self.data, "-l", self.log, "-o", options, "-w", "-t", "60", "start")

    def stop(self, mode: str = "immediate") -> None:
        """`immediate`: the server dies the way a crash or an OOM kill ends it, connections cut without goodbye."""
        self._as_postgres(PG_BIN / "pg_ctl", "-D", self.data, "-m", mode, "-w", "-t", "60", "stop")

    def destroy(self) -> None:
        try:
            self.stop("immediate")
        except subprocess.CalledProcessError:
            pass  # already stopped
        shutil.rmtree(self.dir, ignore_errors=True)
