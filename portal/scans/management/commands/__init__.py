"""`manage.py scan` (queue a scan or run it in this process) and `demo` (a local demo repository, team and user,
scanned, with some triage and reviews). Imports any portal app below the pages: portal.scans, portal.repositories,
portal.accounts, portal.findings, portal.files and portal.progress."""
