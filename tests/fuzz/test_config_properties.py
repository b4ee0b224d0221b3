"""Property tests of `.rocport.toml` (and the compile_commands.json it names) on random and mutated input
(hypothesis): the result is options or a ConfigError whose message names the offending key, never another
exception; options it accepts give a scan that runs."""

from __future__ import annotations

import datetime
import json
import math
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scanner import ConfigError, ScanOptions, plan, scan
from scanner.config import _SCHEMA
from tests.fuzz import toml_text
from tests.fuzz.budget import fuzz_settings
from tests.fuzz.mutations import MUTATIONS, mutate

EXAMPLE = """\
[scan]
exclude = ["third_party/**", "vendor/**"]
max_file_bytes = 2000000
timeout_seconds = 30

[rules]
disable = ["ROC134", "nvtx-usage"]
enable = []

[parse]
include_dirs = ["include", "src"]
defines = ["USE_FAST_MATH=1"]
compile_commands = "build/compile_commands.json"

[target]
targets = ["gfx942", "gfx1100"]
rocm = "7.0"

[compile]
offload_arch = "gfx90a"
std = "c++17"
timeout_seconds = 60
"""
COMPILE_COMMANDS = json.dumps(
    [
        {"directory": "/tmp/build", "file": "../src/a.cu", "command": "nvcc -Iinclude -DX=1 -std=c++17 -c a.cu -o a.o"},
        {"directory": "/tmp/build", "file": "b.cu", "arguments": ["clang++", "-isystem", "/opt/x", "-include", "p.h"]},
    ],
    indent=1,
).encode()
KERNEL = b"__global__ void k(int *x) { x[threadIdx.x % 32] = warpSize; }\n"

# The values that broke limits before: infinities, NaN, numbers past what the pool's clocks and reads take.
edges = st.sampled_from(
    [math.inf, -math.inf, math.nan, 1e300, 5e-324, 0.0, -0.0, 0, -1, 2**31, 2**63, 10**30, 10**4000, 1, 60, 2.5]
)
scalars = st.one_of(
    edges,
    edges,
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=5).map(lambda s: s * 5000),
    st.integers(),
    st.integers(min_value=2**60, max_value=2**200),
    st.integers(max_value=0),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.datetimes(),
    st.dates(),
    st.sampled_from(
        [
            "gfx942",
            "gfx90a\n",
            "gfx1100",
            "7.0",
            "9" * 5000 + ".1",
            "ROC101",
            "c++17",
            "c++17\n",
            "include",
            "/etc",
            "../..",
            "a\x00b",
            "**",
            "[",
            "",
            "build/compile_commands.json",
        ]
    ),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
known_keys = [(section, key) for section, keys in _SCHEMA.items() for key in keys]
section_names = st.sampled_from(list(_SCHEMA)) | st.text(max_size=10)


# What each known key takes when it is right: most drawn configurations are valid but for one or two values,
# so that the checks after the first one are reached too.
PLAUSIBLE = {
    list: st.lists(
        st.sampled_from(["include", "src/**", "ROC101", "nvtx-usage", "gfx942", "gfx1100", "X=1"]), max_size=3
    ),
    int: st.integers(1, 10_000_000),
    str: st.sampled_from(["7.0", "gfx90a", "c++17", "build/cc.json", ""]),
    (int, float): st.floats(0.5, 600),
}


@st.composite
def configs(draw) -> dict:
    data: dict = {}
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.integers(0, 9)) == 0:  # now and then an unknown section, or a section that is not a table
            data[draw(st.text(max_size=10))] = draw(values | st.dictionaries(st.text(max_size=5), values))
            continue
        section = draw(st.sampled_from(list(_SCHEMA)))
        table = data.setdefault(section, {})
        for _ in range(draw(st.integers(1, 3))):
            if draw(st.integers(0, 9)) == 0:
                table[draw(st.text(max_size=10))] = draw(values)
                continue
            key = draw(st.sampled_from(list(_SCHEMA[section])))
            hostile = draw(st.integers(0, 2)) == 0
            table[key] = draw(values if hostile else PLAUSIBLE[_SCHEMA[section][key]])
    return data


def _names_a_key(message: str, data: dict) -> bool:
    for section, table in data.items():
        if f"[{section}]" in message:
            return True
        if isinstance(table, dict) and any(f"{section}.{key}" in message for key in table):
            return True
    return False


