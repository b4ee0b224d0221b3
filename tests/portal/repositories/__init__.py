"""Portal tests of registration, cloning and repository settings."""
