"""Settings from environment variables with safe defaults.

Unset, everything runs embedded: SQLite in var/, a filesystem broker in var/broker
(zarkcity_site/broker.py), a file cache in var/cache, email to the console. Production sets
DJANGO_DEBUG=0, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, DATABASE_URL (PostgreSQL), REDIS_URL and the
email settings (docs/deployment.md).
"""

from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from engine import registry
from zarkcity_site.env import env_bool, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("ZARKCITY_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = env_str("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me" if DEBUG else "")
if not DEBUG and not SECRET_KEY.strip():
    # Sessions, password-reset and invitation links are all signed with it: refuse to start without one.
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set (a long random string) when DJANGO_DEBUG=0")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
SITE_URL = env_str("ZARKCITY_SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "allauth",
    "allauth.account",
    "csp",
    "accounts",
    "games",
    "archive",
    "notifications",
    "anymail",  # inbound webhooks of mail providers, for moves by email
    "replies",
    "ninja",  # the API's docs page serves its scripts from our static files (the CSP allows no CDN)
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # Content-Security-Policy on every response, below
    "zarkcity_site.badinput.RefuseNul",  # a NUL in the address, a field or JSON: 400 before anything reads it
    "zarkcity_site.middleware.NoStoreHands",  # pages and JSON that show a hand: private, no-store
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "zarkcity_site.users.CachedUserMiddleware",  # Django's, the user read through the cache (users.py)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "notifications.middleware.LinkSessionGuard",  # a session from an email's play link: no account pages
]

ROOT_URLCONF = "zarkcity_site.urls"
WSGI_APPLICATION = "zarkcity_site.wsgi.application"
SITE_ID = 1

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.turns",  # the tab title's count of games waiting for your move
            ],
        },
    },
]

# An empty DATABASE_URL (an env file's `DATABASE_URL=`) is unset, as an empty REDIS_URL is: SQLite in var/.
try:
    _default_database = dj_database_url.parse(
        env_str("DATABASE_URL", "") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        # A kept connection can die between requests (a PostgreSQL restart or failover terminates every
        # backend): check it before its first use in a request or task and reconnect, instead of
        # answering one 500 per worker (tests/ops/test_connection_health_postgres.py).
        conn_health_checks=True,
    )
except ValueError as error:  # an unknown scheme: name the setting, never echo the URL (it holds a password)
    raise ImproperlyConfigured(f"DATABASE_URL: {error}") from None
DATABASES = {"default": _default_database}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("ZARKCITY_PG_PREPARED", True):
    # PostgreSQL parses the statements a connection runs again and again once, not at every run (and plans
    # them once, where a generic plan serves): the values go apart from the SQL (server-side binding), and
    # psycopg prepares a statement the fifth time its connection runs it (prepare_threshold: Django turns
    # preparing off by default, for poolers).
    # Behind a pooler in transaction mode (pgbouncer's pool_mode = transaction) named statements break:
    # set ZARKCITY_PG_PREPARED=0 there (docs/deployment.md, "PostgreSQL's prepared statements").
    DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=5)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a busy writer instead of failing at once: the worker and the web process share the file.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # A transaction that reads, then writes, cannot wait for the lock (SQLite fails it at once with
    # "database is locked"): take the write lock at BEGIN. WAL lets the worker read while the web writes.
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "dashboard"

# django-allauth: sign up with email and password, email verified by a signed link.
ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[zarkcity] "
# Only in the browser that signed up (allauth checks the session), so a leaked link logs nobody in.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# That pending login lives as long as the link (allauth's default is 15 minutes, after which confirming
# silently asked for the password again though the "check your email" page promised a login).
ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS = 3
ACCOUNT_LOGIN_TIMEOUT = ACCOUNT_EMAIL_CONFIRMATION_EXPIRE_DAYS * 24 * 3600
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# The site's own files, and each game package's static/ (its board script and style, Package.script
# and Package.style) under games/<id>/ (engine/kit/package.py).
STATICFILES_DIRS: list[Any] = [
    BASE_DIR / "static",
    *((package.static_prefix, package.static_folder) for package in registry.packages() if package.has_static),
]
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "zarkcity_site.static.StaticFiles"  # whitenoise's, each address worked out once
    },
}

