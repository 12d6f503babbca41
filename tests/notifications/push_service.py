"""A local Web Push service for the tests: it takes the encrypted POSTs the worker makes to a
subscription's endpoint, answers as told (201, or 404/410 for a gone subscription, 500), and keeps
what it got; `Browser` holds a subscription's keys and decrypts a message with them (RFC 8291,
aes128gcm, through http_ece), as the browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    url: str
    received: list[Received] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)  # path -> status (default 201)


@dataclass
class Browser:
    """A browser's push subscription: its own P-256 key pair and auth secret, at an endpoint."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64(point)

    @property
    def auth(self) -> str:
        return b64(self.secret)

    def subscription(self) -> dict:
        """What the browser's PushSubscription.toJSON() gives."""
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def decrypt(self, message: Received) -> dict:
        clear = http_ece.decrypt(message.body, private_key=self.key, auth_secret=self.secret, version="aes128gcm")
        return json.loads(clear)


def serve() -> tuple[PushService, ThreadingHTTPServer]:
    service = PushService(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (the standard library's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            service.received.append(Received(self.path, dict(self.headers), body))
            self.send_response(service.answers.get(self.path, 201))
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return service, server
