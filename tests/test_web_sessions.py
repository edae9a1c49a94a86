"""The session store (reader/web/sessions.py) reads a session as Django's database store does: the live one by its
key, and nothing for an expired or unknown key, which then gets a new key when saved."""
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from reader.web.sessions import SessionStore

pytestmark = pytest.mark.django_db


def saved(data: dict) -> str:
    store = SessionStore()
    store.update(data)
    store.save()
    return store.session_key


def test_the_site_uses_it():
    assert settings.SESSION_ENGINE == "reader.web.sessions"


def test_a_live_session_loads_as_django_loads_it():
    key = saved({"colour": "green", "count": 3})
    assert SessionStore(key).load() == DjangoStore(key).load() == {"colour": "green", "count": 3}


def test_an_expired_session_is_not_loaded_and_its_key_is_dropped():
    key = saved({"colour": "green"})
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    store = SessionStore(key)
    assert store.load() == {} and store.session_key is None
    store["colour"] = "blue"
    store.save()
    assert store.session_key != key


def test_an_unknown_key_loads_nothing():
    saved({"colour": "green"})
    store = SessionStore("x" * 32)
    assert store.load() == {} and store.session_key is None


def test_a_signed_in_page_reads_its_user_from_the_session():
    client = Client()
    client.force_login(User.objects.create_user("ada"))
    assert client.get("/").status_code == 200
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    assert client.get("/").status_code == 302  # to the login page


HOSTILE_KEYS = {
    "nul": r'"abc\000defghij"',  # a quoted octal escape: plain ASCII on the wire, a NUL once the cookie is read
    "10,000 characters": "a" * 10_000, "non-ASCII": "\u00e9" * 40, "Cyrillic": "\u043a\u043b\u044e\u0447" * 10,
    "empty": "", "capitals": "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "quote": "'--1234567"}


@pytest.mark.parametrize("cookie", HOSTILE_KEYS.values(), ids=HOSTILE_KEYS.keys())
def test_a_key_no_session_can_have_is_an_unknown_key(cookie):
    """The cookie is the visitor's text, and every page loads the session by it: a NUL was a 500 on every page under
    PostgreSQL ('text fields cannot contain NUL'). A key Django cannot have made is no key, and is not looked up."""
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.create_user("ada"))
    raw = cookie.encode().decode("latin-1")  # as a WSGI server passes the header's bytes
    response = client.get("/", HTTP_COOKIE=f"{settings.SESSION_COOKIE_NAME}={raw}")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_store_drops_such_a_key_before_any_query(django_assert_num_queries):
    with django_assert_num_queries(0):
        for key in ("abc\x00defghij", "a" * 10_000, "\u00e9" * 40, "x" * 41, "x" * 7):
            store = SessionStore(key)
            assert store.load() == {} and store.session_key is None
