"""Portal tests of users, sign-in and the profile page."""
