"""The weekly digest email: who asked for it (on the profile page, portal.accounts.profile), what one team's week
says (content), sending it once per team, user and week (the beat's task), and on demand (a preview, "send me now").
Imports portal.accounts, portal.progress, portal.findings, portal.repositories and portal.scans; only the profile
page imports it (besides the URLconf, which includes its urls, and settings, which names its task)."""
