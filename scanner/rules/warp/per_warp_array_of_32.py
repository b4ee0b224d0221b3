"""Not implemented yet."""

from scanner.model import Risk, Severity
from scanner.rules.base import Rule


def check(ctx) -> None:
    return None


RULE = Rule(name="per-warp-array-of-32", summary="(not implemented)", risk=Risk.BUILD_BREAK, severity=Severity.LOW,
            on=("file",), check=check)
