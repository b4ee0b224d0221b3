"""Downloads of a finished scan's findings: the one registry of formats (formats, built on the scanner's list in
scanner.report.formats), which findings (findings), the writers that stream them (writers), and the view (views).
Imports portal.scans' models and constants, portal.findings, portal.accounts and the scanner's report helpers;
only the scan page and the URLs import it."""
