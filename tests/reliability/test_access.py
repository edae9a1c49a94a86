"""Access: every URL in the URL conf as anonymous, as another user and as staff; POSTs without a CSRF
token; and no user ever sees another's subscriptions, ratings or scores. Plus `check --deploy`."""
import os
import re
import secrets
import subprocess
import sys

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLResolver, get_resolver

from reader.models import Entry, Feed, OpmlImport, Rating, Rule, Story, Subscription

from .figures import ROOT, record

pytestmark = [pytest.mark.reliability, pytest.mark.django_db]

SECRET = "ann-private-7c1e"
SCORE = 0.9876543
PUBLIC = {"login", "signup", "extract", "api_extract", "password_reset", "password_reset_done",
          "password_reset_confirm", "password_reset_complete", "logout", "favicon",
          "greader_login", "greader_unknown"}  # the Google Reader API's sign-in, and its 404 for unknown calls
# Views that act with no user's authority, so there is nothing to forge (see reader/web/api.py).
CSRF_EXEMPT = {"api_extract"}


def url_patterns(patterns=None, prefix=""):
    """(path template, name) for every pattern, admin's included."""
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            yield from url_patterns(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern.name


def concrete(template: str, ids: dict) -> str:
    """A real path for a pattern: ann's object ids for the parameters; regex groups filled in."""
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(ids.get(m.group(1), "1")), template)
    path = re.sub(r"\(\?P<app_label>[^)]*\)", "reader", path)
    path = re.sub(r"\(\?P<url>[^)]*\)", "no-such-page/", path)
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(ids.get(m.group(1), "1")), path)
    path = re.sub(r"\(\?:[^)]*\)\?", "", path)  # optional groups left out (the Google Reader API's prefixes)
    path = path.replace("/?$", "$").replace(".*$", "$")
    return "/" + path.replace("^", "").replace("$", "").replace("\\", "")


@pytest.fixture
def world():
    """ann owns everything secret; bob is another reader; staff is an administrator."""
    ann = User.objects.create_user("ann", password="pw-ann-long-1")
    bob = User.objects.create_user("bob", password="pw-bob-long-1")
    staff = User.objects.create_superuser("staff", password="pw-staff-long-1")
    feed = Feed.objects.create(url="https://private.example/feed.xml", title=f"Feed {SECRET}")
    sub = Subscription.objects.create(user=ann, feed=feed, folder=f"Folder {SECRET}")
    story = Story.objects.create(feed=feed, guid="g", url="https://private.example/1", title=f"Story {SECRET}",
                                 summary_html=f"<p>{SECRET}</p>")
    Entry.objects.create(user=ann, story=story, score=SCORE, reasons=[SECRET])
    Rating.objects.create(user=ann, story=story, value=Rating.GOOD)
    rule = Rule.objects.create(user=ann, kind="word", value=SECRET, action="show")
    job = OpmlImport.objects.create(user=ann, status="done", problems=[[f"https://{SECRET}.example/", "skipped"]])
    ids = {"story_id": story.id, "subscription_id": sub.id, "rule_id": rule.id, "object_id": feed.id,
           "content_type_id": 1, "uidb64": "MQ", "token": "set-password", "feed_id": feed.id, "import_id": job.id}
    return {"ann": ann, "bob": bob, "staff": staff, "ids": ids}


def ann_state(ann) -> tuple:
    return (list(Subscription.objects.filter(user=ann).values_list("id", "folder")),
            list(Rating.objects.filter(user=ann).values_list("story_id", "value")),
            list(Entry.objects.filter(user=ann).values_list("story_id", "score", "read", "saved")),
            list(Rule.objects.filter(user=ann).values_list("id", "value")))


def leaks(response) -> bool:
    content = getattr(response, "content", b"")
    return SECRET.encode() in content or str(SCORE).encode() in content


