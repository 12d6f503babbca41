from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def fill_keys(apps: Apps, schema_editor: BaseDatabaseSchemaEditor | None) -> None:
    """Every user's profile keys by the new name_key (the confusable skeleton). Only keys are written:
    two names already alike stay as they are (only new choices are refused; @username tells them apart)."""
    from accounts.selectors import name_key

    Profile, User = apps.get_model("accounts", "Profile"), apps.get_model("auth", "User")
    for user in User.objects.filter(profile__isnull=True):  # made in the shell or the admin: as profile_ensure
        Profile.objects.create(user=user)
    for profile in Profile.objects.select_related("user"):
        profile.name_key = name_key(profile.display_name) if profile.display_name else ""
        profile.username_key = name_key(profile.user.username)
        profile.save(update_fields=["name_key", "username_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_profile_bot"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="username_key",
            field=models.CharField(blank=True, db_index=True, max_length=255),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
