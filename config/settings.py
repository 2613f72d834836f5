"""Settings, driven by environment variables (README.md, "Configuration").

Two run modes:
- server mode: DATABASE_URL and REDIS_URL set — PostgreSQL, Redis channel layer, Celery
  through Redis with separate worker and beat processes;
- embedded default: nothing set — SQLite file under var/, an in-process channel layer and
  an in-process Celery worker and beat started by the ASGI server (config/embedded.py).
"""

from __future__ import annotations

import logging
import os
from datetime import timedelta
from email.utils import parseaddr
from pathlib import Path
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

from config.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))

env = environ.Env()

# Set by the test configuration (tests/services.py, which pytest loads first) and so
# inherited by the processes the tests start: no SECRET_KEY needed, DEBUG off, static
# files served from the source folders, no HTTPS redirect or secure-only cookies.
TESTING = env.bool("WORDFALL_TESTING", default=False)

REDIS_URL = env.str("REDIS_URL", default="")
SERVER_MODE = bool(env.str("DATABASE_URL", default="")) and bool(REDIS_URL)
EMBEDDED = not SERVER_MODE

# Off unless asked for, in the embedded default too: players of a local site get the
# site's own error pages, not Django's debug pages (DEBUG=1 turns them on for developers).
DEBUG = env.bool("DEBUG", default=False)

_INSECURE_KEY = "embedded-insecure-key-do-not-use-in-production"
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if SERVER_MODE and not TESTING:
        raise ImproperlyConfigured("SECRET_KEY must be set in server mode (DATABASE_URL and REDIS_URL are set).")
    SECRET_KEY = _INSECURE_KEY
elif SERVER_MODE and (len(SECRET_KEY) < 50 or SECRET_KEY == _INSECURE_KEY):
    raise ImproperlyConfigured("SECRET_KEY must be a random string of at least 50 characters.")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_NAME = env.str("SITE_NAME", default="Wordfall")
# The address emails link to (no request to take it from when Celery sends them). A
# server has no address to guess: every sign-up, reset and game link would point at
# localhost, so server mode refuses to start without it.
SITE_URL = env.str("SITE_URL", default="").rstrip("/")
if not SITE_URL:
    if SERVER_MODE and not TESTING:
        raise ImproperlyConfigured(
            "SITE_URL must be set in server mode: the site's public address, e.g. https://play.example.org."
        )
    SITE_URL = f"http://localhost:{env.int('PORT', default=8000)}"

INSTALLED_APPS = [
    "daphne",
    # Before the admin: the admin ships registration/ templates (password reset, logged
    # out) that would otherwise be used instead of the site's own.
    "accounts",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "games",
    "games.hunts",
    "games.crosswords",
    "games.tow",
    "games.ratings",
    "games.tournaments",
    "api",
    "lexicon",
    "chat",
    "friends",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.errors.RefusedMiddleware",
    "config.metrics.ViewNameMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

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
                "accounts.context_processors.site",
            ],
        },
    }
]

# --- Database -------------------------------------------------------------------------
if env.str("DATABASE_URL", default=""):
    DATABASES = {"default": env.db_url("DATABASE_URL")}
    # Under daphne each request runs in a thread of its own, so a connection kept per
    # thread (conn_max_age) is one per thread that ever ran: a process held 67 under 8
    # clients. Connections come from a pool of DATABASE_POOL_SIZE per process instead
    # (Django's pool for psycopg 3, psycopg_pool); 0 opens one per request and closes it
    # after, for PgBouncer to pool. docs/scaling.md sizes it.
    DATABASE_POOL_SIZE = env.int("DATABASE_POOL_SIZE", default=10)
    if DATABASES["default"].get("CONN_MAX_AGE"):
        raise ImproperlyConfigured(
            "conn_max_age in DATABASE_URL keeps a connection per thread; remove it "
            "(connections come from a pool of DATABASE_POOL_SIZE per process)."
        )
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    if DATABASE_POOL_SIZE:
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": DATABASE_POOL_SIZE,
            # A request waits this long for a free connection before failing.
            "timeout": 10,
        }
    else:
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # A server-side cursor lives across transactions, which PgBouncer's transaction
    # pooling cannot carry: off behind it.
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = not env.bool("DATABASE_SERVER_SIDE_CURSORS", default=True)
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env.str("SQLITE_PATH", default=str(VAR_DIR / "wordfall.sqlite3")),
            # IMMEDIATE takes the write lock at BEGIN, so two writers queue instead of
            # failing with "database is locked" when one upgrades a read transaction.
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels, cache, Celery ----------------------------------------------------------
if REDIS_URL:
    # Redis pub/sub: a group broadcast is one PUBLISH that each process receives once and
    # fans out locally. The list-based RedisChannelLayer spends four Redis round trips per
    # delivered message, one after another per process, and fell seconds behind with
    # 200 hunt players (bench/bench_live_round.py).
    # Pub/sub channels are shared by the whole Redis server (the db number in REDIS_URL
    # does not separate them), so each deployment's groups carry a prefix of its own.
    CHANNEL_LAYER_PREFIX = env.str("CHANNEL_LAYER_PREFIX", default=f"wf.{DATABASES['default']['NAME']}.")
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layers.RedisChannelLayer",  # pub/sub, resyncs after a Redis restart
            # An unreachable Redis fails a send in 2 s instead of hanging it.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_connect_timeout": 2}], "prefix": CHANNEL_LAYER_PREFIX},
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "config.cache.Cache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "wf",
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    # Every request reads its session: from Redis, written through to PostgreSQL (a
    # query fewer per request; a session Redis has lost is read from the database).
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layers.EmbeddedChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # The embedded worker thread and the web server share this in-process broker.
    CELERY_BROKER_URL = "memory://"

CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# A test run on a Redis it did not start (TEST_REDIS_URL, or REDIS_URL when running
# pytest by hand) keeps to a queue and cache keys of its own, so it need not empty that
# Redis and never runs a task that an earlier run left queued there (tests/services.py).
TEST_RUN = env.str("WORDFALL_TEST_RUN", default="") if TESTING else ""
if TEST_RUN:
    CELERY_TASK_DEFAULT_QUEUE = f"wf-test-{TEST_RUN}"
    CACHES["default"]["KEY_PREFIX"] = f"wf-test-{TEST_RUN}"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Each app adds its periodic tasks here; tasks are idempotent, so a late or doubled
# beat tick is harmless.
CELERY_BEAT_SCHEDULE = {
    "presence-sweep": {"task": "accounts.tasks.sweep_presence", "schedule": 30.0},
    "sign-ups-sweep": {"task": "accounts.tasks.sweep_sign_ups", "schedule": 3600.0, "options": {"expires": 600}},
    # Sweeps redo lost work within seconds (config/celery.py); a tick queued while no
    # worker ran is useless once the next is due, so it expires.
    "hunts-sweep": {"task": "games.hunts.tasks.sweep", "schedule": 5.0, "options": {"expires": 5}},
    # A pass skips a pool another matcher holds; an old tick is useless, so it expires.
    "hunts-matchmaking": {"task": "games.hunts.tasks.match_ranked", "schedule": 1.5, "options": {"expires": 3}},
    "ratings-sweep": {"task": "games.ratings.tasks.sweep", "schedule": 5.0, "options": {"expires": 5}},
    "crossword-deadlines": {
        "task": "games.crosswords.tasks.sweep_deadlines",
        "schedule": 10.0,
        "options": {"expires": 10},
    },
    "tow-deadlines": {"task": "games.tow.tasks.sweep_deadlines", "schedule": 10.0, "options": {"expires": 10}},
    "tow-bots": {"task": "games.tow.tasks.sweep_bots", "schedule": 10.0, "options": {"expires": 10}},
    "crossword-bots": {"task": "games.crosswords.tasks.sweep_bots", "schedule": 10.0, "options": {"expires": 10}},
    # Scheduled arenas, events starting, lost game starts, rounds to pair (games.tournaments.tasks).
    "tournaments-sweep": {"task": "games.tournaments.tasks.sweep", "schedule": 5.0, "options": {"expires": 5}},
    # A pass skips an arena another pass holds; an old tick is useless, so it expires.
    "tournaments-arenas": {"task": "games.tournaments.tasks.sweep_arenas", "schedule": 2.0, "options": {"expires": 3}},
    # Unanswered invitations and seeks expire (friends.services.invitations_sweep).
    "invitations-sweep": {"task": "friends.tasks.sweep_invitations", "schedule": 60.0, "options": {"expires": 60}},
}
INVITATIONS_EXPIRE_LIVE = timedelta(minutes=env.int("INVITATIONS_EXPIRE_LIVE_MINUTES", default=30))
INVITATIONS_EXPIRE_CORRESPONDENCE = timedelta(days=env.int("INVITATIONS_EXPIRE_DAYS", default=7))

# --- Auth -----------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    # Django's default (PBKDF2, a million rounds) costs 0.28 s of CPU a password, and the
    # tests make thousands of players. PBKDF2 stays second, so its hashes still verify and a
    # test that needs the real cost can ask for it.
    PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Failed-login throttling (accounts/lockouts.py): five failures for one username from one
