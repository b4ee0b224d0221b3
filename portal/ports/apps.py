from django.apps import AppConfig


class PortsConfig(AppConfig):
    name = "portal.ports"
    label = "ports"
