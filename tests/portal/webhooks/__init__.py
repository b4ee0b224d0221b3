"""Portal tests of webhook deliveries from the git hosts."""
