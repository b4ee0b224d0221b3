"""ROCport portal settings, from environment variables only (see .env.example for every one of them).

With no DATABASE_URL and no CELERY_BROKER_URL (a newcomer's `make run`), everything runs on embedded defaults
under var/: SQLite, and a real Celery worker on kombu's filesystem transport. Tests and production use
PostgreSQL and Redis.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import dj_database_url

from portal.env import env_bool, env_int, env_list, env_secret, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("ROCPORT_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _secret_key() -> str:
    key = env_secret("SECRET_KEY")
    if key:
        return key
    # Development default: a random key kept under var/ so sessions survive restarts.
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")

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
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
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
        DATABASES = {"default": dj_database_url.parse(_DATABASE_URL, conn_max_age=60)}
    except ValueError as exc:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {exc}") from None
else:
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": VAR_DIR / "rocport.sqlite3",
                             "OPTIONS": {"timeout": 30}}}
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
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Behind TLS in production: `manage.py check --deploy` is clean with SESSION_COOKIE_SECURE=1, SECURE_SSL_REDIRECT=1,
# SECURE_HSTS_SECONDS set and a real SECRET_KEY (tests/portal/test_security_settings.py runs it).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
# HSTS preload is an all-but-irrevocable commitment of a whole domain; a self-hosted tool does not make it for its
# owner, so the check that asks for it is silenced rather than the setting forced.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
if env_bool("SECURE_PROXY_SSL_HEADER", False):  # a TLS-terminating proxy in front sets X-Forwarded-Proto
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REFERRER_POLICY = "same-origin"
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

_BROKER = env_str("CELERY_BROKER_URL")
if _BROKER:
    CELERY_BROKER_URL = _BROKER
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": SCAN_TIME_LIMIT + 600}
else:
    _queue = VAR_DIR / "celery"
    for sub in ("out", "processed"):
        (_queue / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue / "out"),
        "data_folder_out": str(_queue / "out"),
        "data_folder_processed": str(_queue / "processed"),
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # a scan is long: never hold a second one behind it
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-scans": {"task": "portal.scans.tasks.sweep_stuck_scans", "schedule": 60.0},
    "redeliver-pending-webhooks": {"task": "portal.webhooks.tasks.redeliver_pending", "schedule": 60.0},
    "reconcile-branch-heads": {"task": "portal.webhooks.tasks.reconcile_heads", "schedule": 600.0},
}
# Publishing a task must not hang a webhook request while the broker is down: fail fast, the delivery stays
# pending and the redelivery task sends it later.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY = False

# -- Repositories and cloning -------------------------------------------------------------------------------
ROCPORT_ALLOW_LOCAL_REPOS = env_bool("ROCPORT_ALLOW_LOCAL_REPOS", False)  # file:// and paths: demo and tests
ROCPORT_ALLOW_PRIVATE_HOSTS = env_bool("ROCPORT_ALLOW_PRIVATE_HOSTS", False)  # loopback/private clone hosts
ROCPORT_CLONE_TIMEOUT = env_int("ROCPORT_CLONE_TIMEOUT", 600, minimum=1)
ROCPORT_CLONE_MAX_BYTES = env_int("ROCPORT_CLONE_MAX_BYTES", 2 * 1024**3, minimum=1024)
ROCPORT_CREDENTIALS_KEY = env_secret("ROCPORT_CREDENTIALS_KEY")
# The compile check (scanner.compile): "auto" compiles each translated file for an AMD target with hipcc when it is
# installed (ROCPORT_HIPCC, else hipcc on PATH; without one every file says "not checked" and why); "off" skips it.
ROCPORT_COMPILE_CHECK = env_str("ROCPORT_COMPILE_CHECK", "auto").strip().lower()
if ROCPORT_COMPILE_CHECK not in ("auto", "off"):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"ROCPORT_COMPILE_CHECK must be auto or off, not {ROCPORT_COMPILE_CHECK!r}")
ROCPORT_HIPCC = env_str("ROCPORT_HIPCC")
ROCPORT_SCAN_JOBS = env_int("ROCPORT_SCAN_JOBS", 1, minimum=1)
# A scan is split into shards of at most this many files / bytes of source, each a Celery task on any worker
# (portal/scans/shards.py); a repository that fits in one shard is scanned by the planning task itself.
ROCPORT_SHARD_FILES = env_int("ROCPORT_SHARD_FILES", 250, minimum=1)
ROCPORT_SHARD_BYTES = env_int("ROCPORT_SHARD_BYTES", 16 * 1024 * 1024, minimum=1024)
# A CI upload's JSON report is held in memory while it is checked and ingested (about 10x its size as objects).
ROCPORT_UPLOAD_MAX_BYTES = env_int("ROCPORT_UPLOAD_MAX_BYTES", 32 * 1024 * 1024, minimum=1024)
ROCPORT_WEBHOOK_MAX_BYTES = env_int("ROCPORT_WEBHOOK_MAX_BYTES", 25 * 1024 * 1024, minimum=1024)  # GitHub's cap
ROCPORT_WEBHOOK_PENDING_SECONDS = env_int("ROCPORT_WEBHOOK_PENDING_SECONDS", 30, minimum=1)

# -- Commit statuses and notifications ----------------------------------------------------------------------
# Links sent out of the portal (a commit status's target URL, the notification email) start with this.
ROCPORT_BASE_URL = env_str("ROCPORT_BASE_URL") or SITE_URL
ROCPORT_STATUS_TIMEOUT = env_int("ROCPORT_STATUS_TIMEOUT", 10, minimum=1)  # seconds per request to a git host
# Email through SMTP when EMAIL_HOST is set; otherwise printed by the console backend (development).
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_BACKEND = env_str("EMAIL_BACKEND") or ("django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
                                             else "django.core.mail.backends.console.EmailBackend")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_secret("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)  # an SMTP server that hangs must not hold a worker
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL") or "ROCport <rocport@localhost>"
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL are exclusive: set one of them")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
