"""Refuses a request that carries a NUL character (a zero byte: %00 in an address, \\u0000 in JSON) in
its path, query, cookies, form fields or JSON strings, before a view, the session or the API reads it.
No address, field or value here takes one, and a PostgreSQL text column refuses it: a query with one
would fail with a 500. The webhooks of inbound mail are let through: the replies app stores and
answers such a message (replies.reading.read_reply)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest

from api.errors import error_response

NUL = "\x00"
REFUSAL = "The request holds a NUL character (%00, or \\u0000 in JSON): no address, field or value here takes one."
FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")
MAIL_WEBHOOKS = "/email/inbound/"


class RefuseNul:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _holds_nul(request):
            if request.path.startswith("/api/"):
                return error_response("invalid_request", REFUSAL)
            return HttpResponseBadRequest(REFUSAL, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def _holds_nul(request: HttpRequest) -> bool:
    if NUL in request.path or _in_pairs(request.GET.lists()) or _in_pairs(request.COOKIES.items()):
        return True
    if request.method in ("GET", "HEAD", "OPTIONS") or request.path.startswith(MAIL_WEBHOOKS):
        return False
    if request.content_type in FORMS:
        return _in_pairs(request.POST.lists())
    if request.content_type == "application/json":
        return _nul_in_json(request)
    return False


def _in_pairs(pairs: Any) -> bool:
    return any(NUL in key or _in_value(value) for key, value in pairs)


def _in_value(value: Any) -> bool:
    """A string, a list (a query's or form's repeated field, a JSON array) or a JSON object, at any depth."""
    if isinstance(value, str):
        return NUL in value
    if isinstance(value, dict):
        return _in_pairs(value.items())
    if isinstance(value, list):
        return any(_in_value(item) for item in value)
    return False


def _nul_in_json(request: HttpRequest) -> bool:
    try:
        body = request.body
    except RequestDataTooBig:
        return False  # refused by whoever reads it (the API answers 413), not here
    if b"\\u0000" not in body and b"\x00" not in body:
        return False  # the common case: nothing to parse
    try:
        return _in_value(json.loads(body))
    except ValueError:
        return b"\x00" in body  # not JSON: the reader will refuse it; a raw zero byte is ours to refuse