def as_user(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_every_url_as_every_role(world):
    before = ann_state(world["ann"])
    paths = [(concrete(template, world["ids"]), name) for template, name in url_patterns()]
    problems, tried = [], 0
    for role in ("anonymous", "bob", "staff"):
        client = as_user(world.get(role))
        for path, name in paths:
            for method in ("get", "post"):
                response = getattr(client, method)(path, {"rating": "bad", "saved": "true", "folder": "x",
                                                          "url": "http://10.0.0.1/"})  # refused before any lookup
                tried += 1
                status = response.status_code
                admin = path.startswith("/admin/")
                if status >= 500:
                    problems.append((role, method, path, status))
                elif role == "anonymous" and name not in PUBLIC and not admin and status not in (302, 401, 405):
                    problems.append((role, method, path, status, "private page open to anonymous"))
                elif role == "anonymous" and status == 302 and name not in PUBLIC and "login" not in response["Location"]:
                    problems.append((role, method, path, response["Location"]))
                elif role == "bob" and admin and status not in (302,) and name not in ("login", "logout"):
                    problems.append((role, method, path, status, "admin open to a reader"))
                elif not (role == "staff" and admin) and leaks(response):
                    problems.append((role, method, path, "shows ann's data"))
            if role != "staff":
                assert ann_state(world["ann"]) == before, (role, path)
    record("access", "Access: every URL x {anonymous, another user, staff} x {GET, POST}", {
        "URL patterns": len(paths), "requests": tried, "problems": len(problems),
        "ann's data changed by others": ann_state(world["ann"]) != before,
    }, "no 5xx, private pages closed, nothing of one user shown to another")
    assert problems == []


def test_posts_without_csrf_token_are_refused(world):
    before = ann_state(world["ann"])
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["ann"])
    client.get("/subscriptions/")  # the browser holds a CSRF cookie, as a victim's would; the forged POST lacks the token
    assert client.cookies.get("csrftoken")
    ids = world["ids"]
    posts = [concrete(t, ids) for t, name in url_patterns() if name not in CSRF_EXEMPT and not t.startswith("admin/")]
    # The Google Reader API takes no cookie: its calls need an Authorization header, so a forged POST carrying only
    # the browser's session is answered as anonymous (401; 400 at the sign-in, 404 for an unknown call, 405 where only GET is served).
    header_only = {concrete(t, ids) for t, name in url_patterns() if (name or "").startswith("greader_")}
    posts += ["/admin/reader/feed/add/", f"/admin/reader/feed/{ids['feed_id']}/delete/", "/admin/logout/"]
    statuses = {path: client.post(path, {"rating": "bad", "saved": "true", "folder": "x", "kind": "word",
                                         "value": "v", "action": "hide"}).status_code for path in posts}
    json_posts = [f"/api/stories/{ids['story_id']}/{what}" for what in ("rating", "read", "save")]
    statuses |= {path: client.post(path, '{"rating": "bad"}', content_type="application/json").status_code
                 for path in json_posts}
    refused = [p for p, s in statuses.items() if s == 403 or (p in header_only and s in (400, 401, 404, 405))]
    record("csrf", "CSRF: POSTs without a token, logged in", {
        "POSTs": len(statuses), "refused (403)": len(refused), "state changed": ann_state(world["ann"]) != before,
    }, "every POST refused, nothing changed")
    assert refused == list(statuses), {p: s for p, s in statuses.items() if p not in refused}
    assert ann_state(world["ann"]) == before


def test_check_deploy_has_no_warnings_with_production_settings(tmp_path):
    # A deployment's environment: not the switch the browser tests set for Playwright's event loop.
    deployment = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {**deployment, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(64), "SECURE_SSL_REDIRECT": "1",
           "SECURE_HSTS_SECONDS": "31536000", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1", "SECURE_HSTS_PRELOAD": "1",
           "ALLOWED_HOSTS": "reader.example", "VAR_DIR": str(tmp_path)}
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            cwd=ROOT, env=env, capture_output=True, text=True)
    issues = re.search(r"identified (\d+) issue|no issues", result.stdout + result.stderr)
    count = int(issues.group(1)) if issues and issues.group(1) else 0
    record("check_deploy", "manage.py check --deploy with production settings", {"warnings": count},
           "0 warnings")
    assert result.returncode == 0 and "no issues" in result.stdout, result.stdout + result.stderr
