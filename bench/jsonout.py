"""`--json FILE` for every benchmark: the figures a run measured, as one JSON object, for bench/run_all.py."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def add_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", metavar="FILE", type=Path, help="also write the figures to FILE as JSON (bench/run_all.py reads it)"
    )


def write(path: Path | None, figures: dict) -> None:
    if path is not None:
        path.write_text(json.dumps(figures, indent=2, sort_keys=True, default=str) + "\n")
