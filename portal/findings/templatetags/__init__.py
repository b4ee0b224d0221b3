"""Template filters of the findings pages (findings_text: triage labels, code spans in rule texts); they import
Django and portal.findings only."""