# Email: on the embedded default a local mailbox (one .eml per message in var/mail, listed at /dev/mail/,
# and a line on the console); SMTP (or django-anymail) by configuration: docs/notifications.md.
EMAIL_BACKEND = env_str("DJANGO_EMAIL_BACKEND", "notifications.backends.DevMailboxBackend")
EMAIL_FILE_PATH = str(VAR_DIR / "mail")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = int(env_str("EMAIL_PORT", "25"))
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = int(env_str("EMAIL_TIMEOUT", "10"))  # seconds per SMTP operation: well inside a claim's life
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Zark City <noreply@localhost>")

# The shared cache: allauth's rate limits (login, sign-up, password reset), ours (zarkcity_site/ratelimit.py)
# and the last sweep's time count here, so they hold across gunicorn workers and restarts. Redis when
# REDIS_URL is set (ZARKCITY_CACHE_URL picks another database), else files under the var dir.
REDIS_URL = env_str("REDIS_URL", "")
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's, keeping its Redis client instead of making one per call (zarkcity_site/cache.py).
            "BACKEND": "zarkcity_site.cache.RedisCache",
            "LOCATION": env_str("ZARKCITY_CACHE_URL", REDIS_URL),
            "KEY_PREFIX": "zarkcity",  # beside Celery's keys on a shared Redis; never cache.clear() there
            # A Redis that is down or unreachable fails each call within a second or two instead of
            # hanging the request: the sessions, the poll and the rate limits then fall back.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
            "OPTIONS": {"MAX_ENTRIES": 20000},
        }
    }
# Sessions: read from that cache, written to the database too (zarkcity_site/sessions.py): every page
# and move no longer reads its session row, and a cache that is down signs nobody out. A cached copy
# lives at most SESSION_CACHE_SECONDS (docs/deployment.md, "Sessions").
SESSION_ENGINE = "zarkcity_site.sessions"
SESSION_CACHE_SECONDS = int(env_str("ZARKCITY_SESSION_CACHE_SECONDS", "300"))
# The signed-in user's cached copy lives at most this long (zarkcity_site/users.py): the bound on a copy
# whose drop failed when its password changed or its account was closed.
USER_CACHE_SECONDS = int(env_str("ZARKCITY_USER_CACHE_SECONDS", "300"))
# The client address allauth and our limits count by: the Nth address from the right of X-Forwarded-For
# behind N trusted proxies (1 behind one TLS proxy); 0 reads REMOTE_ADDR.
ALLAUTH_TRUSTED_PROXY_COUNT = int(env_str("ZARKCITY_TRUSTED_PROXY_COUNT", "0"))
# Our limits (action -> "N/period", per signed-in user, or per client address when signed out).
RATE_LIMITS = {
    "admin_login": env_str("RATE_LIMIT_ADMIN_LOGIN", "10/5m"),  # per address
    "admin_login_user": env_str("RATE_LIMIT_ADMIN_LOGIN_USER", "5/5m"),  # per username tried
    "invite": env_str("RATE_LIMIT_INVITE", "30/h"),
    "chat": env_str("RATE_LIMIT_CHAT", "20/m"),
    "move": env_str("RATE_LIMIT_MOVE", "60/m"),
    # Replies by email (docs/email-moves.md): per From address and per reply address; past them, no answer.
    "reply_sender": env_str("RATE_LIMIT_REPLY_SENDER", "30/h"),
    "reply_token": env_str("RATE_LIMIT_REPLY_TOKEN", "10/h"),
    # The JSON API (docs/api.md): requests per personal access token.
    "api": env_str("RATE_LIMIT_API", "120/m"),
}
# The API's event feed answers up to this many seconds ago, so a write still committing is never skipped.
API_EVENTS_SETTLE_SECONDS = float(env_str("ZARKCITY_API_EVENTS_SETTLE_SECONDS", "2"))

