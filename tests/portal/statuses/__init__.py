"""Portal tests of commit statuses and notifications."""
