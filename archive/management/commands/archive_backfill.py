"""Archive finished games that have no archive row yet (after a deploy that added the archive, say)."""

from django.core.management.base import BaseCommand

from archive.services import archive_backfill


class Command(BaseCommand):
    help = "Write the archive summary and rating changes of every finished game not archived yet, oldest first."

    def handle(self, *args: object, **options: object) -> None:
        count = archive_backfill()
        self.stdout.write(f"archived {count} game(s)")