# Celery: Redis when REDIS_URL is set, else a broker that needs no server (kombu's filesystem transport).
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    # kombu's Redis transport, its publishing client kept (zarkcity_site/redis_broker.py).
    CELERY_BROKER_TRANSPORT = "zarkcity_site.redis_broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        # A web request that queues an email must not hang on a dead Redis: fail fast, the outbox row
        # stays pending and the sweep re-queues it (docs/notifications.md). Workers retry on their own.
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.2,
        "interval_max": 0.2,
        # Unacknowledged tasks come back after this long; no countdown here comes near it (retries <= 15 min).
        "visibility_timeout": 3600,
    }
else:
    CELERY_BROKER_URL = "filesystem://"
    # kombu's filesystem transport with atomic writes: the stock one lets a worker read a message
    # before it is written, and the worker dies (zarkcity_site/broker.py).
    CELERY_BROKER_TRANSPORT = "zarkcity_site.broker:Transport"
    _broker_dir = VAR_DIR / "broker"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "processed_folder": str(VAR_DIR / "broker-processed"),
        "taken_folder": str(VAR_DIR / "broker-processed"),  # same file system as var/broker: a rename
        "quarantine_folder": str(VAR_DIR / "broker-quarantine"),
        "control_folder": str(VAR_DIR / "broker-control"),
        "store_processed": False,
    }
    # kombu's filesystem transport fails on a missing folder: a fresh clone (or a new
    # ZARKCITY_VAR_DIR) must be able to queue its first email without a setup step.
    for _folder in ("broker", "broker-processed", "broker-control"):
        (VAR_DIR / _folder).mkdir(parents=True, exist_ok=True)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Unset, Celery's Django fixup closes the worker's database connection before and after every task: a
# new PostgreSQL connection (and server process) for every email. Set, it closes one only every this
# many tasks, and zarkcity_site/celery.py closes one that is broken or older than CONN_MAX_AGE around
# each task, as Django does around each request.
CELERY_DB_REUSE_MAX = 1000
# A pool process whose resident memory has passed this many MB is replaced after its task (prefork
# pools only; Celery reads the process's peak RSS, in KiB). A ceiling twice the plateau measured
# (docs/performance.md, "Memory": 150-205 MB, librsvg and the caches included), so it never fires in
# normal running and bounds a leak, should one come (a library's, a board far larger than any today).
# 0: no ceiling.
CELERY_WORKER_MAX_MEMORY_PER_CHILD = int(env_str("ZARKCITY_WORKER_MAX_MEMORY_MB", "400")) * 1024 or None
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Modules of tasks beyond each app's tasks.py (which autodiscovery finds): the entry points beat runs,
# kept apart from the tasks their sweeps queue so that no module imports the one importing it.
# Their task names stay "<app>.tasks.sweep": the schedule and messages already queued carry them.
CELERY_IMPORTS = ("notifications.beat", "replies.beat")
CELERY_BEAT_SCHEDULE = {
    # Deadlines, reminders and digests are database columns swept every minute, not long countdowns
    # on the broker (Redis redelivers anything unacknowledged after its visibility timeout).
    "notifications-sweep": {"task": "notifications.tasks.sweep", "schedule": 60.0},
    # Emails held by a worker that died: back to the broker within STALE_CLAIM + 15 s (45 s), not a minute later.
    "notifications-requeue": {"task": "zarkcity_site.requeue_outbox", "schedule": 15.0},
    # Replies the broker lost go back to it; raw messages past REPLIES_KEEP_DAYS are deleted.
    "replies-sweep": {"task": "replies.tasks.sweep", "schedule": 300.0},
    # Bot turns whose task was lost (games/bot_turns.py) are queued again.
    "games-bot-sweep": {"task": "games.tasks.bot_sweep", "schedule": 60.0},
}