# address lock that pair out for a quarter of an hour, and twenty from one address across
# any usernames lock the address out.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=20)
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_HANDLER = "accounts.lockouts.LockoutHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]  # the order LockoutHandler reads
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# Reverse proxies in front of daphne whose X-Forwarded-For entries are believed
# (config/proxies.py); 0 trusts none, so the socket's peer is the client.
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
AXES_CLIENT_IP_CALLABLE = "config.proxies.request_address"

# The heaviest pages (profiles, leaderboards, replays) a player and an address may open
# in a minute (config/throttle.py).
HEAVY_PAGES_PER_USER = env.str("HEAVY_PAGES_PER_USER", default="30/m")
HEAVY_PAGES_PER_ADDRESS = env.str("HEAVY_PAGES_PER_ADDRESS", default="120/m")

# Open websockets one signed-in player may have at once, over every tab and device; a
# newer one closes the oldest (config/websocket.py).
SOCKETS_PER_USER = env.int("SOCKETS_PER_USER", default=30)

# --- Public read API (api/) ----------------------------------------------------------
API_CACHE_SECONDS = env.int("API_CACHE_SECONDS", default=30)
API_RATE_LIMIT = env.str("API_RATE_LIMIT", default="60/m")  # per client address

# --- Email ----------------------------------------------------------------------------
_email = env.email_url("EMAIL_URL", default="consolemail://")
if _email["EMAIL_BACKEND"].endswith("filebased.EmailBackend"):
    # django-environ drops the leading slash of filemail:///var/mail (an absolute path),
    # which made it a folder inside the checkout.
    _email["EMAIL_FILE_PATH"] = urlsplit(env.str("EMAIL_URL")).path
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
for _key in (
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "EMAIL_FILE_PATH",
):
    if _key in _email:
        globals()[_key] = _email[_key]
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Wordfall <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Web Push -------------------------------------------------------------------------
# The site's VAPID key (RFC 8292; `manage.py webpush_key` makes one): push services take
# a push only signed with it, and devices subscribe to the key's public half. Without
# it the site offers and sends no push.
WEBPUSH_VAPID_PRIVATE_KEY = env.str("WEBPUSH_VAPID_PRIVATE_KEY", default="")
# Who runs the site, for the push services (a mailto: or https: address).
WEBPUSH_SUBJECT = env.str("WEBPUSH_SUBJECT", default="") or f"mailto:{parseaddr(DEFAULT_FROM_EMAIL)[1]}"
# Devices one player may get pushes on; one more replaces the one subscribed longest ago.
WEBPUSH_DEVICES_PER_USER = env.int("WEBPUSH_DEVICES_PER_USER", default=10)
# Push services are reached over HTTPS; the tests' own push service is plain HTTP.
WEBPUSH_ENDPOINT_SCHEMES = ("https", "http") if TESTING else ("https",)

# --- I18n, static ---------------------------------------------------------------------
LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING or EMBEDDED
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# The embedded default serves static files from the source folders (no collectstatic).
WHITENOISE_USE_FINDERS = DEBUG or TESTING or EMBEDDED
WHITENOISE_AUTOREFRESH = DEBUG or EMBEDDED

# --- Security (server mode passes `check --deploy`) -----------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if SERVER_MODE and not DEBUG and not TESTING:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    # Load balancers and monitors probe daphne itself, over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 30)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
# Content-Security-Policy (django-csp): scripts, styles, images and sockets only from
# this site, no inline scripts or eval; style attributes stay allowed (templates and
# scripts size boards with CSS variables). docs/security.md explains each directive.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
SILENCED_SYSTEM_CHECKS = ["security.W021"] if not env.bool("SECURE_HSTS_PRELOAD", default=False) else []

# --- Metrics (config/metrics.py, docs/operations.md) ------------------------------------
# A scraper sends "Authorization: Bearer <token>"; without a token only this machine may read them.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")

# --- Error reports (config/sentry.py) ----------------------------------------------------
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    from config import sentry

    sentry.start(
        dsn=SENTRY_DSN,
        release=env.str("SENTRY_RELEASE", default="") or None,
        environment=env.str("SENTRY_ENVIRONMENT", default="production"),
        traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0),
    )

# --- Logging --------------------------------------------------------------------------
# Readable lines by default; LOG_FORMAT=json gives one JSON object a line. Either way each
# line names the request, socket or task it belongs to (config/logs.py).
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
if LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT must be text or json, not {LOG_FORMAT!r}.")
LOGGING = logging_config(json=LOG_FORMAT == "json", level=env.str("LOG_LEVEL", default="INFO"))
if LOG_FORMAT == "json":
    # Python's warnings (a library's deprecation, Celery's warning about root) as lines too.
    logging.captureWarnings(True)
