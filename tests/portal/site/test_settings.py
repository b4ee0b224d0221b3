"""Settings helpers: a bad environment value is a clear error naming the variable."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from portal.env import env_bool, env_int, env_list, env_secret


def test_booleans_integers_and_lists_are_parsed_strictly(monkeypatch):
    monkeypatch.setenv("X_FLAG", "yes")
    monkeypatch.setenv("X_NUM", "42")
    monkeypatch.setenv("X_LIST", "a, b,,c")
    assert env_bool("X_FLAG") is True and env_int("X_NUM", 1) == 42 and env_list("X_LIST") == ["a", "b", "c"]
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG"):
        env_bool("X_FLAG")
    monkeypatch.setenv("X_NUM", "ten")
    with pytest.raises(ImproperlyConfigured, match="X_NUM must be an integer"):
        env_int("X_NUM", 1)
    monkeypatch.setenv("X_NUM", "3")
    with pytest.raises(ImproperlyConfigured, match="at least 10"):
        env_int("X_NUM", 1, minimum=10)


def test_secrets_can_come_from_a_file(monkeypatch, tmp_path):
    secret = tmp_path / "key"
    secret.write_text("from-a-file\n")
    monkeypatch.setenv("X_SECRET_FILE", str(secret))
    assert env_secret("X_SECRET") == "from-a-file"
    monkeypatch.setenv("X_SECRET_FILE", str(tmp_path / "missing"))
    with pytest.raises(ImproperlyConfigured, match="X_SECRET_FILE"):
        env_secret("X_SECRET")


def test_a_bad_database_url_stops_startup_with_its_name(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        capture_output=True,
        text=True,
        env={
            "DJANGO_SETTINGS_MODULE": "portal.settings",
            "DATABASE_URL": "nonsense://x",
            "ROCPORT_VAR_DIR": str(tmp_path),
            "PATH": "/usr/bin:/bin",
        },
        cwd=str(__import__("pathlib").Path(__file__).resolve().parents[3]),
    )
    assert proc.returncode != 0 and "DATABASE_URL" in proc.stderr


def test_a_generated_secret_key_is_kept_in_var_readable_by_its_owner_only(tmp_path):
    """Without SECRET_KEY, `make run`'s processes share one random key kept in var/secret_key: sessions and signed
    values survive a restart, and the key is never printed."""
    import stat
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    env = {
        "DJANGO_SETTINGS_MODULE": "portal.settings",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
        "ROCPORT_VAR_DIR": str(tmp_path),
        "PATH": "/usr/bin:/bin",
    }
    code = "import hashlib, django; django.setup(); from django.conf import settings; "
    code += "print(hashlib.sha256(settings.SECRET_KEY.encode()).hexdigest())"
    starts = [
        subprocess.Popen(
            [sys.executable, "-c", code], cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(3)
    ]
    outputs = [start.communicate(timeout=120) for start in starts]
    assert all(start.returncode == 0 for start in starts), outputs
    key = (tmp_path / "secret_key").read_text().strip()
    assert len(key) >= 50 and {out for out, _ in outputs} == {outputs[0][0]}  # one key for every process
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600
    assert not any(key.encode() in out + err for out, err in outputs)
    assert sorted(path.name for path in tmp_path.iterdir() if "secret" in path.name) == ["secret_key"]
