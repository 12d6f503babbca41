"""The embedded default's broker: kombu's filesystem transport, without its two races.

kombu 5.7's filesystem transport opens a message file under its final name and only then writes
it, so a consumer that lists the folder in between moves away an empty file, fails to decode it
and the worker dies ("Unrecoverable error: JSONDecodeError"). Here a message is written under a
name no consumer looks at and renamed into place (a rename within one folder is atomic on POSIX):
a consumer sees the whole message or nothing. Taking a message is a rename into a folder of our
own under the var dir, never a copy into /tmp (shutil.move copies across file systems, and two
consumers could both take the copy). A file that still does not decode (left by an older version,
a full disk) is set aside in the quarantine folder with an error in the log, not fatal.
"""

from __future__ import annotations

import logging
import os
import uuid
from pathlib import Path
from queue import Empty
from time import monotonic_ns
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.json import dumps, loads

log = logging.getLogger(__name__)
PARTIAL = ".partial"  # a message being written: "<name>.<queue>.msg.partial" never matches "<queue>.msg"


class Channel(filesystem.Channel):
    # kombu's filesystem.Channel calls AbstractChannel's `message` `payload`: no name fits both.
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        # Consumers take names in sorted order: a fixed-width nanosecond prefix keeps it oldest first
        # (kombu's milliseconds tie within a burst), the uuid keeps names unique.
        name = f"{monotonic_ns():020d}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + PARTIAL
        try:
            with open(partial, "wb") as f:
                f.write(dumps(payload).encode())  # type: ignore[no-untyped-call]  # kombu's json is untyped
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def _get(self, queue: str, timeout: float | None = None) -> dict[str, Any]:  # never waits: files are polled
        wanted = f"{queue}.msg"
        for name in sorted(os.listdir(self.data_folder_in)):
            if name.partition(".")[2] != wanted:
                continue
            taken = self._take(name)
            if taken is None:
                continue  # another consumer renamed it first
            payload = self._read(taken)
            if payload is not None:
                return payload
        raise Empty()

    def _take(self, name: str) -> Path | None:
        taken = self.taken_folder / name
        try:
            os.rename(os.path.join(self.data_folder_in, name), taken)
        except FileNotFoundError:
            return None
        return taken

    def _read(self, taken: Path) -> dict[str, Any] | None:
        try:
            payload: dict[str, Any] = loads(taken.read_bytes().decode())  # type: ignore[no-untyped-call]  # as above
        except (OSError, ValueError) as error:
            self.quarantine_folder.mkdir(parents=True, exist_ok=True)
            os.replace(taken, self.quarantine_folder / taken.name)
            log.error("broker: set aside unreadable message %s: %r", taken.name, error)
            return None
        taken.unlink()
        return payload

    @property
    def taken_folder(self) -> Path:
        folder = Path(self.transport_options.get("taken_folder", self.processed_folder))
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    @property
    def quarantine_folder(self) -> Path:
        return Path(self.transport_options.get("quarantine_folder", f"{self.data_folder_in}-quarantine"))


class Transport(filesystem.Transport):
    Channel = Channel

    @property
    def default_connection_params(self) -> dict[str, object]:
        # Folders, not a server: no host to fall back on. kombu's virtual transports default the
        # hostname to "localhost", and a broker URL without one ("filesystem://") then makes every
        # connection warn "No hostname was supplied" (the worker, each `manage.py receive_email`).
        return {"port": self.default_port}
