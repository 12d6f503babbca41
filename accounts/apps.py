from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from accounts import signals  # (connects the sign-up receiver)

        # Every `migrate` sets the Site from ZARKCITY_SITE_URL, so a changed setting reaches feeds and
        # allauth's emails at the next deploy (a data migration runs once and would keep the old one).
        post_migrate.connect(signals.site_follows_setting, sender=self, dispatch_uid="accounts.site_follows_setting")
