"""Report writers: text for people, JSON for machines (versioned), SARIF 2.1.0 for code-scanning tools, and the
list of formats (formats.py) that the CLI's `--format` and the portal's downloads both read.

Each writer streams: `begin()`, `add(result)` per file, `end(summary)`, so memory does not grow with files.
"""