def _usable(options: ScanOptions) -> None:
    """What the worker pool and the parser rely on: finite positive limits it can compute with."""
    for limit in (options.timeout_seconds, options.compile_timeout_seconds):
        assert isinstance(limit, float) and math.isfinite(limit) and 0 < limit <= 86_400, limit
    assert isinstance(options.max_file_bytes, int) and 0 < options.max_file_bytes <= 2**31, options.max_file_bytes
    for text in options.include_dirs + options.defines + options.exclude + (options.compile_commands,):
        assert "\x00" not in text
    for target in options.target.targets:
        assert re.fullmatch(r"gfx[0-9a-f]{3,4}[a-z0-9:+-]*", target), target


def _load(root: Path, config: bytes):
    (root / ".rocport.toml").write_bytes(config)
    try:
        return plan(root)[0]
    except ConfigError as exc:
        return exc


def _scan_runs(root: Path) -> None:
    results = list(scan(root, ScanOptions(jobs=1)))
    kernel = next(r for r in results if r.path == "src/k.cu")
    assert not kernel.error, kernel.error


@fuzz_settings(examples=300)
@given(data=configs())
def test_a_random_config_is_options_or_an_error_naming_its_key(data):
    with tempfile.TemporaryDirectory(prefix="rocport-fuzz-") as tmp:
        root = Path(tmp)
        outcome = _load(root, toml_text.document(data).encode())
        if isinstance(outcome, ConfigError):
            assert _names_a_key(str(outcome), data), (str(outcome), data)
            return
        _usable(outcome)


@fuzz_settings(examples=80)
@given(
    config_steps=st.lists(st.tuples(st.integers(0, len(MUTATIONS) - 1), st.integers(0, 2**32)), max_size=3),
    db_steps=st.lists(st.tuples(st.integers(0, len(MUTATIONS) - 1), st.integers(0, 2**32)), max_size=3),
)
def test_a_mutated_config_and_compile_db_are_options_or_a_config_error(config_steps, db_steps):
    with tempfile.TemporaryDirectory(prefix="rocport-fuzz-") as tmp:
        root = Path(tmp)
        (root / "build").mkdir()
        (root / "src").mkdir()
        (root / "src" / "k.cu").write_bytes(KERNEL)
        (root / "build" / "compile_commands.json").write_bytes(mutate(COMPILE_COMMANDS, db_steps))
        outcome = _load(root, mutate(EXAMPLE.encode(), config_steps))
        if isinstance(outcome, ConfigError):
            assert str(outcome).startswith((".rocport.toml: ", "parse.compile_commands: ")), str(outcome)
            return
        _usable(outcome)
        if not config_steps or len(config_steps) + len(db_steps) <= 1:
            _scan_runs(root)  # an accepted configuration scans (bounded: scans cost a worker start)


# TOML that no writer produces but a file may hold: numbers past int()'s 4,300 digits, nesting past the
# recursion limit, megabyte values, unterminated strings.
raw_values = st.sampled_from(
    [
        "9" * 5000,
        "-" + "1" * 4400,
        "1e" + "9" * 5000,
        "[" * 3000,
        "[" * 3000 + "]" * 3000,
        "{a = " * 2000 + "1" + "}" * 2000,
        '"' + "x" * 1_000_000 + '"',
        '"unterminated',
        "'''",
        "inf",
        "-nan",
        "0x" + "f" * 5000,
        "1979-05-27T07:32:00Z",
        "[1, 'a', {}]",
    ]
)


