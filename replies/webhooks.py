"""django-anymail's inbound webhooks (Mailgun, Postmark, SendGrid, SES, ...): anymail checks the request
and parses the provider's format; we take the message's bytes to the same service as the other ways in.
The URLs are /email/inbound/<provider>/inbound/ (replies/urls.py)."""

from __future__ import annotations

from anymail.signals import AnymailInboundEvent, inbound
from django.dispatch import receiver

from . import inbox


@receiver(inbound, dispatch_uid="replies.webhooks.inbound")
def on_inbound(sender: object, event: AnymailInboundEvent, esp_name: str, **kwargs: object) -> None:
    message = event.message
    if message is None:
        return
    envelope = [message.envelope_recipient] if getattr(message, "envelope_recipient", None) else []
    inbox.inbound_accept(
        raw=message.as_bytes(),
        source=f"webhook:{esp_name}".lower(),
        envelope_to=envelope,
        envelope_from=getattr(message, "envelope_sender", None) or "",
    )
