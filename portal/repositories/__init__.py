"""Repositories a team registers: clone URLs checked before use (urlcheck), credentials encrypted at rest (crypto),
git run without a shell (git), membership and settings pages. Imports portal.accounts; the scan pipeline imports it."""
