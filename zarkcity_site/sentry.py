"""Error reporting to Sentry, started from settings only when SENTRY_DSN is set (sentry-sdk is not
even imported otherwise). Hidden information is sacred here too: a stack frame's local variables
can hold a hand or the deck, and a request body a move or a password, so neither is sent."""

from __future__ import annotations


def start_sentry(dsn: str, *, environment: str) -> None:
    import sentry_sdk  # only here: a site without SENTRY_DSN never loads it

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        send_default_pii=False,  # no user names, addresses, cookies or IPs
        include_local_variables=False,  # frames' locals: a state, a hand, a seed
        max_request_body_size="never",
        traces_sample_rate=0.0,  # errors only
    )
