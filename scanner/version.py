"""ROCport's version, as reported in JSON and SARIF output."""

TOOL_VERSION = "0.2.0"  # 0.2: files read whole (one-pass stubs, libc prelude), Latin-1 read; cached results change
