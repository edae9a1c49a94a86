from django.apps import AppConfig


class ReaderConfig(AppConfig):
    name = "reader"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import checks  # noqa: F401 (registers the system checks)
        from . import unread_cache  # noqa: F401 (drops a user's cached feed list when a subscription changes)
