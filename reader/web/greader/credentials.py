"""The API password a sync app signs in with, and the tokens it then holds.

The password is stored hashed, like login passwords. Tokens are not stored: each is an HMAC, under SECRET_KEY, of
the user's id and the stored hash, so replacing or removing the API password revokes every token at once.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password
from django.db.models import Q

from ...ingestion.digits import row_id
from ...models import ApiPassword

MIN_LENGTH = 12
EDIT_TOKEN_LENGTH = 57  # Google Reader's edit tokens had 57 characters; some apps may expect it


def generate() -> str:
    """A new random API password: 24 URL-safe characters (144 bits), easy to paste into an app."""
    return secrets.token_urlsafe(18)


def set_password(user, raw: str) -> None:
    ApiPassword.objects.update_or_create(user=user, defaults={"password": make_password(raw)})


def turn_off(user) -> None:
    ApiPassword.objects.filter(user=user).delete()


def check_login(login: str, raw: str):
    """The active user whose user name (or e-mail address) and API password these are, else None."""
    users = get_user_model().objects.filter(is_active=True)
    user = (users.filter(username=login).first()
            or (users.filter(email__iexact=login).first() if "@" in login else None))
    stored = ApiPassword.objects.filter(user=user).first() if user else None
    if stored is None:
        make_password(raw)  # the same work as a real check, so timing does not tell which accounts have one
        return None
    return user if check_password(raw, stored.password) else None


def _mac(purpose: str, stored: ApiPassword) -> str:
    message = f"greader:{purpose}:{stored.user_id}:{stored.password}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()


def auth_token(stored: ApiPassword) -> str:
    """`<user id>/<hex>`: no '=' or newline, which apps split ClientLogin's answer on."""
    return f"{stored.user_id}/{_mac('auth', stored)}"


def edit_token(stored: ApiPassword) -> str:
    return _mac("edit", stored)[:EDIT_TOKEN_LENGTH]


def stored_for_token(token: str) -> ApiPassword | None:
    """The API password row (with its user) behind an auth token, if the token is current."""
    user_id, _, _ = token.partition("/")
    user_id = row_id(user_id)
    if user_id is None:
        return None
    stored = (ApiPassword.objects.select_related("user")
              .filter(Q(user_id=user_id) & Q(user__is_active=True)).first())
    if stored is None or not hmac.compare_digest(token.encode(), auth_token(stored).encode()):
        return None
    return stored


def edit_token_matches(stored: ApiPassword, given: str) -> bool:
    """The T of an edit: the edit token from /token, or the auth token itself (what Miniflux hands out as both)."""
    given = given.strip().encode()  # apps that read /token's body whole send its newline back
    return (hmac.compare_digest(given, edit_token(stored).encode())
            or hmac.compare_digest(given, auth_token(stored).encode()))
