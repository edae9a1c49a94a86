"""The Google Reader API's rules: off until the user sets an API password; tokens die with it; hostile input
answers a clear 4xx, never a 500; one user never reaches another's data; logins are throttled with the web
login's lockouts; calls are budgeted per user."""
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.hashers import check_password

from reader.models import ApiPassword, Entry, Story, Subscription
from reader.web.greader import credentials, ids
from greader_app import API_PASSWORD, App, fast_hashing, library, turn_on  # noqa: F401 (fixture)
from ui_factories import ann, client_ann, make_story, make_user  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
READ, READING_LIST = ids.state("read"), ids.state("reading-list")


def signed_in(user, base="/") -> App:
    app = App(base)
    app.auth = app.login(user.username).content.decode().split("Auth=")[1].strip()
    app.token = app.get("reader/api/0/token").content.decode()
    return app


def test_the_api_is_off_until_the_user_sets_an_api_password(ann):
    library(ann)
    app = App()
    assert app.login("ann", "a-long-passphrase-1").status_code == 401  # the login password is not the API's
    assert app.login("ann", API_PASSWORD).status_code == 401
    turn_on(ann)
    assert app.login("ann", "a-long-passphrase-1").status_code == 401
    answer = app.login("ann", API_PASSWORD)
    assert answer.status_code == 200 and "Auth=" in answer.content.decode()
    stored = ApiPassword.objects.get(user=ann)
    assert stored.password != API_PASSWORD and check_password(API_PASSWORD, stored.password)


def test_a_new_api_password_or_turning_it_off_signs_apps_out(ann):
    turn_on(ann)
    app = signed_in(ann)
    assert app.get("reader/api/0/user-info").status_code == 200
    turn_on(ann, "another-password-2")
    gone = app.get("reader/api/0/user-info")
    assert gone.status_code == 401 and gone["X-Reader-Google-Bad-Token"] == "true"
    app.auth = App().login("ann", "another-password-2").content.decode().split("Auth=")[1].strip()
    assert app.get("reader/api/0/user-info").status_code == 200
    credentials.turn_off(ann)
    assert app.get("reader/api/0/user-info").status_code == 401


@pytest.mark.parametrize("header", ["", "GoogleLogin auth=", "GoogleLogin auth=1/abc", "Bearer x",
                                    "GoogleLogin auth=99999999999999999999/x", "GoogleLogin auth=../..",
                                    "GoogleLogin auth=1/" + "f" * 64])
def test_a_missing_or_wrong_token_is_401_text(ann, header):
    turn_on(ann)
    answer = App().http.get("/reader/api/0/subscription/list?output=json", HTTP_AUTHORIZATION=header)
    assert answer.status_code == 401 and answer["X-Reader-Google-Bad-Token"] == "true"
    assert "ClientLogin" in answer.json()["error"]["message"]


def test_posts_need_the_edit_token(ann):
    turn_on(ann)
    entries = library(ann)["entries"]
    app = signed_in(ann)
    story = entries[0].story_id
    for body in (f"i={story}&a={READ}", f"T=wrong&i={story}&a={READ}", f"T=&i={story}&a={READ}"):
        answer = app.post("reader/api/0/edit-tag", body)
        assert answer.status_code == 401 and answer["X-Reader-Google-Bad-Token"] == "true"
    assert not Entry.objects.get(pk=entries[0].pk).read
    # the token with a trailing newline (an app that keeps /token's body whole), or the auth token itself
    assert app.post("reader/api/0/edit-tag", f"T={app.token}%0A&i={story}&a={READ}").status_code == 200
    assert app.post("reader/api/0/edit-tag", f"T={app.auth}&i={story}&r={READ}").status_code == 200


