"""Teams, users and roles: team isolation helpers every view uses (access), API tokens, sign-in throttling and
security headers, and the user's profile (address, language). Imports nothing of the portal's other apps but
portal.repositories (access) and, for the profile page's digest part, portal.digests (profile)."""
