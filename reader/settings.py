"""Settings, read from environment variables (see .env.example); safe defaults for development."""
from datetime import timedelta
from pathlib import Path
import os
import secrets

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def env_bool(name: str, default: bool = False) -> bool:
    """A yes/no setting; unset or empty is the default, and anything but the usual words stops start-up (a typo
    read silently as "no" would switch off what the operator meant to switch on)."""
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw not in _TRUE + _FALSE:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a yes/no value (one of {', '.join(_TRUE + _FALSE)})")
    return raw in _TRUE


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_number(name: str, default, minimum):
    """An int or float setting (the default's type), at least minimum; a bad value stops start-up."""
    raw = os.environ.get(name, str(default)).strip()
    try:
        value = type(default)(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a{'n integer' if isinstance(default, int) else ' number'}")
    if not value >= minimum:  # also refuses nan
        raise ImproperlyConfigured(f"{name}={raw!r} must be at least {minimum}")
    return value


def _dev_secret_key() -> str:
    path = VAR_DIR / "dev-secret-key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


DEBUG = env_bool("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY") or (_dev_secret_key() if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "reader",
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
]

ROOT_URLCONF = "reader.urls"
WSGI_APPLICATION = "reader.wsgi.application"

TEMPLATES = [
    {   # the reader's pages (see reader/web/jinja.py)
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "reader.web.jinja.environment",
            "context_processors": [
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "reader.web.context_processors.csrf",
                "reader.web.context_processors.unread",
                "reader.web.context_processors.names",
            ],
        },
    },
    {   # the admin's own templates
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}"), conn_max_age=60,
        conn_health_checks=True,  # a connection reused across worker tasks is checked first (see reader/celery.py)
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Worker, beat and web share the file: wait for locks instead of failing. Tests use a file too,
    # so that a real worker process sees the test database.
    DATABASES["default"]["OPTIONS"] = {"timeout": 30, "transaction_mode": "IMMEDIATE",
                                       "init_command": "PRAGMA journal_mode=WAL;"}
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Parameters bound on the server let psycopg prepare a query the fifth time a connection runs it: PostgreSQL
    # then skips planning, which was two thirds of its work on the feed page's four-table join.
    DATABASES["default"]["OPTIONS"] = {"server_side_binding": True, "prepare_threshold": 5}
if os.environ.get("TEST_DATABASE_NAME"):
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = DEBUG
# Database sessions, read by a hand-written query (reader/web/sessions.py: every signed-in page loads one).
SESSION_ENGINE = "reader.web.sessions"

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
    SECURE_HSTS_SECONDS = env_number("SECURE_HSTS_SECONDS", 0, 0)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_PROXY") else None

# Redis when REDIS_URL is set; otherwise a broker on the local disk, so a laptop needs no server.
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL or "filesystem://")
BROKER_DIR = VAR_DIR / "broker"
if CELERY_BROKER_URL == "filesystem://":
    BROKER_DIR.mkdir(exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {"data_folder_in": str(BROKER_DIR), "data_folder_out": str(BROKER_DIR),
                                       "polling_interval": 0.2,
                                       # remote-control files belong with the messages, not in the working directory
                                       "control_folder": str(BROKER_DIR / "control")}
CELERY_TASK_ALWAYS_EAGER = False
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# Server-side fetching: private, loopback and link-local addresses are refused unless listed here.
FETCH_ALLOWED_NETWORKS = os.environ.get("FETCH_ALLOWED_NETWORKS", "")
# The bundled demo news site's address while `make run` serves it (rundemo sets it for its children): a new account's
# empty subscriptions page offers it.
DEMO_SITE_URL = os.environ.get("DEMO_SITE_URL", "")
FETCH_MAX_BYTES = env_number("FETCH_MAX_BYTES", 10 * 1024 * 1024, 1)
FETCH_TIMEOUT = env_number("FETCH_TIMEOUT", 30.0, 0.01)

EXTRACTION_METHOD = os.environ.get("EXTRACTION_METHOD", "clump")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # Django's own console handler (DEBUG only) printed every warning a second time beside the root's.
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}

