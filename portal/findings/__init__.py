"""Tracked findings: their identity across rescans (tracking), triage and its history (actions), the rollups the
dashboards read, CODEOWNERS ownership. Imports portal.repositories."""
