"""Per-story features: any text (none, non-English), stored as JSON, refused clearly when corrupt."""
import pytest

from recommender import FeatureError, Story, StoryFeatures, featurize, fit
from recommender.features import names, words


def test_story_without_text_still_has_feed_and_site_features():
    f = featurize(Story(id=1, feed="energy", url="https://www.example.org/a"))
    assert sorted(f.kinds) == ["feed", "site"]
    assert "example.org" in f.keys


def test_completely_empty_story_is_scored():
    empty = Story(id=1)
    assert len(featurize(empty).indices) == 0
    model = fit([(empty, True), (Story(id=2, title="oil"), False)])
    assert 0 < model.predict([empty])[0] < 1


def test_non_english_words_are_kept():
    assert words("Ölpreis steigt — цены на нефть растут; 石油") == ["ölpreis", "steigt", "цены", "на", "нефть",
                                                                   "растут", "石油"]
    model = fit([(Story(id=1, text="цены на нефть растут"), True), (Story(id=2, text="футбол матч"), False)])
    oil, football = model.predict([Story(id=3, text="нефть"), Story(id=4, text="матч")])
    assert oil > football


def test_proper_names_are_found_mid_sentence_only():
    assert names("Oil rose. Shares of West German banks fell, OPEC said") == ["west german", "opec"]


def test_a_paragraphs_first_word_opens_a_sentence_and_is_no_name():
    # Extracted text: whitespace collapsed within paragraphs, paragraphs joined by a blank line. The taste page
    # listed "Boatmen" and "Engineers" as names for the words opening a story's paragraphs.
    text = "The ferry returns to Harbour Gazette readers\n\nBoatmen welcomed it\n\nEngineers met Anna Lind"
    assert names(text) == ["harbour gazette", "anna lind"]


def test_json_round_trip_is_exact():
    f = featurize(Story(id="a1", title="OPEC meets", text="Crude talks in Vienna", feed=7, feed_title="Energy",
                        author="Jane Roe", tags=["crude", "opec"], url="https://reuters.com/x"))
    again = StoryFeatures.from_json(f.to_json())
    assert again.story_id == "a1" and again.feed == "7" and again.feed_title == "Energy"
    assert list(again.indices) == list(f.indices) and again.keys == f.keys
    assert again.values == pytest.approx(f.values, abs=1e-5)


@pytest.mark.parametrize("data", ["{", '{"v": 1}', '{"v": 999, "id": 1, "f": []}', '[1, 2]', b"\xff\xfe"])
def test_bad_stored_features_raise_feature_error(data):
    with pytest.raises(FeatureError):
        StoryFeatures.from_json(data)


def test_features_are_the_same_whatever_the_process():
    # hashed with crc32, not Python's salted hash(): stored features stay valid across restarts
    f = featurize(Story(id=1, title="opec"))
    assert int(f.indices[0]) == 32047


def test_tags_that_are_not_words_are_dropped_not_fatal():
    story = Story(id=1, title="opec", tags=[7, None, {"term": "x"}, "  ", " Crude "])
    assert story.tags == (" Crude ",)
    assert [k for kind, k in zip(featurize(story).kinds, featurize(story).keys) if kind == "tag"] == ["crude"]
