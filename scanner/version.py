"""ROCport's version, as reported in JSON and SARIF output."""

TOOL_VERSION = "0.1.0"
