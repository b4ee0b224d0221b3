from django.apps import AppConfig


class FindingsConfig(AppConfig):
    name = "portal.findings"
    label = "findings"
