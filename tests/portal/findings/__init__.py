"""Portal tests of tracked findings, their triage and rollups."""
