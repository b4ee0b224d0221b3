"""The weekly digest email: who asked for it (the opt-in page), what one team's week says (content) and sending it
once per team, user and week (the beat's task). Imports portal.accounts, portal.progress, portal.findings,
portal.repositories and portal.scans; no other app imports it (the URLconf includes its urls, settings names its
task)."""
