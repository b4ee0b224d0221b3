"""Portal tests of migration progress, history and reports."""
