"""System checks: settings that would only fail later, in a worker, are refused at start-up."""
import sqlite3

from django.conf import settings
from django.core.checks import Error, register
from django.core.checks import Warning as CheckWarning
from django.db import connection

import extraction
from extraction.fetch import parse_networks


@register()
def extraction_method_exists(app_configs, **kwargs):
    if settings.EXTRACTION_METHOD in extraction.METHODS:
        return []
    return [Error(f"EXTRACTION_METHOD={settings.EXTRACTION_METHOD!r} is not an extraction method",
                  hint=f"choose one of: {', '.join(extraction.METHODS)}", id="reader.E001")]


@register()
def fetch_networks_parse(app_configs, **kwargs):
    try:
        parse_networks(settings.FETCH_ALLOWED_NETWORKS)
    except ValueError as exc:
        return [Error(f"FETCH_ALLOWED_NETWORKS is not a comma-separated list of networks: {exc}", id="reader.E002")]
    return []


@register()
def feed_lock_outlasts_a_fetch(app_configs, **kwargs):
    """The healing sweep releases expired locks still held, taking them for a dead task's: a lock shorter than
    the fetch's hard time limit could be released under a fetch that still runs."""
    from .tasks import fetch_feed

    if settings.FEED_LOCK_SECONDS > fetch_feed.time_limit:
        return []
    return [CheckWarning(f"FEED_LOCK_SECONDS={settings.FEED_LOCK_SECONDS} is not above fetch_feed's hard time "
                         f"limit ({fetch_feed.time_limit} s): a slow fetch's feed may be fetched twice at once",
                         id="reader.W001")]


@register()
def sqlite_returns_rows(app_configs, **kwargs):
    """"Mark all as read" keeps, for its undo, the ids its UPDATE returns (RETURNING): SQLite has it from 3.35."""
    if connection.vendor != "sqlite" or sqlite3.sqlite_version_info >= (3, 35):
        return []
    return [Error(f"SQLite {sqlite3.sqlite_version} is older than 3.35, which the reader needs (UPDATE ... RETURNING)",
                  hint="use a Python built with a newer SQLite, or PostgreSQL (DATABASE_URL)", id="reader.E003")]
