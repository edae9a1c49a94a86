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
