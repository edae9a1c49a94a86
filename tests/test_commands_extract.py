"""`manage.py extract`: a page from a URL (under the reader's fetch policy) or a file."""
import gzip

import pytest
from django.core.management import CommandError, call_command

PAGE = ("<html><head><title>Pier reopens</title></head><body><nav>" + "<a href='/m'>Menu</a> " * 15 + "</nav>"
        "<article>" + "<p>The ferry returns to the east pier this spring, the harbour authority said.</p>" * 5
        + "</article></body></html>")


def test_extracts_a_url_when_the_policy_allows_it(server, allow_loopback, capsys):
    call_command("extract", server.add("/story", PAGE))
    out = capsys.readouterr().out
    assert out.startswith("# Pier reopens") and "east pier" in out and "Menu" not in out


def test_refused_address_is_a_command_error(server):
    with pytest.raises(CommandError, match="refused"):
        call_command("extract", server.add("/story", PAGE))
    assert server.requests == []


def test_extracts_a_gzipped_file(tmp_path, capsys):
    path = tmp_path / "page.html.gz"
    path.write_bytes(gzip.compress(PAGE.encode()))
    call_command("extract", str(path), method="readability")
    assert "east pier" in capsys.readouterr().out
