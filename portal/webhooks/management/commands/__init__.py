"""`manage.py webhook_maintenance`: run the periodic webhook tasks (redeliver pending deliveries, reconcile branch
heads) once, now. Imports portal.webhooks only."""
