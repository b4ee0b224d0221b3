"""Management commands of portal.accounts (in commands/). Nothing here: Django finds the commands by their folder."""
