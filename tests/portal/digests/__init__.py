"""Portal tests of the weekly digest e-mail."""
