"""The translator's unconverted references and the scanner's ROC150 (no HIP equivalent) tell the same story."""

from __future__ import annotations

from scanner.nametable import is_identifier, load
from scanner.rules.api._common import names_owned_by
from tests.scanner.helpers import analyze_text
from tests.scanner.translate.helpers import hipify

ROC150_NAMES = names_owned_by("ROC150")


def test_every_name_rule_roc150_reports_is_an_unconverted_reference(tmp_path):
    table = load()
    names = sorted(n for n in ROC150_NAMES if is_identifier(n) and table.get(n) is not None)[:400]
    text = "".join(f"void f{i}() {{ auto x{i} = {name}; }}\n" for i, name in enumerate(names))
    result = analyze_text(tmp_path, text, codes=["ROC150"])
    reported = {(f.line, f.snippet.split("= ")[1].rstrip("; }")) for f in result.findings}
    translated = hipify(text, insert_runtime_header=False)
    unconverted = {(u.line, u.name) for u in translated.unconverted}
    assert reported and reported <= unconverted
    # and those names were left exactly as written
    for _, name in reported:
        assert f"= {name};" in translated.text
