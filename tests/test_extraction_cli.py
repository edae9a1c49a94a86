"""python -m extraction on files and stdin."""
import gzip
import io
import json
import sys

import pytest

from extraction.__main__ import main

PARA = "Volunteers cleaned the river banks on Saturday and collected more than two tonnes of waste. "
PAGE = f"<html><head><title>River</title></head><body><nav><a href='/'>Home</a></nav>" \
       f"<article><p>{PARA}</p><p>{PARA}<a href='/more'>more</a></p></article></body></html>"


def test_text_from_a_gzipped_file(tmp_path, capsys):
    path = tmp_path / "page.html.gz"
    path.write_bytes(gzip.compress(PAGE.encode()))
    assert main([str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("River\n\n") and out.count("Volunteers") == 2 and "Home" not in out


def test_a_gzip_bomb_is_refused_without_unpacking_it_whole(tmp_path, capsys):
    """Gzip packs 32 MB of spaces into 32 KB; the CLI unpacked any file whole (a gigabyte took 2 GB of memory)."""
    path = tmp_path / "bomb.html.gz"
    with gzip.open(path, "wb", compresslevel=1) as out:
        out.write(b"<p>")
        for _ in range(32):
            out.write(b" " * (1024 * 1024))
    assert main([str(path)]) == 1
    assert "once unzipped, the limit for a page" in capsys.readouterr().err


@pytest.mark.parametrize("damage", [lambda data: data[:40], lambda data: data[:10] + b"\xff" * 20 + data[30:]],
                         ids=["cut", "bad deflate block"])  # the second was zlib.error, a traceback
def test_broken_gzip_data_is_a_clear_error(tmp_path, capsys, damage):
    path = tmp_path / "broken.html.gz"
    path.write_bytes(damage(gzip.compress(PAGE.encode())))
    assert main([str(path)]) == 1
    assert "broken gzip data" in capsys.readouterr().err


def test_json_with_base_url(tmp_path, capsys):
    path = tmp_path / "page.html"
    path.write_text(PAGE)
    assert main(["--format", "json", "--url", "https://river.example/news/", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["title"] == "River" and data["method"] == "clump"
    assert 'href="https://river.example/more"' in data["html"]


def test_html_from_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PAGE.encode())))
    assert main(["--format", "html", "-"]) == 0
    assert "<p>" in capsys.readouterr().out


def test_missing_file_and_empty_input_fail_cleanly(tmp_path, capsys):
    assert main([str(tmp_path / "missing.html")]) == 1
    assert "cannot read" in capsys.readouterr().err
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    assert main([str(empty)]) == 1
    assert "error: empty document" in capsys.readouterr().err


def test_cli_fetches_a_url_through_the_safe_fetcher(server, capsys):
    page = ("<html><head><title>Pier</title></head><body><nav>" + "<a href='/m'>Menu</a> " * 15 + "</nav><article>"
            + "<p>The ferry returns to the east pier this spring, the harbour authority said.</p>" * 5
            + "</article></body></html>")
    url = server.add("/story", page, headers={"Content-Type": "text/html; charset=utf-8"})
    assert main([url]) == 1 and "refused" in capsys.readouterr().err  # loopback is private by default
    assert main(["--allow", "127.0.0.1/32", "--format", "json", url]) == 0
    article = json.loads(capsys.readouterr().out)
    assert article["url"] == url and "east pier" in article["text"] and "Menu" not in article["text"]