# Bots at the table (docs/bots-in-games.md): how hard a bot searches each move, 1.0 being the engine's
# full strength (about a second a move for MCTS); tests set it tiny.
ZARKCITY_BOT_EFFORT = float(env_str("ZARKCITY_BOT_EFFORT", "1.0"))
# The queue bot turns go to: the default one, or e.g. "bots" served by a worker of its own (-Q bots), so
# a second of search never holds up an email.
ZARKCITY_BOT_QUEUE = env_str("ZARKCITY_BOT_QUEUE", "celery")

# Notifications (docs/notifications.md).
NOTIFICATIONS_MAX_ATTEMPTS = int(env_str("NOTIFICATIONS_MAX_ATTEMPTS", "6"))  # SMTP tries before "failed"
NOTIFICATIONS_RETRY_BASE_SECONDS = int(env_str("NOTIFICATIONS_RETRY_BASE_SECONDS", "30"))  # doubles each try
NOTIFICATIONS_REQUEUE_AFTER_SECONDS = int(env_str("NOTIFICATIONS_REQUEUE_AFTER_SECONDS", "120"))
# A claim older than this belongs to a worker that died. Sending takes at most a few EMAIL_TIMEOUTs;
# a live send outlasting it is sent twice (same Message-ID), never lost.
NOTIFICATIONS_STALE_CLAIM_SECONDS = int(env_str("NOTIFICATIONS_STALE_CLAIM_SECONDS", "30"))
NOTIFICATIONS_PLAY_LINK_DAYS = int(env_str("NOTIFICATIONS_PLAY_LINK_DAYS", "14"))
NOTIFICATIONS_DIGEST_HOUR = int(env_str("NOTIFICATIONS_DIGEST_HOUR", "8"))  # local time of the daily digest
NOTIFICATIONS_MAX_AWAY_DAYS = int(env_str("NOTIFICATIONS_MAX_AWAY_DAYS", "30"))  # one period away, at most
NOTIFICATIONS_AWAY_HORIZON_DAYS = int(env_str("NOTIFICATIONS_AWAY_HORIZON_DAYS", "60"))  # last day away, from today
NOTIFICATIONS_AWAY_DAYS_PER_YEAR = int(env_str("NOTIFICATIONS_AWAY_DAYS_PER_YEAR", "45"))  # in any 365 days
# How often an open game page polls ply.json (static/js/game_page.js is handed it by the page).
ZARKCITY_POLL_SECONDS = 10
# Quiet while you watch (docs/notifications.md): a game page's poll less than WATCH_SECONDS old means its
# player is watching; their turn email then waits until GRACE_SECONDS after their turn began.
NOTIFICATIONS_WATCH_SECONDS = int(env_str("NOTIFICATIONS_WATCH_SECONDS", "30"))  # three polls of 10 s
NOTIFICATIONS_WATCH_GRACE_SECONDS = int(env_str("NOTIFICATIONS_WATCH_GRACE_SECONDS", "240"))
NOTIFICATIONS_QUEUE = env_str("NOTIFICATIONS_QUEUE", "celery")  # the queue deliveries go to (workers: -Q)
# Web Push (docs/notifications.md, docs/deployment.md): the VAPID private key, base64url of its 32 bytes
# (`python manage.py vapid_key` makes one). Without it there is no push and the settings page offers none,
# except in the embedded default (DEBUG), which makes its own key once and keeps it in var/.
WEBPUSH_VAPID_PRIVATE_KEY = env_str("WEBPUSH_VAPID_PRIVATE_KEY", "")
WEBPUSH_MAKE_KEY = env_bool("WEBPUSH_MAKE_KEY", DEBUG)
WEBPUSH_KEY_FILE = str(VAR_DIR / "vapid-private-key")
WEBPUSH_VAPID_SUBJECT = env_str("WEBPUSH_VAPID_SUBJECT", "mailto:" + DEFAULT_FROM_EMAIL.rsplit("<", 1)[-1].rstrip(">"))
# The push services a browser's subscription may name (an https origin, or ".suffix" of an https host):
# the worker POSTs to that address, so it must be a push service, never a host inside our network.
WEBPUSH_PUSH_SERVICES = env_list(
    "WEBPUSH_PUSH_SERVICES",
    [
        "https://fcm.googleapis.com",
        "https://updates.push.services.mozilla.com",
        "https://web.push.apple.com",
        ".notify.windows.com",
    ],
)
WEBPUSH_TIMEOUT_SECONDS = float(env_str("WEBPUSH_TIMEOUT_SECONDS", "5"))  # a slow push service holds no email long

