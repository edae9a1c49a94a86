"""Signing in: POST /accounts/ClientLogin trades the user name and API password for an auth token; /token gives
the edit token T; user-info says who the token belongs to.

ClientLogin is throttled with the web login (django-axes): its failures count toward the same per-account and
per-address lockouts, and a locked-out account or address is refused here too.
"""
from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.http import HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from . import credentials
from .protocol import GReaderError, api_view, parameters, wants_json


def _answer(params, fields: dict, status: int = 200) -> HttpResponse:
    if wants_json(params):
        return JsonResponse(fields, status=status)
    text = "".join(f"{name}={value}\n" for name, value in fields.items())
    return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


@csrf_exempt  # a sign-in with a password in the body: there is no session for another site to ride on
def client_login(request):
    params = None
    try:
        if request.method != "POST":
            raise GReaderError(405, "Use POST, with Email and Passwd in the form body", {"Allow": "POST"})
        params = parameters(request)
        login, password = params.get("Email", "").strip(), params.get("Passwd", "")
        if not login or not password:
            raise GReaderError(400, "Send Email (your user name) and Passwd (your API password)")
        attempt = {"username": login[:150]}
        if not AxesProxyHandler.is_allowed(request, attempt):
            raise GReaderError(429, "Too many failed logins: try again later")
        user = credentials.check_login(login, password)
        if user is None:
            user_login_failed.send(sender=__name__, credentials=attempt, request=request)
            return _answer(params, {"Error": "BadAuthentication"}, 401)
    except GReaderError as exc:
        return exc.response(params)
    # A sign-in like the web login's: it resets the failures counted against the account (AXES_RESET_ON_SUCCESS)
    # and stamps last_login. No session is made; the app holds the token.
    user_logged_in.send(sender=user.__class__, request=request, user=user)
    token = credentials.auth_token(user.api_password)
    return _answer(params, {"SID": token, "LSID": token, "Auth": token})


@api_view("GET")
def token(request, caller, params):
    return HttpResponse(credentials.edit_token(caller.stored), content_type="text/plain; charset=utf-8")


@api_view("GET")
def user_info(request, caller, params):
    user = caller.user
    return JsonResponse({"userId": str(user.pk), "userName": user.get_username(), "userProfileId": str(user.pk),
                         "userEmail": user.email or user.get_username(), "isBloggerUser": False,
                         "signupTimeSec": int(user.date_joined.timestamp()), "isMultiLoginEnabled": False})
