"""Stored models: compact, versioned round trip; corruption raises ModelError so the caller refits."""
import random
import struct

import numpy as np
import pytest

from recommender import ModelError, Story, UserModel, featurize, fit
from recommender import storage

WORDS = [f"w{a}{b}" for a in "abcdefghijklmnopqrst" for b in "abcdefghijklmnopqrst"]


def story(i, rng):
    return Story(id=i, title=" ".join(rng.sample(WORDS, 5)), text=" ".join(rng.sample(WORDS, 80)),
                 feed=f"feed{i % 7}", author=f"author {i % 13}", tags=rng.sample(WORDS, 3), url="https://x.test/a")


@pytest.fixture(scope="module")
def big_model():
    rng = random.Random(4)
    ratings = [(featurize(story(i, rng)), rng.random() < 0.4) for i in range(600)]
    return fit(ratings, subscribed_feeds=[f"feed{i}" for i in range(7)]), [f for f, _ in ratings]


def test_round_trip_scores_the_same(big_model):
    model, stories = big_model
    again = UserModel.from_bytes(model.to_bytes())
    np.testing.assert_allclose(again.predict(stories[:50]), model.predict(stories[:50]), atol=2e-3)
    assert [s.recommended for s in again.score(stories[:50])] == [s.recommended for s in model.score(stories[:50])]
    assert [n[:2] for n in again.taste().likes[:3]] == [n[:2] for n in model.taste().likes[:3]]
    assert again.taste().agreement == model.taste().agreement


def test_a_heavy_user_s_model_fits_in_50_kb(big_model):
    model, _ = big_model
    assert len(model.to_bytes()) <= storage.MAX_BYTES


@pytest.mark.parametrize("damage", [
    lambda b: b[:-10],  # truncated
    lambda b: b[:20] + bytes([b[20] ^ 0xFF]) + b[21:],  # one flipped byte
    lambda b: b"",
    lambda b: b"not a model at all",
])
def test_corruption_raises_model_error(big_model, damage):
    with pytest.raises(ModelError, match="corrupt"):
        UserModel.from_bytes(damage(big_model[0].to_bytes()))


def test_other_format_version_is_refused(big_model):
    data = big_model[0].to_bytes()
    with pytest.raises(ModelError, match="version"):
        UserModel.from_bytes(data[:4] + bytes([storage.FORMAT_VERSION + 1]) + data[5:])


def test_consistent_but_wrong_content_is_still_a_model_error():
    import json
    import zlib
    header = json.dumps({"feature_version": 1}).encode()
    body = struct.pack("<I", len(header)) + header + struct.pack("<I", 0)
    packed = zlib.compress(body)
    data = storage.MAGIC + bytes([storage.FORMAT_VERSION]) + struct.pack("<I", zlib.crc32(packed)) + packed
    with pytest.raises(ModelError):
        UserModel.from_bytes(data)


def test_model_error_is_a_value_error():
    assert issubclass(ModelError, ValueError)