# --- Ingestion: fetch limits, scheduling bounds, per-host politeness.
FETCH_CONNECT_TIMEOUT = env_number("FETCH_CONNECT_TIMEOUT", 5.0, 0.01)
FETCH_READ_TIMEOUT = env_number("FETCH_READ_TIMEOUT", 10.0, 0.01)
FETCH_MAX_REDIRECTS = env_number("FETCH_MAX_REDIRECTS", 5, 0)
# NAME=ADDRESS pairs (``*.suffix`` for subdomains) answered without DNS; for tests and benchmarks.
FETCH_STATIC_HOSTS = os.environ.get("FETCH_STATIC_HOSTS", "")
FEED_MAX_ENTRIES = env_number("FEED_MAX_ENTRIES", 500, 1)
FEED_MIN_INTERVAL = env_number("FEED_MIN_INTERVAL", 10 * 60, 1)
FEED_MAX_INTERVAL = env_number("FEED_MAX_INTERVAL", 24 * 3600, 1)
# At most this many connections at once, and this many seconds between request starts, per host name.
POLITE_MAX_CONNECTIONS = env_number("POLITE_MAX_CONNECTIONS", 2, 1)
POLITE_MIN_DELAY = env_number("POLITE_MIN_DELAY", 1.0, 0.0)
# Literal loopback names are the demo site and test fixtures, not someone else's server.
POLITE_EXEMPT_HOSTS = env_list("POLITE_EXEMPT_HOSTS", "localhost,127.0.0.1,::1")

# --- Self-healing after worker death: what a killed worker or its broker lost is queued again.
# A feed fetch holds its feed's lock this long: it must outlast fetch_feed's hard time limit (150 s), so that a
# lock past it belongs to a dead task, which the healing sweep releases and whose feed it queues again.
FEED_LOCK_SECONDS = env_number("FEED_LOCK_SECONDS", 180, 1)
# A feed queued by the beat and not fetched within this many seconds is queued again by the beat.
FEED_REQUEUE_AFTER = env_number("FEED_REQUEUE_AFTER", 300, 1)
# The sweep runs this often (seconds); a story still pending this many seconds after its page task was due is
# queued again, at most HEAL_PAGE_MAX_REQUEUES times, then marked failed. Longer than a page task's hard time
# limit (90 s) plus the time a page waits in a busy queue, or a healthy page would be queued twice.
HEAL_EVERY = env_number("HEAL_EVERY", 60.0, 0.1)
HEAL_PAGE_AFTER = env_number("HEAL_PAGE_AFTER", 600, 1)
HEAL_PAGE_MAX_REQUEUES = env_number("HEAL_PAGE_MAX_REQUEUES", 3, 0)

# --- Web pages and JSON API: cache for rate limits, Content-Security-Policy, the public extraction demo.
# Redis when REDIS_URL is set, so every web process shares the rate-limit counters; else per process.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": "reader"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
MIDDLEWARE.insert(1, "reader.web.middleware.ContentSecurityPolicyMiddleware")
# Anonymous POST /api/extract: at most this many requests per client per window (seconds).
EXTRACT_RATE_LIMIT = env_number("EXTRACT_RATE_LIMIT", 20, 1)
EXTRACT_RATE_WINDOW = env_number("EXTRACT_RATE_WINDOW", 60, 1)
# The client address for rate limits comes from X-Forwarded-For only behind a trusted proxy.
CLIENT_IP_FROM_PROXY = env_bool("BEHIND_PROXY")
CSRF_FAILURE_VIEW = "reader.web.api.csrf_failure"

# --- HTTPS deployment and broker: the rest of an HTTPS deployment's settings, from the environment (off by default,
# as they bind every subdomain to HTTPS); with these set, `manage.py check --deploy` has nothing to warn about.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD")
# A message taken by a worker that then dies whole (kill -9, power loss) returns to the Redis queue after this
# many seconds. It must outlast the longest countdown a task waits in a worker (retries, and pages waiting for
# their host's booked turn: about 1,000 s for a 2,000-page queue on one host), or a waiting message would be
# handed to a second worker too (harmless, tasks are idempotent, but wasted); shorter means faster recovery.
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_number("BROKER_VISIBILITY_TIMEOUT", 1800, 1)}

