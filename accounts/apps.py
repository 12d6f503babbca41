from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_migrate, post_save

        from accounts import signals  # (connects the sign-up receiver)
        from zarkcity_site import users

        # Every write of a user's row, wherever it comes from (a password changed, an account closed in the
        # admin), drops the copy each request's user is read from.
        user = get_user_model()
        post_save.connect(users.user_changed, sender=user, dispatch_uid="zarkcity_site.users.saved")
        post_delete.connect(users.user_changed, sender=user, dispatch_uid="zarkcity_site.users.deleted")

        # Every `migrate` sets the Site from ZARKCITY_SITE_URL, so a changed setting reaches feeds and
        # allauth's emails at the next deploy (a data migration runs once and would keep the old one).
        post_migrate.connect(signals.site_follows_setting, sender=self, dispatch_uid="accounts.site_follows_setting")
