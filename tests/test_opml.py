"""OPML import (folders kept, failures reported, 1,000 feeds in one go) and export, and their commands."""
from io import StringIO

import pytest
from defusedxml.ElementTree import fromstring
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from reader.models import Feed, Story, Subscription, Entry
from reader.ingestion.opml import OpmlError, export_opml, import_opml
from ui_factories import record_sends

pytestmark = pytest.mark.django_db

NESTED = b"""<?xml version="1.0"?><opml version="2.0"><head><title>mine</title></head><body>
<outline text="News">
  <outline text="World" title="World"><outline type="rss" text="Globe" xmlUrl="http://globe.example/rss"/></outline>
  <outline type="rss" text="Daily" xmlUrl="https://daily.example/feed" htmlUrl="https://daily.example/"/>
</outline>
<outline type="rss" text="Loose" xmlUrl="http://loose.example/atom.xml"/>
<outline type="rss" text="No url"/>
<outline type="rss" text="Bad scheme" xmlUrl="ftp://files.example/feed"/>
<outline type="rss" text="Twice" xmlUrl="http://loose.example/atom.xml"/>
<outline type="rss" text="Junk" xmlUrl="not a url"/>
</body></opml>"""


@pytest.fixture
def user():
    return User.objects.create_user("olga")


@pytest.fixture(autouse=True)
def no_queue(monkeypatch):
    """Import queues first fetches after commit; here we only count them."""
    return record_sends(monkeypatch, "reader.tasks.fetch_feed")


def test_nested_folders_are_kept_and_failures_reported(user, django_capture_on_commit_callbacks, no_queue):
    with django_capture_on_commit_callbacks(execute=True):
        report = import_opml(user, NESTED)
    folders = dict(Subscription.objects.filter(user=user).values_list("feed__url", "folder"))
    assert folders == {"http://globe.example/rss": "News/World", "https://daily.example/feed": "News",
                       "http://loose.example/atom.xml": ""}
    assert (report.found, report.subscribed, report.already) == (7, 3, 0)
    assert dict(report.failed) == {"No url": "no xmlUrl attribute", "ftp://files.example/feed": "not an http(s) URL",
                                   "http://loose.example/atom.xml": "listed twice in the file; the first folder is kept",
                                   "not a url": "not an http(s) URL"}
    assert sorted(no_queue) == sorted(Feed.objects.values_list("id", flat=True))
    assert "3 subscribed" in str(report) and "failed: not a url: not an http(s) URL" in str(report)


def test_importing_again_changes_nothing(user):
    import_opml(user, NESTED)
    report = import_opml(user, NESTED)
    assert (report.subscribed, report.already) == (0, 3) and Subscription.objects.count() == 3


def test_existing_feeds_bring_their_stories(user):
    feed = Feed.objects.create(url="http://globe.example/rss")
    story = Story.objects.create(feed=feed, guid="g")
    report = import_opml(user, NESTED)
    assert Entry.objects.filter(user=user, story=story).exists() and feed.id not in report.new_feed_ids


def test_a_thousand_feeds_import_in_one_go(user, django_assert_max_num_queries):
    outlines = "".join(f'<outline type="rss" text="F{i}" xmlUrl="http://site{i % 300}.example/f{i}.xml"/>'
                       for i in range(1000))
    data = f'<opml version="1.0"><body><outline text="Lots">{outlines}</outline></body></opml>'.encode()
    with django_assert_max_num_queries(40):  # batched inserts (SQLite batches more), never one per feed
        report = import_opml(user, data)
    assert report.subscribed == 1000 and not report.failed
    assert Subscription.objects.filter(user=user, folder="Lots").count() == 1000


@pytest.mark.parametrize("data, message", [
    (b"<html><body>nope</body></html>", "no <opml> root"),
    (b"<opml><body><outline", "not an OPML file"),
    (b'<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY x SYSTEM "file:///etc/passwd">]><opml><body>'
     b'<outline xmlUrl="http://a.example/&x;"/></body></opml>', "not an OPML file"),
])
def test_bad_files_import_nothing(user, data, message):
    with pytest.raises(OpmlError, match=message):
        import_opml(user, data)
    assert not Subscription.objects.exists()


GOOD = '<outline type="rss" text="Good" xmlUrl="http://good.example/feed"/>'


def opml_with(outline: str, declaration: str = '<?xml version="1.0"?>') -> bytes:
    return f'{declaration}<opml version="2.0"><body>{GOOD}{outline}</body></opml>'.encode()


@pytest.mark.parametrize("data, url, title, note", [
    # A charset name that is no text codec made expat raise LookupError, out of the import task.
    (opml_with('<outline text="Z\u00fcrich" xmlUrl="http://z.example/f"/>', '<?xml version="1.0" encoding="rot13"?>'),
     "http://z.example/f", "Z\u00fcrich", "ignored the encoding 'rot13' the document declares: not a text encoding"),
    (opml_with('<outline text="Z\u00fcrich" xmlUrl="http://z.example/f"/>', '<?xml version="1.0" encoding="base64"?>'),
     "http://z.example/f", "Z\u00fcrich", "ignored the encoding 'base64'"),
    (opml_with('<outline text="A" xmlUrl="http://a.example/f?a=1&b=2"/>'),
     "http://a.example/f?a=1&b=2", "A", 'read an "&" that starts no reference as itself'),
    (opml_with('<outline text="A&#xD800;&nbsp;B" xmlUrl="http://a.example/f"/>'),
     "http://a.example/f", "A\ufffd B", "read a reference to no XML character as \ufffd"),
    (opml_with('<outline text="Z\u00fcrich" xmlUrl="http://z.example/f"/>').replace(b"\xc3\xbc", b"\xfc"),
     "http://z.example/f", "Z\u00fcrich", "the file is not in UTF-8; read it as"),
    (opml_with('<outline text="A\x01" xmlUrl="http://a.example/f"/>', '<?xml version="1.0" encoding="utf-16"?>'),
     "http://a.example/f", "A", "not well-formed XML"),
])
def test_one_bad_outline_or_declaration_keeps_the_rest_and_says_what_was_read_around(user, data, url, title, note):
    report = import_opml(user, data)
    labels = dict(Subscription.objects.filter(user=user).values_list("feed__url", "title"))
    assert labels == {"http://good.example/feed": "Good", url: title}
    assert any(note in line for line in report.notes) and f"note: {report.notes[0]}" in str(report)


