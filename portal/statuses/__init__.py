"""What the portal tells the outside world about a scan: commit statuses on the git host (per repository) and
email notifications of new high-severity findings (per team)."""
