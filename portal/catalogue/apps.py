from django.apps import AppConfig


class CatalogueConfig(AppConfig):
    name = "portal.catalogue"
    label = "catalogue"