@fuzz_settings(examples=60)
@given(
    lines=st.lists(
        st.tuples(
            st.sampled_from(["[scan]", "[target]", "[compile]", "[parse]", "[rules]", ""]),
            st.sampled_from([k for _, k in known_keys] + ["x"]),
            raw_values,
        ),
        min_size=1,
        max_size=3,
    )
)
def test_hostile_toml_text_is_options_or_a_config_error(lines):
    text = "\n".join(f"{header}\n{key} = {raw}" for header, key, raw in lines) + "\n"
    with tempfile.TemporaryDirectory(prefix="rocport-fuzz-") as tmp:
        outcome = _load(Path(tmp), text.encode())
        if isinstance(outcome, ConfigError):
            assert str(outcome).startswith(".rocport.toml: ") and len(str(outcome)) < 400, str(outcome)[:500]
        else:
            _usable(outcome)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(["nvcc -I'unclosed", 'cc "x', "a\x00b", "-include /etc/hosts -Iinc", "../../..", "/"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
entries = st.lists(
    st.dictionaries(st.sampled_from(["directory", "file", "command", "arguments", "output"]), json_values, max_size=4)
    | json_values,
    max_size=5,
)


@fuzz_settings(examples=150)
@given(data=entries | json_values)
def test_a_random_compile_db_is_flags_or_an_error_naming_it(data):
    with tempfile.TemporaryDirectory(prefix="rocport-fuzz-") as tmp:
        root = Path(tmp)
        (root / "cc.json").write_text(json.dumps(data))
        outcome = _load(root, b'[parse]\ncompile_commands = "cc.json"\n')
        if isinstance(outcome, ConfigError):
            assert str(outcome).startswith("parse.compile_commands: "), str(outcome)


@pytest.mark.parametrize(
    "text, key",
    [
        # found by the tests above; each used to escape as another exception or to break the scan later
        ("[scan]\ntimeout_seconds = inf\n", "'scan.timeout_seconds'"),  # OverflowError in the pool's wait
        ("[scan]\ntimeout_seconds = nan\n", "'scan.timeout_seconds'"),  # no per-file timeout at all
        ("[scan]\ntimeout_seconds = 1e300\n", "'scan.timeout_seconds'"),  # OverflowError in the pool's wait
        ("[compile]\ntimeout_seconds = inf\n", "'compile.timeout_seconds'"),
        ("[scan]\nmax_file_bytes = 9223372036854775807\n", "'scan.max_file_bytes'"),  # OverflowError in read()
        ('[target]\nrocm = "' + "9" * 5000 + '.0"\n', "'target.rocm'"),  # ValueError from int()
        ('[target]\ntargets = ["gfx942\\n"]\n', "'target.targets'"),  # `$` matched before the newline
        ('[compile]\nstd = "c++17\\n"\n', "'compile.std'"),
        ('[parse]\ndefines = ["A\\u0000B"]\n', "'parse.defines'"),  # NUL cuts a compiler argument short
        ('[parse]\ncompile_commands = "/etc/hosts"\n', "'parse.compile_commands'"),  # a file outside the checkout
        ('[parse]\ncompile_commands = "../../x.json"\n', "'parse.compile_commands'"),
        ("[scan]\nmax_file_bytes = " + "9" * 5000 + "\n", "not valid TOML"),  # ValueError from tomllib
        ("[scan]\nexclude = " + "[" * 3000 + "]" * 3000 + "\n", "not valid TOML"),  # RecursionError from tomllib
    ],
)
def test_values_that_broke_the_scan_are_refused_naming_their_key(tmp_path, text, key):
    outcome = _load(tmp_path, text.encode())
    assert isinstance(outcome, ConfigError) and key in str(outcome), outcome
    assert len(str(outcome)) < 300


@pytest.mark.parametrize(
    "entry",
    [
        {"file": "a.cu", "command": "nvcc -I'unclosed"},  # ValueError from shlex
        {"file": "a.cu", "arguments": [1, 2]},  # AttributeError on int.startswith
        {"file": 5},
        {"file": "a.cu", "directory": ["x"]},  # TypeError from Path
        {"file": "a\u0000.cu", "command": "cc"},  # ValueError from resolve()
    ],
)
def test_a_malformed_compile_db_entry_is_a_config_error_naming_it(tmp_path, entry):
    (tmp_path / "cc.json").write_text(json.dumps([{"file": "ok.cu", "command": "cc -Iinc"}, entry]))
    outcome = _load(tmp_path, b'[parse]\ncompile_commands = "cc.json"\n')
    assert isinstance(outcome, ConfigError) and "entry 1" in str(outcome), outcome


def test_the_accepted_example_scans():
    with tempfile.TemporaryDirectory(prefix="rocport-fuzz-") as tmp:
        root = Path(tmp)
        (root / "build").mkdir()
        (root / "src").mkdir()
        (root / "src" / "k.cu").write_bytes(KERNEL)
        (root / "build" / "compile_commands.json").write_bytes(COMPILE_COMMANDS)
        options = _load(root, EXAMPLE.encode())
        assert isinstance(options, ScanOptions), options
        _usable(options)
        _scan_runs(root)


def test_the_toml_writer_round_trips():
    import tomllib

    data = {"scan": {'a"\\\x01\x7f': ["x", 1, 1.5, True, datetime.date(2026, 1, 2), {"k": math.inf}]}}
    assert tomllib.loads(toml_text.document(data)) == data
