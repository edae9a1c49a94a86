"""The Google Reader API replayed as real apps call it: each request below is built the way the app's own source
builds it (cited per test), sent byte for byte, and the answers checked as the app reads them.

Sources (read via the code search, not copied):
- NetNewsWire, Account/Sources/Account/ReaderAPI/ReaderAPICaller.swift (Ranchero-Software/NetNewsWire) and
  URLRequest+RSWeb.swift's `.readerBasic` / `.readerAPIKey` credentials;
- Read You, app/src/main/java/me/ash/reader/infrastructure/rss/provider/greader/GoogleReaderAPI.kt
  (ReadYouApp/ReadYou);
- FreshRSS's p/api/greader.php and Miniflux's internal/googlereader for the shapes Reeder, FeedMe and
  FocusReader are written against (stream/contents paging, output=json on ClientLogin).
"""
import pytest

from reader.models import Entry, Subscription
from reader.web.greader import ids
from greader_app import RSS, App, fast_hashing, library, turn_on  # noqa: F401 (fixture)
from ui_factories import ann, make_user, record_sends  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
READ, STARRED, READING_LIST = (ids.state(s) for s in ("read", "starred", "reading-list"))


def netnewswire_login(app, user):
    """validateCredentials: POST Email=&Passwd= (form); the body split into lines, each line split on "=", and the
    part after the first "=" kept; then requestAuthorizationToken: GET /token, the whole body is the token."""
    response = app.login(user.username)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    fields = {}
    for line in response.content.decode().split("\n"):
        if line:
            parts = line.split("=")
            assert len(parts) == 2  # NetNewsWire keeps parts[1] only: a token holding "=" would be cut
            fields[parts[0]] = parts[1]
    app.auth = fields["Auth"]
    app.token = app.get("reader/api/0/token").content.decode()  # String(data:) of the body, as is


def netnewswire_item_ids(app, query: str) -> list[str]:
    """retrieveItemIDs: n=1000&output=json&… and then the same URL with c=<continuation> until there is none."""
    found, continuation = [], None
    for _ in range(50):
        url = f"reader/api/0/stream/items/ids?{query}" + (f"&c={continuation}" if continuation else "")
        answer = app.get(url)
        assert answer.status_code == 200
        data = answer.json()
        found += [ref["id"] for ref in data["itemRefs"]]
        continuation = data.get("continuation")
        if not continuation:
            return found
    raise AssertionError("continuation never ended")


@pytest.mark.parametrize("base", ["/", "/api/greader/"])
def test_netnewswire_first_sync_then_marks_stars_and_unreads(ann, base, monkeypatch):
    turn_on(ann)
    entries = library(ann)["entries"]
    app = App(base)
    netnewswire_login(app, ann)
    # retrieveTags / retrieveSubscriptions: GET …?output=json
    tags = app.get("reader/api/0/tag/list?output=json").json()["tags"]
    assert {"id": ids.label("Local"), "label": "Local", "type": "folder"} in tags
    assert {"id": STARRED} in tags
    subscriptions = app.get("reader/api/0/subscription/list?output=json").json()["subscriptions"]
    assert {s["title"]: [c["label"] for c in s["categories"]] for s in subscriptions} == {
        "City desk": ["Local"], "Port news": ["Local"], "World": []}
    # allForAccount (first sync: since three months ago, as whole seconds), unread, starred; 4 per page here
    every = netnewswire_item_ids(app, f"n=4&output=json&ot=1000000000&s={READING_LIST}")
    assert sorted(map(int, every)) == sorted(e.story_id for e in entries.values())
    unread = netnewswire_item_ids(app, f"n=1000&output=json&s={READING_LIST}&xt={READ}")
    assert sorted(map(int, unread)) == sorted(e.story_id for e in entries.values() if not e.read)
    starred = netnewswire_item_ids(app, f"n=1000&output=json&s={STARRED}")
    assert list(map(int, starred)) == [entries[2].story_id]
    # retrieveEntries(articleIDs:): long ids with unpadded hex (String(idValue, radix: 16))
    body = f"T={app.token}&output=json&" + "&".join(f"i=tag:google.com,2005:reader/item/{int(i):x}" for i in every)
    items = app.post("reader/api/0/stream/items/contents", body).json()["items"]
    assert len(items) == 6
    first = next(i for i in items if i["id"] == ids.long_id(entries[0].story_id))
    assert first["origin"]["streamId"] == f"feed/{entries[0].story.feed_id}" and first["title"] == "Story 0"
    assert ids.label("Local") in first["categories"] and READ not in first["categories"]
    assert "Teaser 0" in first["summary"]["content"]
    assert first["enclosure"] == [{"href": "https://cdn.example/a.mp3", "type": "audio/mpeg", "length": 99}]
    # updateStateToEntries: i=tag:…/item/%.16llx, a= or r= the state
    def edit(story_ids, action, state):
        hexes = "&".join(f"i=tag:google.com,2005:reader/item/{i:016x}" for i in story_ids)
        return app.post("reader/api/0/edit-tag", f"T={app.token}&{hexes}&{action}={state}")
    assert edit([entries[0].story_id, entries[1].story_id], "a", READ).content == b"OK"
    assert edit([entries[3].story_id], "r", READ).status_code == 200
    assert edit([entries[1].story_id], "a", STARRED).status_code == 200
    assert edit([entries[2].story_id], "r", STARRED).status_code == 200
    state = {e.story_id: (e.read, e.saved) for e in Entry.objects.filter(user=ann)}
    assert state[entries[0].story_id] == (True, False) and state[entries[1].story_id] == (True, True)
    assert state[entries[3].story_id] == (False, False) and state[entries[2].story_id] == (False, False)


