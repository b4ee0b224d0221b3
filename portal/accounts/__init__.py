"""Teams, users and roles: team isolation helpers every view uses (access), API tokens, sign-in throttling and
security headers. Imports nothing of the portal's other apps."""
