"""Management commands of portal.webhooks (in commands/). Nothing here: Django finds the commands by their folder."""
