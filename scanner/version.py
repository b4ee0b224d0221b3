"""ROCport's version, as reported in JSON and SARIF output."""

TOOL_VERSION = "0.3.0"  # 0.3: rule names <family>-<module> (cached results carry names); 0.2: files read whole
