"""Name the django.contrib.sites Site after the service: allauth's emails say "Hello from <site name>"."""

from urllib.parse import urlsplit

from django.apps.registry import Apps
from django.conf import settings
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def name_site(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Site = apps.get_model("sites", "Site")
    domain = urlsplit(settings.SITE_URL).netloc or "localhost"
    Site.objects.update_or_create(pk=settings.SITE_ID, defaults={"domain": domain, "name": "zarkcity"})


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("sites", "0002_alter_domain_unique"),
    ]

    operations = [migrations.RunPython(name_site, migrations.RunPython.noop)]