@pytest.mark.parametrize("path", [
    "reader/api/0/stream/items/ids?output=json",                                        # no s
    f"reader/api/0/stream/items/ids?output=json&s={READING_LIST}&c=bogus",             # bad continuation
    f"reader/api/0/stream/items/ids?output=json&s={READING_LIST}&c=1_2_3_4",
    f"reader/api/0/stream/items/ids?output=json&s={READING_LIST}&n=many",
    f"reader/api/0/stream/items/ids?output=json&s={READING_LIST}&ot=nan",
    f"reader/api/0/stream/items/ids?output=json&s={READING_LIST}&ot=1e999",
    f"reader/api/0/stream/items/ids?output=json&s={READING_LIST}&r=x",
    "reader/api/0/stream/items/ids?output=json&s=nonsense",
    "reader/api/0/stream/items/ids?output=json&s=user/-/state/com.google/nonsense",
    "reader/api/0/stream/contents/feed/?output=json",
    f"reader/api/0/stream/contents/{READING_LIST}?output=json&c=99999999999999999999999_1",
])
def test_bad_parameters_are_a_clear_400(ann, path):
    turn_on(ann)
    library(ann)
    answer = signed_in(ann).get(path)
    assert answer.status_code == 400 and answer.json()["error"]["message"]


@pytest.mark.parametrize("call", [
    "GET reader/api/0/stream/items/ids?output=json&s=user/-/label/a%00b",
    "GET reader/api/0/stream/contents/user/-/label/a%00b?output=json",
    "GET reader/api/0/stream/contents/feed/http://a.example/%00?output=json",
    "POST reader/api/0/mark-all-as-read s=user/-/label/Lo%00cal",
    "POST reader/api/0/rename-tag s=user/-/label/Local&dest=user/-/label/a%00b",
    "POST reader/api/0/subscription/edit ac=edit&s=feed/https://city.example/feed&t=Ci%00ty",
    "POST reader/api/0/edit-tag i=1&a=user/-/label/a%00b",
    "POST reader/api/0/disable-tag s=user/-/label/Lo%00cal",
])
def test_a_nul_anywhere_is_a_clear_400_and_changes_nothing(ann, call):
    """PostgreSQL refuses NUL in any query: each of these was a DataError, a 500, there (and stored a title or
    a folder holding one on SQLite)."""
    turn_on(ann)
    library(ann)
    app = signed_in(ann)
    state = lambda: (list(Subscription.objects.order_by("id").values_list("folder", "title")),  # noqa: E731
                     list(Entry.objects.order_by("id").values_list("read", "saved")))
    before = state()
    method, path = call.split(" ", 1)
    if method == "GET":
        answer = app.get(path)
    else:
        path, body = path.split(" ")
        answer = app.post(path, f"T={app.token}&{body}")
    assert answer.status_code == 400 and b"NUL" in answer.content and state() == before


@pytest.mark.parametrize("body", [
    "i=", "i=abc", "i=-5", "i=0", "i=99999999999999999999", "i=tag:google.com,2005:reader/item/",
    "i=tag:google.com,2005:reader/item/xyz", "i=tag:google.com,2005:reader/item/12345678901234567",
    f"i=1&a=user/-/state/com.google/nonsense", "i=1", f"i=1&a={READ}&a=user/-/state/com.google/kept-unread",
])
def test_bad_edits_are_a_clear_400_and_change_nothing(ann, body):
    turn_on(ann)
    library(ann)
    app = signed_in(ann)
    before = list(Entry.objects.order_by("id").values_list("read", "saved"))
    answer = app.post("reader/api/0/edit-tag", f"T={app.token}&{body}")
    assert answer.status_code == 400 and answer.content.strip()
    assert list(Entry.objects.order_by("id").values_list("read", "saved")) == before


def test_huge_n_is_clamped_and_many_ids_are_taken_in_one_body(ann):
    turn_on(ann)
    entries = library(ann)["entries"]
    app = signed_in(ann)
    refs = app.get(f"reader/api/0/stream/items/ids?output=json&s={READING_LIST}&n=999999999999").json()["itemRefs"]
    assert len(refs) == 6
    # more fields than Django's form limit (1,000): 5,000 ids, unknown ones left out
    body = f"T={app.token}&" + "&".join(f"i={i}" for i in range(1, 5001))
    items = app.post("reader/api/0/stream/items/contents?output=json", body).json()["items"]
    assert {i["id"] for i in items} == {ids.long_id(e.story_id) for e in entries.values()}
    too_many = app.post("reader/api/0/stream/items/contents", f"T={app.token}&" + "&".join(["i=1"] * 10_050))
    assert too_many.status_code == 400


