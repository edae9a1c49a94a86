"""A small XML file that expat refused, made into one it reads: for OPML files, which people export from many tools
and edit by hand, where one bad byte or bare "&" in one outline must not refuse the other thousand.

The repair only runs after the strict parse failed, so a well-formed file is read exactly as written. It never
adds an entity: a document type that declares one is still refused by defusedxml.
"""
from __future__ import annotations

import html.entities
import re
from xml.sax.saxutils import escape

from extraction.document import text_codec, xml_text

from . import charsets

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*>")
# An ampersand with what follows it, if that is a reference: a bare "&" (a URL's query) is text.
_AMPERSAND = re.compile(r"&(#[xX][0-9a-fA-F]{1,8};|#[0-9]{1,8};|[A-Za-z][A-Za-z0-9]{0,31};)?")
_XML_NAMED = {"amp;", "lt;", "gt;", "quot;", "apos;"}


def repaired(data: bytes, notes) -> str:
    """The document (whose declaration went through charsets.usable_declaration) as well-formed-as-can-be text; each kind of repair is noted once with how often."""
    return _references(xml_text(_text(data, notes)), notes)


def _text(data: bytes, notes) -> str:
    """The bytes decoded: by their byte order mark, else the encoding they declare, else UTF-8; when that does
    not decode them, by the detector's guess, each bad byte U+FFFD. The declaration goes, as it no longer holds."""
    data, _ = charsets.utf8_by_bom(data, "")
    declared = charsets.declared_encoding(data)
    codec = text_codec(declared or "utf-8") or "utf-8"  # charsets.usable_declaration dropped unusable ones
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        guess = text_codec(charsets.detect(data) or charsets.DEFAULT)
        guess = charsets.DEFAULT if guess in (None, codec) else guess  # not the one that just failed
        notes.add(f"the file is not in {declared or 'UTF-8'}; read it as {guess}")
        text = data.decode(guess, "replace")
    return _XML_DECLARATION.sub("", text, count=1)


def _references(text: str, notes) -> str:
    def readable(match: re.Match) -> str:
        ref = match.group(1)
        if ref is None:
            notes.add('read an "&" that starts no reference as itself')
            return "&amp;"
        if ref.startswith("#"):
            digits, base = (ref[2:-1], 16) if ref[1] in "xX" else (ref[1:-1], 10)
            code = int(digits, base)
            if code < 0x110000 and xml_text(chr(code)):  # the characters XML can hold
                return match.group(0)
            notes.add("read a reference to no XML character as \ufffd")
            return "&#xFFFD;"
        if ref in _XML_NAMED:
            return match.group(0)
        if ref in html.entities.html5:  # an HTML entity XML does not know: its character
            return escape(html.entities.html5[ref], {'"': "&quot;"})
        notes.add(f"read an unknown entity &{ref[:32]} as text")
        return "&amp;" + ref

    return _AMPERSAND.sub(readable, text)
