"""Portal tests of the JSON API under /api/v1/."""
