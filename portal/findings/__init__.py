"""Tracked findings: their identity across rescans (tracking), triage and its history (actions), the findings list
and page, CODEOWNERS ownership. Imports portal.repositories and portal.reporting (the rollups that ingestion and
triage move)."""
