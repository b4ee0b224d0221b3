from django.apps import AppConfig


class StatusesConfig(AppConfig):
    name = "portal.statuses"
    label = "statuses"

    def ready(self) -> None:
        from portal.statuses import receivers  # noqa: F401  (connects the scan_started / scan_ended receivers)
