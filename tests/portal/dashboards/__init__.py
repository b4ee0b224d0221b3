"""Portal tests of the repository dashboard and its charts."""
