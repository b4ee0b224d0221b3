"""`manage.py adduser` and `createteam`: users, teams and memberships from the command line. Imports
portal.accounts only."""
