from django.apps import AppConfig


class RepositoriesConfig(AppConfig):
    name = "portal.repositories"
    label = "repositories"
