"""Migration progress: the daily snapshots (models) and the printable reports (views); what is done, what is left
and when it will be finished is computed in portal.reporting."""
