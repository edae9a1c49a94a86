"""Finding 7: hostile JSON bodies and pasted HTML get a clear 400 (or are handled), never a 500."""
import json
import time

import pytest
from django.test import Client

from ui_factories import ann, client_ann, make_entries, make_feed  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
DEEP = b"[" * 100_000 + b"]" * 100_000
ARTICLE = ("<html><head><title>Harbour news</title></head><body><article><h1>The ferry returns</h1>"
           + "<p>After two years of repairs the old ferry made its first crossing on Monday morning.</p>" * 5
           + "</article></body></html>")


@pytest.fixture(autouse=True)
def local_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"json-{time.monotonic_ns()}"}}


@pytest.fixture
def story_id(ann):
    return make_entries(ann, make_feed(ann), [0.5])[0].story_id


def test_deeply_nested_body_on_the_extractor_is_a_400():
    response = Client().post("/api/extract", DEEP, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == {"code": "bad_json", "message": "The request body is nested too deeply"}


def test_deeply_nested_body_on_rating_is_a_400(client_ann, story_id):
    response = client_ann.post(f"/api/stories/{story_id}/rating", DEEP, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_json"


@pytest.mark.parametrize("payload", [{"rating": ["good"]}, {"rating": {"good": 1}}, {}, {"rating": 1},
                                     {"rating": "great"}])
def test_rating_that_is_not_good_bad_or_null_is_a_400(client_ann, story_id, payload):
    response = client_ann.post(f"/api/stories/{story_id}/rating", json.dumps(payload),
                               content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_rating"


def test_a_rating_still_works(client_ann, story_id):
    response = client_ann.post(f"/api/stories/{story_id}/rating", json.dumps({"rating": "good"}),
                               content_type="application/json")
    assert response.json() == {"id": story_id, "rating": "good"}


def test_number_past_the_digit_limit_is_a_400():
    response = Client().post("/api/extract", b'{"compare": ' + b"9" * 5000 + b"}", content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_json"


@pytest.mark.parametrize("field", ["html", "url"])
def test_lone_surrogates_in_pasted_html_or_url_are_handled(field):
    payload = {"html": ARTICLE.replace("Monday", "Mon\ud800day"), "url": "http://news.example/\udfff"}
    if field == "url":
        payload["html"] = ARTICLE
    response = Client().post("/api/extract", json.dumps(payload), content_type="application/json")
    assert response.status_code == 200, response.content
    assert "ferry" in response.json()["text"]


def test_a_url_that_is_not_a_string_is_a_400():
    response = Client().post("/api/extract", json.dumps({"url": ["http://a.example/"]}),
                             content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_url"
