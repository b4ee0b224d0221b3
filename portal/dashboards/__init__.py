"""The portfolio and a repository's dashboard: migration progress, risk categories, work left, server-side SVG
charts. Reads portal.findings' rollups; writes nothing."""
