"""Downloads of a finished scan's findings: which findings (findings), the writers that stream them (writers),
and the view (views). Imports portal.scans' models and constants, portal.findings, portal.accounts and the
scanner's report helpers; only the scan pages and the URLs import it."""