def test_netnewswire_subscribes_renames_files_and_unsubscribes(ann, server, allow_loopback, monkeypatch,
                                                                django_capture_on_commit_callbacks):
    queued = record_sends(monkeypatch, "reader.tasks.fetch_feed")
    turn_on(ann)
    library(ann)
    feed_url = server.add("/harbour.xml", RSS, headers={"Content-Type": "application/rss+xml"})
    app = App()
    netnewswire_login(app, ann)
    # createSubscription: POST …/subscription/quickadd?quickadd=<url> with body T=…; the answer's streamId, then
    # subscription/edit ac=subscribe&s=<streamId>&a=user/-/label/<folder>&t=<name>
    with django_capture_on_commit_callbacks(execute=True):
        added = app.post(f"reader/api/0/subscription/quickadd?quickadd={feed_url}", f"T={app.token}").json()
    assert added["numResults"] == 1 and added["streamName"] == "Harbour news"
    stream_id = added["streamId"]
    assert app.post("reader/api/0/subscription/edit",
                    f"T={app.token}&ac=subscribe&s={stream_id}&a=user/-/label/Coast%20%26%20sea&t=Harbour").content == b"OK"
    subscription = Subscription.objects.get(user=ann, feed__url=feed_url)
    assert queued == [subscription.feed_id] and f"feed/{subscription.feed_id}" == stream_id
    assert (subscription.folder, subscription.title) == ("Coast & sea", "Harbour")
    # renameSubscription ac=edit&t=; createTagging ac=edit&a=label; deleteTagging ac=edit&r=label
    app.post("reader/api/0/subscription/edit", f"T={app.token}&s={stream_id}&ac=edit&t=Harbour%20desk")
    app.post("reader/api/0/subscription/edit", f"T={app.token}&s={stream_id}&ac=edit&r=user/-/label/Coast%20%26%20sea")
    subscription.refresh_from_db()
    assert (subscription.title, subscription.folder) == ("Harbour desk", "")
    app.post("reader/api/0/subscription/edit", f"T={app.token}&s={stream_id}&ac=edit&a=user/-/label/Local")
    # renameTag s=&dest=, deleteTag s=
    assert app.post("reader/api/0/rename-tag", f"T={app.token}&s=user/-/label/Local&dest=user/-/label/Nearby").content == b"OK"
    assert set(Subscription.objects.filter(user=ann, folder="Nearby").values_list("feed__url", flat=True)) == {
        "https://city.example/feed", "https://port.example/feed", feed_url}
    app.post("reader/api/0/disable-tag", f"T={app.token}&s=user/-/label/Nearby")
    assert not Subscription.objects.filter(user=ann).exclude(folder="").exists()
    # deleteSubscription ac=unsubscribe
    assert app.post("reader/api/0/subscription/edit", f"T={app.token}&s={stream_id}&ac=unsubscribe").status_code == 200
    assert not Subscription.objects.filter(user=ann, feed__url=feed_url).exists()


def readyou_get(app, query: str, params: str = ""):
    """getRequest: "$serverUrl$query?output=json" then "&name=value" per parameter, header GoogleLogin auth."""
    return app.get(f"{query}?output=json{params}")