def test_another_users_stories_feeds_and_streams_are_out_of_reach(ann):
    turn_on(ann)
    bob = make_user("bob")
    bobs = library(bob, prefix="b")["entries"]
    library(ann)
    app = signed_in(ann)
    bob_story, bob_feed = bobs[0].story_id, bobs[0].story.feed_id
    # contents and edits by bob's ids: nothing comes back, nothing changes
    items = app.post("reader/api/0/stream/items/contents?output=json", f"T={app.token}&i={bob_story}").json()
    assert items["items"] == []
    app.post("reader/api/0/edit-tag", f"T={app.token}&i={bob_story}&a={READ}")
    app.post("reader/api/0/edit-tag", f"T={app.token}&i={ids.long_id(bob_story)}&a={ids.state('starred')}")
    assert Entry.objects.filter(user=bob, read=False, saved=False, story_id=bob_story).exists()
    # bob's feed and streams
    assert app.get(f"reader/api/0/stream/items/ids?output=json&s=feed/{bob_feed}").json()["itemRefs"] == []
    assert app.get(f"reader/api/0/stream/contents/user/{bob.pk}/state/com.google/reading-list").status_code == 404
    for body in (f"ac=unsubscribe&s=feed/{bob_feed}", f"ac=edit&s=feed/{bob_feed}&t=Mine",
                 f"ac=subscribe&s=feed/{bob_feed}"):
        assert app.post("reader/api/0/subscription/edit", f"T={app.token}&{body}").status_code == 404
    assert Subscription.objects.get(user=bob, feed_id=bob_feed).title == ""
    app.post("reader/api/0/mark-all-as-read", f"T={app.token}&s=feed/{bob_feed}")
    app.post("reader/api/0/mark-all-as-read", f"T={app.token}&s={READING_LIST}")
    assert Entry.objects.filter(user=bob, read=False).count() == 4
    assert not Entry.objects.filter(user=ann, read=False).exists()


def test_mark_all_as_read_stops_at_ts(ann):
    """Stories that reached the feed after ts (an app's last look) stay unread."""
    turn_on(ann)
    made = library(ann)
    entries = made["entries"]
    late = Entry.objects.create(user=ann, story=make_story(made["feeds"]["city"], 9))
    Entry.objects.filter(pk=late.pk).update(created_at=late.created_at + timedelta(hours=1))
    app = signed_in(ann)
    cutoff = int(entries[5].created_at.timestamp() * 1_000_000) + 10_000_000  # microseconds, 10 s later
    app.post("reader/api/0/mark-all-as-read", f"T={app.token}&s=user/-/label/Local&ts={cutoff}")
    assert set(Entry.objects.filter(user=ann, read=False).values_list("id", flat=True)) == {late.id, entries[5].id}
    app.post("reader/api/0/mark-all-as-read", f"T={app.token}&s=user/-/label/Local&ts={cutoff // 1_000_000 + 7200}")
    assert set(Entry.objects.filter(user=ann, read=False).values_list("id", flat=True)) == {entries[5].id}


def test_ranked_and_oldest_orders_and_the_recommended_label(ann):
    turn_on(ann)
    entries = library(ann)["entries"]
    app = signed_in(ann)

    def refs(query):
        return [int(r["id"]) for r in app.get(f"reader/api/0/stream/items/ids?output=json&{query}").json()["itemRefs"]]
    by_date = refs(f"s={READING_LIST}")
    assert by_date == [entries[n].story_id for n in range(6)]  # newest first (story n is n hours old)
    assert refs(f"s={READING_LIST}&r=o") == by_date[::-1]
    assert refs(f"s={READING_LIST}&r=a") == [e.story_id for e in sorted(entries.values(), key=lambda e: -e.score)]
    assert refs("s=user/-/label/Recommended&r=a") == [entries[n].story_id for n in (0, 2, 5)]
    assert refs(f"s={ids.state('starred')}") == [entries[2].story_id]
    assert refs(f"s={READ}") == [entries[3].story_id, entries[4].story_id]
    # a folder of the user's own named Recommended wins over the virtual label
    Subscription.objects.filter(user=ann, feed=entries[4].story.feed).update(folder="Recommended")
    assert refs("s=user/-/label/Recommended") == [entries[4].story_id, entries[5].story_id]