# --- Web requests' bounds: every request's work is bounded, and a person never waits on the crawl.
# A fetch for a web request (the widget, subscribing) gets this total deadline, and waits at most WEB_HOST_WAIT
# for a free connection to the host; it books no turn on the crawl's calendar.
WEB_FETCH_TIMEOUT = env_number("WEB_FETCH_TIMEOUT", 10.0, 0.1)
WEB_HOST_WAIT = env_number("WEB_HOST_WAIT", 2.0, 0.0)
# Discovery (a page's feed links, then the usual feed paths) stops after this many seconds in all.
DISCOVERY_TIMEOUT = env_number("DISCOVERY_TIMEOUT", 20.0, 0.1)
# The public extractor: pages (pasted or fetched) up to this size, and comparing every method only on smaller ones.
EXTRACT_MAX_HTML_BYTES = env_number("EXTRACT_MAX_HTML_BYTES", 1024 * 1024, 1)
EXTRACT_COMPARE_MAX_BYTES = env_number("EXTRACT_COMPARE_MAX_BYTES", 256 * 1024, 1)
# A user follows at most this many feeds (subscribing and OPML import stop there).
MAX_FEEDS_PER_USER = env_number("MAX_FEEDS_PER_USER", 5000, 1)
# OPML import runs as a task, subscribing and queueing fetches this many feeds at a time.
OPML_IMPORT_BATCH = env_number("OPML_IMPORT_BATCH", 500, 1)
# Behind a proxy, the client is the address the last TRUSTED_PROXY_HOPS proxies saw: that many entries from the
# right of X-Forwarded-For (each proxy appends the address it received the request from).
TRUSTED_PROXY_HOPS = env_number("TRUSTED_PROXY_HOPS", 1, 1)
# Login throttling (django-axes): after LOGIN_FAILURE_LIMIT failed logins, the account is locked, and so is the
# address, each on its own, for LOGIN_LOCKOUT_MINUTES; a successful login resets the count.
INSTALLED_APPS.append("axes")
AUTHENTICATION_BACKENDS = ["reader.web.ratelimit.LoginThrottleBackend", "django.contrib.auth.backends.ModelBackend"]
MIDDLEWARE.append("axes.middleware.AxesMiddleware")
AXES_FAILURE_LIMIT = env_number("LOGIN_FAILURE_LIMIT", 10, 1)
AXES_COOLOFF_TIME = timedelta(minutes=env_number("LOGIN_LOCKOUT_MINUTES", 15.0, 0.1))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # each counted on its own
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "reader.web.ratelimit.client_address"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The Google Reader API's ClientLogin counts toward the same lockouts; its password field is Passwd, which axes
# must mask like "password" in the attempts it stores.
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "Passwd"]
# A 502 or 504 from the public extractor that the fetched site caused is a warning in the log, not our error.
LOGGING.setdefault("filters", {})["site_faults"] = {"()": "reader.web.api_errors.SiteFaultsAsWarnings"}
LOGGING.setdefault("loggers", {}).setdefault("django.request", {}).setdefault("filters", []).append("site_faults")
# django-axes logs every successful login's reset at INFO; its lockouts are warnings, and those are kept.
AXES_VERBOSE = False
LOGGING["loggers"]["axes"] = {"level": "WARNING"}
if CELERY_BROKER_URL == "filesystem://":
    # The disk broker has no host, so kombu warned "No hostname was supplied" on every start, the first line of
    # `make run`; there is no network connection for it to warn about.
    LOGGING["loggers"]["kombu.connection"] = {"level": "ERROR"}

# --- "Refresh now": per user, at most REFRESH_RATE_LIMIT presses in REFRESH_RATE_WINDOW seconds;
# feeds fetched in the last REFRESH_MIN_AGE seconds are not fetched again.
REFRESH_RATE_LIMIT = env_number("REFRESH_RATE_LIMIT", 3, 1)
REFRESH_RATE_WINDOW = env_number("REFRESH_RATE_WINDOW", 300, 1)
REFRESH_MIN_AGE = env_number("REFRESH_MIN_AGE", 60, 0)

# --- Google Reader API (sync apps): at most GREADER_RATE_LIMIT calls per GREADER_RATE_WINDOW seconds per user.
# A sync is a few calls plus one per 1,000 items; an app that marks stories one at a time makes one call each.
GREADER_RATE_LIMIT = env_number("GREADER_RATE_LIMIT", 600, 1)
GREADER_RATE_WINDOW = env_number("GREADER_RATE_WINDOW", 60, 1)
