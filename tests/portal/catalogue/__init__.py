"""Portal tests of the rule catalogue and its translations."""
