"""Finding 11: login throttling per account and per address (django-axes): 30 wrong passwords, then the right
one, is refused until the lockout ends."""
import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-passphrase-1"


@pytest.fixture
def cleo(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # 120 logins in seconds
    return User.objects.create_user("cleo", password=PASSWORD)


def log_in(username, password, address):
    return Client(REMOTE_ADDR=address).post("/accounts/login/", {"username": username, "password": password})


def test_thirty_wrong_passwords_lock_the_account_even_from_other_addresses(cleo):
    statuses = [log_in("cleo", f"guess-{i}", f"198.51.100.{i}").status_code for i in range(30)]
    assert statuses[0] == 200  # the form again, with its error
    assert statuses[-1] == 429
    response = log_in("cleo", PASSWORD, "203.0.113.7")  # the right password, from a new address
    assert response.status_code == 429 and "Too many failed logins" in response.content.decode()
    assert "_auth_user_id" not in response.client.session


def test_thirty_wrong_passwords_lock_the_address_for_every_account(cleo):
    for i in range(30):
        log_in(f"someone-{i}", "guess", "198.51.100.50")
    assert log_in("cleo", PASSWORD, "198.51.100.50").status_code == 429
    assert log_in("cleo", PASSWORD, "198.51.100.51").status_code == 302  # the account itself is fine


def test_lockout_ends_after_the_cool_off(cleo, settings):
    settings.AXES_COOLOFF_TIME = timedelta(seconds=2)
    for i in range(30):
        log_in("cleo", f"guess-{i}", "198.51.100.60")
    assert log_in("cleo", PASSWORD, "198.51.100.60").status_code == 429
    time.sleep(3)
    assert log_in("cleo", PASSWORD, "198.51.100.60").status_code == 302


def test_a_few_mistakes_do_not_lock_anyone_out(cleo, settings):
    for i in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in("cleo", f"guess-{i}", "198.51.100.70")
    assert log_in("cleo", PASSWORD, "198.51.100.70").status_code == 302
