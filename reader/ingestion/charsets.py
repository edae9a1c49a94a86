"""Which charset a feed's bytes are in, when the server and the document do not say, or say nonsense.

A charset name can name a codec that is not a text encoding (zlib, base64) or one that raises on every byte
(undefined); feedparser would then crash. Those names are dropped and noted, and the detector decides.
"""
from __future__ import annotations

import re

from charset_normalizer import from_bytes

from extraction.document import ascii_compatible, contradicted, text_codec

_CHARSET_PARAM = re.compile(r";\s*charset\s*=\s*[\"']?([^;\"'\s]*)[\"']?", re.I)
_XML_ENCODING = re.compile(rb"^(\xef\xbb\xbf)?(<\?xml[^>]{0,200}?encoding\s*=\s*[\"'])([^\"']{0,100})([\"'])")
# Text between tags, kept when it holds non-ASCII bytes. "<" and ">" are never the second byte of a character
# in the legacy CJK encodings, so cutting there splits no character.
_TEXT = re.compile(rb"[^<>]+")
_NON_ASCII = re.compile(rb"[\x80-\xff]")
# Detection reads only such text (markup tells it nothing), at most this much of it from the start of the
# document: a bounded cost whatever the feed's size.
SAMPLE_BYTES = 32 * 1024
SCAN_BYTES = 1024 * 1024
# The legacy encodings browsers support (the WHATWG Encoding Standard), the ones feeds are written in.
LEGACY = ("ibm866", "iso8859_2", "iso8859_3", "iso8859_4", "iso8859_5", "iso8859_6", "iso8859_7", "iso8859_8",
          "iso8859_10", "iso8859_13", "iso8859_14", "iso8859_15", "iso8859_16", "koi8_r", "koi8_u", "mac_roman",
          "cp874", "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258",
          "mac_cyrillic", "gb18030", "big5", "euc_jp", "iso2022_jp", "shift_jis", "euc_kr", "utf_8")
DEFAULT = "cp1252"  # the web's default legacy encoding, preferred when a short sample fits several equally


def usable(name: str) -> bool:
    """Whether bytes.decode(name) can work: a known text codec, not zlib, base64, undefined... (the extractor's
    own test of a charset name, so feeds and pages agree on what counts as one)."""
    return text_codec(name) is not None


def usable_content_type(content_type: str, notes, content: bytes = b"") -> str:
    """The Content-Type without a charset parameter that no text codec answers to, or that does not read ASCII as
    ASCII when the content starts with ASCII markup (EBCDIC refused such a feed whole; Python's unicode_escape
    read "C:\\new" as a line break)."""
    match = _CHARSET_PARAM.search(content_type or "")
    name = match.group(1) if match else ""
    if not name or (usable(name) and not contradicted(text_codec(name), content)):
        return content_type
    why = "not a text encoding" if not usable(name) else "the document is not written in it"
    notes.add(f"ignored the charset {name[:40]!r} named by the server: {why}")
    return content_type[:match.start()] + content_type[match.end():]


def _reads_ascii(name: str) -> bool:
    return ascii_compatible(text_codec(name)) == text_codec(name)


def declared_encoding(content: bytes) -> str | None:
    """The encoding the document's XML declaration names, if it has one."""
    match = _XML_ENCODING.match(content)
    return match.group(3).decode("latin-1") if match else None


def usable_declaration(content: bytes, notes) -> bytes:
    """The document with an unusable encoding in its XML declaration replaced by utf-8: one that is no text codec,
    or one that does not read ASCII as ASCII (UTF-16, UTF-32, EBCDIC), since the declaration was just read in
    ASCII (a UTF-16 document without a byte order mark does not match; it starts "<\\0?\\0")."""
    match = _XML_ENCODING.match(content)
    name = match.group(3).decode("latin-1") if match else ""
    if not match or (usable(name) and _reads_ascii(name)):
        return content
    why = "not a text encoding" if not usable(name) else "the document is not written in it"
    notes.add(f"ignored the encoding {name[:40]!r} the document declares: {why}")
    return _declared_utf8(content, match)


def _declared_utf8(content: bytes, declaration: re.Match) -> bytes:
    """The document with the encoding its XML declaration names (matched by _XML_ENCODING) replaced by utf-8."""
    return content[:declaration.start(3)] + b"utf-8" + content[declaration.end(3):]


# A byte order mark decides the encoding, over the server and the declaration (XML 1.0 appendix F, WHATWG).
# UTF-32's marks first: little-endian UTF-32's starts with UTF-16's.
_BOMS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"), (b"\xff\xfe", "utf-16"),
         (b"\xfe\xff", "utf-16"), (b"\xef\xbb\xbf", "utf-8-sig"))


def utf8_by_bom(content: bytes, content_type: str) -> tuple[bytes, str]:
    """A document with a byte order mark as UTF-8 without one, declared so, with any server charset dropped.

    feedparser tries UTF-8 before the mark, and ASCII text in UTF-16 decodes as UTF-8 (NUL bytes are valid),
    so such a feed without a declaration was read as markup full of NULs and refused whole; a server's
    charset also won over a UTF-8 mark."""
    codec = next((name for bom, name in _BOMS if content.startswith(bom)), None)
    if codec is None:
        return content, content_type
    text = content.decode(codec, "replace").encode("utf-8")
    match = _XML_ENCODING.match(text)
    if match:
        text = _declared_utf8(text, match)
    return text, _CHARSET_PARAM.sub("", content_type or "")


def detect(data: bytes) -> str:
    """The likeliest charset of data, judged from a bounded sample of its non-ASCII lines ("" if none)."""
    sample = bytearray()
    for match in _TEXT.finditer(data, 0, SCAN_BYTES):
        if _NON_ASCII.search(match.group()):
            sample += match.group() + b"\n"
        if len(sample) >= SAMPLE_BYTES:
            break
    if not sample:
        return ""
    if len(sample) > SAMPLE_BYTES:  # cut after an ASCII byte, so that no character is split
        cut = max(sample.rfind(byte, 0, SAMPLE_BYTES) for byte in (b"\n", b" ")) + 1
        sample = sample[:cut or SAMPLE_BYTES]
    matches = from_bytes(bytes(sample), cp_isolation=list(LEGACY))
    best = matches.best()
    if best is None:
        return ""
    tied = {m.encoding for m in matches if (m.chaos, m.coherence) == (best.chaos, best.coherence)}
    return DEFAULT if DEFAULT in tied else best.encoding
