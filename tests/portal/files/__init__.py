"""Portal tests of the file pages and their reviews."""