def test_read_you_signs_in_with_json_and_syncs_with_short_ids(ann):
    turn_on(ann)
    entries = library(ann)["entries"]
    app = App()
    # reAuthenticate: form output=json, Email, Passwd, client, accountType, service; Auth read from the JSON
    answer = app.login(ann.username, body=f"output=json&Email={ann.username}&Passwd=sync-app-password-1"
                                          "&client=ReadYou&accountType=HOSTED_OR_GOOGLE&service=reader")
    assert answer["Content-Type"] == "application/json" and set(answer.json()) == {"SID", "LSID", "Auth"}
    app.auth = answer.json()["Auth"]
    app.token = app.get("reader/api/0/token").content.decode()
    info = readyou_get(app, "reader/api/0/user-info").json()
    assert info["userName"] == "ann" and info["userId"] == str(ann.pk)
    # getReadItemIds(useIt=true): s=reading-list&it=read&ot=<since>&n=1000
    read = readyou_get(app, "reader/api/0/stream/items/ids", f"&s={READING_LIST}&it={READ}&ot=0&n=1000").json()
    assert sorted(int(r["id"]) for r in read["itemRefs"]) == sorted(e.story_id for e in entries.values() if e.read)
    # getItemIdsForCategory(filterRead=true): s=user/-/label/<folder>&xt=read&n=1000
    local = readyou_get(app, "reader/api/0/stream/items/ids", f"&s=user/-/label/Local&xt={READ}&n=1000").json()
    assert sorted(int(r["id"]) for r in local["itemRefs"]) == sorted(
        entries[n].story_id for n in (0, 1, 2))
    # getItemsContents: POST …?output=json, form i=<short id>… and T
    body = "&".join(f"i={entries[n].story_id}" for n in (0, 2)) + f"&T={app.token}"
    items = app.post("reader/api/0/stream/items/contents?output=json", body).json()["items"]
    assert [i["id"] for i in items] == [ids.long_id(entries[0].story_id), ids.long_id(entries[2].story_id)]
    # editTag, then subscriptionEdit(ac=edit, s=feed/<id>, a=<new folder>, r=<old folder>, t=<name>)
    app.post("reader/api/0/edit-tag?output=json", f"i={entries[1].story_id}&a={READ}&T={app.token}")
    assert Entry.objects.get(pk=entries[1].pk).read
    city = entries[0].story.feed_id
    app.post("reader/api/0/subscription/edit?output=json",
             f"ac=edit&s=feed/{city}&a=user/-/label/Town&r=user/-/label/Local&t=Town%20hall&T={app.token}")
    assert Subscription.objects.filter(user=ann, feed_id=city, folder="Town", title="Town hall").exists()
    # markAllAsRead(s=feed/<id>, ts): the rest of the Port feed
    port = entries[2].story.feed_id
    assert app.post("reader/api/0/mark-all-as-read?output=json", f"s=feed/{port}&T={app.token}").content == b"OK"
    assert not Entry.objects.filter(user=ann, story__feed_id=port, read=False).exists()
    assert set(Entry.objects.filter(user=ann, read=False).values_list("id", flat=True)) == {entries[0].id, entries[5].id}


def test_stream_contents_pages_like_freshrss_clients_and_ranks_with_r_a(ann):
    """Reeder, FeedMe and FocusReader read whole streams with GET stream/contents/<stream>?n=&c= (FreshRSS's and
    Miniflux's shape); r=a is the ranked order, the label Recommended our picks."""
    turn_on(ann)
    entries = library(ann)["entries"]
    app = App("/api/greader/")
    app.auth = app.login(ann.username).content.decode().split("Auth=")[1].strip()
    seen, continuation = [], ""
    for _ in range(10):
        page = app.get(f"reader/api/0/stream/contents/{READING_LIST}?n=4&r=a&c={continuation}").json()
        seen += page["items"]
        continuation = page.get("continuation", "")
        if not continuation:
            break
    ranked = sorted(entries.values(), key=lambda e: -e.score)
    assert [i["id"] for i in seen] == [ids.long_id(e.story_id) for e in ranked]
    picks = app.get("reader/api/0/stream/contents/user/-/label/Recommended?n=20").json()["items"]
    assert {i["id"] for i in picks} == {ids.long_id(entries[n].story_id) for n in (0, 2, 5)}  # unread picks
    assert all(ids.label("Recommended") in i["categories"] for i in picks)
    counts = {c["id"]: c["count"] for c in app.get("reader/api/0/unread-count?output=json").json()["unreadcounts"]}
    assert counts[ids.label("Recommended")] == 3 and counts[READING_LIST] == 4 and counts[ids.label("Local")] == 3
    assert counts[f"feed/{entries[5].story.feed_id}"] == 1
