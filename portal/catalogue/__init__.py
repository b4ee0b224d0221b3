"""The rule catalogue pages: every rule's documentation from the scanner, with the team's severity for its target."""
