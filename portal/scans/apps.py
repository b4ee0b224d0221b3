from django.apps import AppConfig


class ScansConfig(AppConfig):
    name = "portal.scans"
    label = "scans"
