"""Management commands of portal.repositories (in commands/). Nothing here: Django finds the commands by their
folder."""
