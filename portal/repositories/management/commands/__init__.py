"""`manage.py addrepo`, `rebuild_rollups` and `rotate_credentials_key`: registering a repository, rebuilding the
findings rollups and moving stored secrets onto a new key. Imports portal.repositories, portal.accounts and
portal.findings."""