# Moves by email (docs/email-moves.md): turn emails' Reply-To is play+TOKEN@REPLIES_DOMAIN.
REPLIES_DOMAIN = env_str("ZARKCITY_REPLY_DOMAIN", "localhost")
REPLIES_LOCAL_PART = env_str("ZARKCITY_REPLY_LOCAL_PART", "play")
REPLIES_MAX_MESSAGE_BYTES = int(env_str("REPLIES_MAX_MESSAGE_BYTES", str(2 * 1024 * 1024)))  # bigger: refused
REPLIES_KEEP_DAYS = int(env_str("REPLIES_KEEP_DAYS", "14"))  # raw messages and our answers, then deleted
REPLIES_RESIGN_CONFIRM_HOURS = int(env_str("REPLIES_RESIGN_CONFIRM_HOURS", "48"))
REPLIES_ANSWER_ATTEMPTS = int(env_str("REPLIES_ANSWER_ATTEMPTS", "6"))  # sending an answer, before "failed"
# django-anymail's inbound webhooks check HTTP basic auth "user:password" (set it in the provider's URL) and,
# for providers that sign their requests, the signing key (Mailgun's here; others: docs/email-moves.md).
ANYMAIL = {
    name: value
    for name, value in {
        "WEBHOOK_SECRET": env_str("ANYMAIL_WEBHOOK_SECRET", ""),
        "MAILGUN_WEBHOOK_SIGNING_KEY": env_str("ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY", ""),
    }.items()
    if value
}

# Production hardening: on whenever DEBUG is off, so `manage.py check --deploy` is clean.
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_REDIRECT_EXEMPT = [r"^health$"]  # a load balancer's plain-HTTP probe gets the answer, not a redirect
    # Secure cookies never travel over plain HTTP: a local production-like check without TLS turns them
    # off with DJANGO_SECURE_COOKIES=0 (docs/deployment.md); `check --deploy` then warns, as it should.
    SECURE_COOKIES = env_bool("DJANGO_SECURE_COOKIES", True)
    SESSION_COOKIE_SECURE = SECURE_COOKIES
    CSRF_COOKIE_SECURE = SECURE_COOKIES
    SECURE_HSTS_SECONDS = int(env_str("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if SECURE_COOKIES else "http"  # allauth's links in emails

# Content-Security-Policy (django-csp): scripts only from our static files, no inline script or
# handler. Inline style stays allowed: the board SVGs and a few templates carry style attributes.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# /health answers 503 when the oldest due email or the last sweep is older than these.
HEALTH_OUTBOX_MAX_AGE_SECONDS = int(env_str("HEALTH_OUTBOX_MAX_AGE_SECONDS", "900"))
HEALTH_SWEEP_MAX_AGE_SECONDS = int(env_str("HEALTH_SWEEP_MAX_AGE_SECONDS", "300"))

# Error reporting to Sentry, only when SENTRY_DSN is set (zarkcity_site/sentry.py).
SENTRY_DSN = env_str("SENTRY_DSN", "")
if SENTRY_DSN:
    from zarkcity_site.sentry import start_sentry

    start_sentry(SENTRY_DSN, environment=env_str("SENTRY_ENVIRONMENT", "production"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
}
