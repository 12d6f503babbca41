"""whitenoise's static files storage, each file's address worked out once a process: the manifest of a
collected deployment does not change under a running process, and the game page asks for five
addresses on every load (the stylesheets, the scripts), each a manifest lookup, a URL join and an unquote."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFiles(CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # whitenoise has no types
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._urls: dict[tuple[str, bool, bool], str] = {}

    def url(self, name: str, force: bool = False) -> str:
        key = (name, force, settings.DEBUG)
        address = self._urls.get(key)
        if address is None:  # a missing file raises (the manifest is strict), and is asked again next time
            address = self._urls[key] = super().url(name, force)
        return address
