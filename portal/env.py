"""Settings from environment variables, parsed strictly: a bad value is an ImproperlyConfigured naming it.

`NAME_FILE` is honoured for secrets (Docker/Kubernetes secrets mounted as files).
"""

from __future__ import annotations

import os
import re

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false, yes/no, on/off), not {raw!r}")


def env_int(name: str, default: int, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value}")
    return value


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default or [])
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_secret(name: str, default: str = "") -> str:
    """NAME, or the contents of the file named by NAME_FILE."""
    path = os.environ.get(f"{name}_FILE")
    if path:
        try:
            with open(path, encoding="utf-8") as handle:
                return handle.read().strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE={path!r} cannot be read: {exc.strerror}") from None
    return os.environ.get(name, default)


def env_rate(name: str, default: str) -> str:
    """A rate limit such as `30/m` (count per s, m, h or d; `100/5m` for a five-minute window)."""
    raw = os.environ.get(name)
    value = default if raw is None or raw.strip() == "" else raw.strip()
    if not re.fullmatch(r"[1-9][0-9]*/(?:[1-9][0-9]*)?[smhd]", value):
        raise ImproperlyConfigured(
            f"{name} must be a rate such as 30/m or 1000/h (count/period, the period one of "
            f"s, m, h, d, optionally with a multiplier as in 100/5m), not {value!r}"
        )
    return value