def test_a_feed_address_of_3000_bytes_is_reported_not_stored(user):
    """1,000 CJK characters pass the 2,000-character check, but not PostgreSQL's unique index on Feed.url: the
    import task failed on it, and the import page waited for good."""
    cjk = "".join(chr(0x4E00 + i * 7919 % 20000) for i in range(1000))
    report = import_opml(user, opml_with(f'<outline type="rss" text="Wide" xmlUrl="http://a.example/{cjk}"/>'))
    assert report.subscribed == 1
    assert report.failed == [(f"http://a.example/{cjk}", "URL longer than 2000 bytes in UTF-8")]


def test_a_latin1_file_the_detector_calls_utf8_is_read_as_the_webs_default(user):
    # The detector, shown only invalid UTF-8, can answer UTF-8: the decoding that just failed.
    data = opml_with('<outline text="' + "\u00e9" * 50_000 + '" xmlUrl="http://z.example/f"/>').replace(b"\xc3\xa9", b"\xe9")
    report = import_opml(user, data)
    assert Subscription.objects.get(user=user, feed__url="http://z.example/f").title == "\u00e9" * 500
    assert "the file is not in UTF-8; read it as cp1252" in report.notes


def test_a_well_formed_file_has_no_notes(user):
    assert import_opml(user, NESTED).notes == []


def test_entities_are_still_refused_when_the_file_is_also_broken(user):
    data = (b'<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY x "&#38;x;&#38;x;">]><opml><body>'
            b'<outline xmlUrl="http://a.example/?a&b" text="&x;"/></body></opml>')
    with pytest.raises(OpmlError, match="EntitiesForbidden"):
        import_opml(user, data)


def test_outlines_inside_a_feeds_outline_are_not_lost(user):
    data = opml_with('<outline type="rss" text="Parent" xmlUrl="http://p.example/f">'
                     '<outline type="rss" text="Child" xmlUrl="http://c.example/f"/></outline>')
    report = import_opml(user, data)
    folders = dict(Subscription.objects.filter(user=user).values_list("feed__url", "folder"))
    assert folders == {"http://good.example/feed": "", "http://p.example/f": "", "http://c.example/f": "Parent"}
    assert report.found == 3


def test_export_round_trips_folders(user):
    import_opml(user, NESTED)
    Feed.objects.filter(url="https://daily.example/feed").update(title="Daily & Co", site_url="https://daily.example/")
    root = fromstring(export_opml(user))
    news = root.find("body/outline[@text='News']")
    assert news.find("outline[@text='World']/outline").get("xmlUrl") == "http://globe.example/rss"
    daily = news.find("outline[@xmlUrl='https://daily.example/feed']")
    # The user's own label from the file, not the feed's title: labels are per user.
    assert daily.get("title") == "Daily" and daily.get("htmlUrl") == "https://daily.example/"
    other = User.objects.create_user("pia")
    report = import_opml(other, export_opml(user))
    assert report.subscribed == 3
    assert dict(Subscription.objects.filter(user=other).values_list("feed__url", "folder")) == \
        dict(Subscription.objects.filter(user=user).values_list("feed__url", "folder"))


def test_export_is_well_formed_xml_whatever_a_name_holds(user):
    # Names stored before control characters were dropped on the way in: ElementTree writes them as they are,
    # and no reader (ours included) then imports the file.
    import_opml(user, NESTED)
    Subscription.objects.filter(user=user, feed__url="http://loose.example/atom.xml").update(title="Lo\x01o\x1bse")
    Feed.objects.filter(url="http://globe.example/rss").update(title="Glo\ufffebe")
    Subscription.objects.filter(user=user, feed__url="http://globe.example/rss").update(title="", folder="Wor\x0bld")
    root = fromstring(export_opml(user))
    names = {o.get("xmlUrl"): o.get("text") for o in root.iter("outline") if o.get("xmlUrl")}
    assert names["http://loose.example/atom.xml"] == "Loose" and names["http://globe.example/rss"] == "Globe"


def test_commands(user, tmp_path):
    path = tmp_path / "subs.opml"
    path.write_bytes(NESTED)
    out = StringIO()
    call_command("import_opml", str(path), "--user", "olga", stdout=out)
    assert "7 feeds in the file: 3 subscribed" in out.getvalue()
    out = StringIO()
    call_command("export_opml", "--user", "olga", stdout=out)
    assert out.getvalue().count("xmlUrl=") == 3
    with pytest.raises(CommandError, match="no user named"):
        call_command("export_opml", "--user", "nobody")
    with pytest.raises(CommandError):
        call_command("import_opml", str(tmp_path / "missing.opml"), "--user", "olga")
