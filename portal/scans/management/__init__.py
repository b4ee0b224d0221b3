"""Management commands of portal.scans (in commands/). Nothing here: Django finds the commands by their folder."""
