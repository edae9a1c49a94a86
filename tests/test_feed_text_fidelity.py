"""Issue 16 finding 15: feed text kept on the way in.

Plain-text titles stay text, MathML and SVG keep their text, undeclared legacy encodings are read, every Atom
author is kept without their e-mail, and the entry cap is applied before feedparser reads every item.
"""
import json

import pytest

from reader.ingestion.parsing import first_entries, parse

BASE = "http://news.example/feed"


def atom(entry="", title='<title type="text">History of the &lt;blink&gt; tag</title>'):
    return (f'<feed xmlns="http://www.w3.org/2005/Atom">{title}<id>urn:f</id>'
            f"<entry><id>urn:1</id>{title}{entry}</entry></feed>").encode()


def test_a_plain_text_atom_title_keeps_its_angle_brackets():
    feed = parse(atom(), BASE)
    assert feed.title == feed.entries[0].title == "History of the <blink> tag"


def test_an_html_title_is_still_read_as_html():
    feed = parse(atom(title='<title type="html">Bold &lt;b&gt;move&lt;/b&gt; &amp;amp; more</title>'), BASE)
    assert feed.entries[0].title == "Bold move & more"


def test_an_html_title_reads_as_the_extractor_renders_text():
    # One HTML-to-text for the reader and the extractor: blocks and breaks part words, scripts are not text.
    title = '<title type="html">&lt;p&gt;Rain&lt;/p&gt;&lt;p&gt;today&lt;br&gt;again&lt;script&gt;x()&lt;/script&gt;</title>'
    assert parse(atom(title=title), BASE).entries[0].title == "Rain today again"


def test_an_rss_title_of_escaped_markup_is_not_emptied():
    body = ('<rss version="2.0"><channel><title>&lt;/example&gt;</title><item><title>&lt;/example&gt;</title>'
            '<guid>1</guid></item></channel></rss>')
    feed = parse(body.encode(), BASE)
    assert feed.title == feed.entries[0].title == "</example>"


def test_a_json_title_is_plain_text():
    doc = {"version": "https://jsonfeed.org/version/1.1", "title": "<b>desk</b>",
           "items": [{"id": "1", "title": "</example>", "content_text": "x"}]}
    feed = parse(json.dumps(doc).encode(), BASE)
    assert (feed.title, feed.entries[0].title) == ("<b>desk</b>", "</example>")


MATHML = ('<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Euler:</p>'
          '<math xmlns="http://www.w3.org/1998/Math/MathML"><mi>e</mi><mo>=</mo><mn>2.718</mn></math></div></content>')
SVG = ('<content type="html">&lt;svg xmlns="http://www.w3.org/2000/svg"&gt;&lt;title&gt;Sales chart&lt;/title&gt;'
       '&lt;script&gt;alert(1)&lt;/script&gt;&lt;text onclick="alert(2)"&gt;Up 5%&lt;/text&gt;&lt;/svg&gt;</content>')
ALTTEXT = ('<content type="html">&lt;math alttext="a squared"&gt;&lt;msup&gt;&lt;mi&gt;a&lt;/mi&gt;&lt;mn&gt;2'
           '&lt;/mn&gt;&lt;/msup&gt;&lt;/math&gt;</content>')


@pytest.mark.parametrize("content, text", [(MATHML, "e=2.718"), (SVG, "Up 5%"), (ALTTEXT, "a squared")])
def test_mathml_and_svg_keep_their_text_in_a_safe_form(content, text):
    html = parse(atom(content), BASE).entries[0].content_html
    assert text in html
    assert "<svg" not in html and "<math" not in html and "<script" not in html and "onclick" not in html


LEGACY = {
    "euc_jp": "東京の天気は晴れです。明日は雨が降るかもしれません。新しい図書館が駅の近くに開館しました。",
    "shift_jis": "東京の天気は晴れです。明日は雨が降るかもしれません。新しい図書館が駅の近くに開館しました。",
    "euc_kr": "서울의 날씨는 맑습니다. 내일은 비가 올 수도 있습니다. 새 도서관이 역 근처에 문을 열었습니다.",
    "gb2312": "北京今天天气晴朗。明天可能会下雨。新的图书馆在车站附近开放了。",
    "koi8_r": "Сегодня в Москве солнечно. Завтра может пойти дождь. Новая библиотека открылась рядом с вокзалом.",
    "tis_620": "วันนี้อากาศในกรุงเทพแจ่มใส พรุ่งนี้ฝนอาจจะตก ห้องสมุดใหม่เปิดใกล้สถานีรถไฟ",
    "windows-1255": "היום מזג האוויר בירושלים נאה. מחר עשוי לרדת גשם. ספרייה חדשה נפתחה ליד תחנת הרכבת.",
}


@pytest.mark.parametrize("encoding", LEGACY)
def test_an_undeclared_legacy_encoding_is_detected(encoding):
    text = LEGACY[encoding]
    body = (f'<?xml version="1.0"?><rss version="2.0"><channel><title>{text[:12]}</title>'
            + "".join(f"<item><guid>{n}</guid><title>{text[:20]}</title><description>{text}</description></item>"
                      for n in range(3)) + "</channel></rss>")
    feed = parse(body.encode(encoding), BASE, "application/rss+xml")
    assert feed.title == text[:12] and feed.entries[0].title == text[:20]
    assert text in feed.entries[0].content_html


def test_every_atom_author_is_kept_without_their_email():
    entry = ("<author><name>Ada One</name><email>ada@example.org</email></author>"
             "<author><name>Bo Two (bo@example.org)</name></author><author><name>Ada One</name></author>")
    assert parse(atom(entry), BASE).entries[0].author == "Ada One, Bo Two"


@pytest.mark.parametrize("author", ["Me (me@localhost)", "me@localhost (Me)", "Me <me@localhost>"])
def test_an_rss_author_loses_the_email_beside_the_name(author):
    author = author.replace("<", "&lt;")
    body = f'<rss version="2.0"><channel><title>t</title><item><guid>1</guid><author>{author}</author></item></channel></rss>'
    assert parse(body.encode(), BASE).entries[0].author == "Me"


def big_feed(count, broken_at=None, cdata_at=None):
    items = []
    for n in range(count):
        extra = "<<<not xml>>>" if n == broken_at else ""
        extra += "<![CDATA[ a literal </item> in text ]]>" if n == cdata_at else ""
        items.append(f"<item><guid>{n}</guid><title>Item {n}</title><description>{'words ' * 50}{extra}"
                     f"</description></item>")
    return f'<rss version="2.0"><channel><title>Big</title>{"".join(items)}</channel></rss>'.encode()


def test_the_cap_cuts_the_document_before_feedparser_reads_it():
    cut, total = first_entries(big_feed(3_000), 500)
    assert total == 3_000 and cut.count(b"</item>") == 500 and cut.endswith(b"</channel></rss>")


def test_items_past_the_cap_are_never_parsed():
    feed = parse(big_feed(3_000, broken_at=2_000), BASE, max_entries=500)
    assert len(feed.entries) == 500 and feed.total_entries == 3_000
    assert feed.entries[-1].title == "Item 499" and "read leniently" not in feed.problem


def test_a_cut_fooled_by_cdata_falls_back_to_the_whole_document():
    feed = parse(big_feed(600, cdata_at=10), BASE, max_entries=500)
    assert len(feed.entries) == 500 and feed.entries[-1].title == "Item 499"


def test_a_literal_end_tag_in_cdata_is_not_counted_as_an_entry():
    feed = parse(big_feed(100, cdata_at=10), BASE, max_entries=500)
    assert len(feed.entries) == feed.total_entries == 100
