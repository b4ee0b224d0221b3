"""docker-compose.yml stays valid for users (no Docker engine here to run `docker compose config`), and
.env.example lists every variable the settings read."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]


def test_compose_file_has_the_services_and_their_wiring():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"web", "worker", "beat", "postgres", "redis"}
    for name in ("web", "worker", "beat"):
        service = services[name]
        build = service["build"]
        assert build == "." or build["context"] == "."
        assert service["environment"]["DATABASE_URL"].startswith("postgres://")
        assert service["environment"]["CELERY_BROKER_URL"].startswith("redis://redis:")
        assert set(service["depends_on"]) == {"postgres", "redis"}
    assert "celery -A portal worker" in services["worker"]["command"]
    # the compile check runs in the worker: its image installs hipcc, the Dockerfile knows the switch
    assert services["worker"]["build"]["args"]["WITH_HIPCC"] == "1"
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "ARG WITH_HIPCC" in dockerfile and "hipcc libamdhip64-dev" in dockerfile
    assert "clang-19 lld-19 clang-tools-19" in dockerfile  # the default toolchain (scanner/compile/clang_hip.py)
    assert "celery -A portal beat" in services["beat"]["command"]
    for secret in compose.get("secrets", {}):
        assert all(secret in services[s].get("secrets", []) for s in ("web", "worker", "beat"))
    assert (ROOT / "Dockerfile").is_file()


def test_env_example_lists_every_setting_alphabetically():
    names = set()
    for path in (ROOT / "portal").rglob("*.py"):
        names |= set(re.findall(r'env_(?:str|bool|int|list|secret|rate)\("([A-Z_]+)"', path.read_text()))
    listed = [
        line.split("=")[0]
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert names <= set(listed), f"missing from .env.example: {sorted(names - set(listed))}"
    assert listed == sorted(listed)