def test_client_login_failures_count_toward_the_web_logins_lockout(ann, settings):
    settings.AXES_FAILURE_LIMIT = 3
    turn_on(ann)
    app = App(address="198.51.100.9")
    # as on the web login, the failure that reaches the limit is already answered 429
    assert [app.login("ann", f"wrong-{i}").status_code for i in range(3)] == [401, 401, 429]
    assert app.login("ann", API_PASSWORD).status_code == 429  # locked, even with the right password
    assert App(address="203.0.113.5").login("ann", API_PASSWORD).status_code == 429  # the account is locked
    stored = " ".join(AccessAttempt.objects.values_list("post_data", flat=True))
    assert "wrong-" not in stored and API_PASSWORD not in stored  # Passwd is masked like "password"


def test_a_good_client_login_resets_the_failures_like_the_web_login(ann, settings):
    settings.AXES_FAILURE_LIMIT = 3
    turn_on(ann)
    app = App(address="198.51.100.11")
    assert [app.login("ann", f"wrong-{i}").status_code for i in range(2)] == [401, 401]
    assert app.login("ann", API_PASSWORD).status_code == 200
    assert [app.login("ann", f"again-{i}").status_code for i in range(2)] == [401, 401]
    ann.refresh_from_db()
    assert ann.last_login is not None


def test_client_login_needs_post_and_both_fields(ann):
    turn_on(ann)
    app = App()
    assert app.http.get("/accounts/ClientLogin?Email=ann&Passwd=x").status_code == 405
    assert app.login("ann", body="Email=ann").status_code == 400
    assert app.login("ann", body="").status_code == 400
    assert app.login("ann", body="Email=ann&Passwd=" + "x" * 5000).status_code == 401


def test_calls_are_budgeted_per_user(ann, settings):
    settings.GREADER_RATE_LIMIT = 3
    turn_on(ann)
    app = signed_in(ann)  # /token is the first call
    statuses = [app.get("reader/api/0/user-info").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert int(app.get("reader/api/0/user-info")["Retry-After"]) >= 1


def test_unknown_calls_and_wrong_methods_are_4xx(ann):
    turn_on(ann)
    app = signed_in(ann)
    assert app.get("reader/api/0/preference/list").status_code == 404
    assert app.get("reader/api/0/edit-tag").status_code == 405


def test_settings_page_sets_shows_once_and_turns_off(ann, client_ann):
    page = client_ann.get("/settings/api").content.decode()
    assert "API access is <strong>off</strong>" in page and "http://testserver/api/greader/" in page
    assert 'href="/settings/api"' in page  # in the nav
    made = client_ann.post("/settings/api", {"action": "generate"}).content.decode()
    shown = made.split('data-api-password>')[1].split("<")[0]
    assert len(shown) >= 20 and App().login("ann", shown).status_code == 200
    assert shown not in client_ann.get("/settings/api").content.decode()  # shown once
    short = client_ann.post("/settings/api", {"action": "choose", "password": "short"}).content.decode()
    assert "at least 12 characters" in short and App().login("ann", shown).status_code == 200
    client_ann.post("/settings/api", {"action": "choose", "password": "my-own-api-password"})
    assert App().login("ann", "my-own-api-password").status_code == 200
    assert App().login("ann", shown).status_code == 401
    client_ann.post("/settings/api", {"action": "off"})
    assert not ApiPassword.objects.filter(user=ann).exists()
    assert App().login("ann", "my-own-api-password").status_code == 401


def test_settings_page_needs_a_login():
    answer = App().http.get("/settings/api")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


@pytest.mark.parametrize("length", ["\u00b2", "9" * 5000, "-1", "1e9"], ids=["superscript", "5000 digits", "minus", "float"])
def test_an_enclosure_length_that_is_no_whole_number_is_left_out(ann, length):
    """A feed's enclosure length is stored as written; "²" passed str.isdigit() and int() refused it: a 500."""
    turn_on(ann)
    entries = library(ann)["entries"]
    Story.objects.filter(id=entries[0].story_id).update(
        enclosures=[{"url": "https://cdn.example/a.mp3", "type": "audio/mpeg", "length": length}])
    app = signed_in(ann)
    answer = app.post("reader/api/0/stream/items/contents?output=json",
                      f"T={app.token}&i={entries[0].story_id}")
    assert answer.status_code == 200
    assert answer.json()["items"][0]["enclosure"] == [{"href": "https://cdn.example/a.mp3", "type": "audio/mpeg"}]
