"""Every model change has its migration: a new game's option adds an archive index (archive/models.py,
option_indexes), and without its migration production would never build it (Homeworlds' three did not)."""

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_lacks_a_migration() -> None:
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit:  # --check exits non-zero when a migration is missing
        pytest.fail(f"makemigrations --check found changes without a migration:\n{out.getvalue()} ({exit})")
