"""The stored form of a user model: versioned, checksummed, compressed, and small.

Layout: MAGIC, one format-version byte, CRC32 of the rest, then zlib of
(4-byte header length, JSON header, delta-coded feature indices as uint32, weights as float16).
"""
from __future__ import annotations

import json
import struct
import zlib

import numpy as np

from .features import FEATURE_VERSION

MAGIC = b"NRUM"
FORMAT_VERSION = 1
MAX_BYTES = 50_000


class ModelError(ValueError):
    """A stored model that cannot be used: corrupt, truncated, or written by another version."""


def dump(doc: dict) -> bytes:
    indices = np.asarray(doc.pop("indices"), np.int64)
    weights = np.asarray(doc.pop("weights"), np.float16)
    doc["extras"] = [float(x) for x in doc["extras"]]
    doc["feature_version"] = FEATURE_VERSION
    header = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
    deltas = np.diff(indices, prepend=0).astype("<u4")
    body = struct.pack("<I", len(header)) + header + struct.pack("<I", len(indices))
    body += deltas.tobytes() + weights.astype("<f2").tobytes()
    packed = zlib.compress(body, 9)
    return MAGIC + bytes([FORMAT_VERSION]) + struct.pack("<I", zlib.crc32(packed)) + packed


def load(data: bytes) -> dict:
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ModelError(f"stored model must be bytes, not {type(data).__name__}")
    data = bytes(data)
    if len(data) < 9 or data[:4] != MAGIC:
        raise ModelError("stored model is corrupt: not a recommender model")
    if data[4] != FORMAT_VERSION:
        raise ModelError(f"stored model has format version {data[4]}, this code reads {FORMAT_VERSION}")
    (crc,) = struct.unpack("<I", data[5:9])
    if zlib.crc32(data[9:]) != crc:
        raise ModelError("stored model is corrupt: checksum mismatch")
    try:
        body = zlib.decompress(data[9:])
        (size,) = struct.unpack_from("<I", body, 0)
        doc = json.loads(body[4:4 + size])
        (count,) = struct.unpack_from("<I", body, 4 + size)
        start = 8 + size
        deltas = np.frombuffer(body, "<u4", count, start)
        weights = np.frombuffer(body, "<f2", count, start + 4 * count)
        version = doc.get("feature_version")
        doc["extras"] = np.asarray(doc["extras"], np.float64).ravel()
    except (zlib.error, struct.error, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ModelError(f"stored model is corrupt: {exc!r}") from exc
    if version != FEATURE_VERSION:
        raise ModelError(f"stored model was built on features v{version}, "
                         f"this code makes v{FEATURE_VERSION}; refit it")
    doc["indices"] = np.cumsum(deltas.astype(np.int64)).astype(np.int32)
    doc["weights"] = weights.astype(np.float32)
    return doc
