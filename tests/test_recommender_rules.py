"""Explicit always-show / always-hide rules override the model and say so."""
import pytest

from recommender import HIDE, SHOW, Rule, Story, fit

OIL = Story(id="oil", title="OPEC meets", text="Crude output talks in Vienna", feed="energy",
            feed_title="Energy desk", author="Jane Roe", tags=["crude"])
SPORT = Story(id="sport", title="Cup final", text="The striker scored twice", feed="sport",
              feed_title="Sport desk", tags=["football"])
RATINGS = [(OIL, True), (SPORT, False)] * 3


def by_id(scored):
    return {s.story_id: s for s in scored}


@pytest.mark.parametrize("rule", [Rule("word", "striker", SHOW), Rule("tag", "Football", SHOW),
                                  Rule("feed", "Sport desk", SHOW), Rule("feed", "sport", SHOW)])
def test_show_rule_recommends_a_story_the_model_dislikes(rule):
    model = fit(RATINGS, rules=[rule])
    sport = by_id(model.score([OIL, SPORT]))["sport"]
    assert sport.recommended and sport.rule == rule
    assert sport.reasons[0].startswith("your rule: always show")
    assert sport.score < 0.5  # the model's own opinion is kept for ranking


def test_hide_rule_hides_a_story_the_model_likes():
    model = fit(RATINGS).with_rules([Rule("author", "jane roe", HIDE)])
    oil = by_id(model.score([OIL, SPORT]))["oil"]
    assert not oil.recommended
    assert oil.reasons[0] == "your rule: always hide stories by “jane roe”"


def test_show_beats_hide_when_both_match():
    model = fit(RATINGS, rules=[Rule("tag", "crude", HIDE), Rule("word", "vienna", SHOW)])
    assert by_id(model.score([OIL]))["oil"].recommended


def test_rules_survive_storage():
    rule = Rule("word", "opec", HIDE)
    model = fit(RATINGS, rules=[rule])
    assert type(model).from_bytes(model.to_bytes()).rules == (rule,)


@pytest.mark.parametrize("args,message", [(("colour", "red", SHOW), "kind"), (("word", "oil", "pin"), "action"),
                                          (("word", "crude oil", SHOW), "one word"), (("tag", "  ", HIDE), "value")])
def test_bad_rules_are_refused_clearly(args, message):
    with pytest.raises(ValueError, match=message):
        Rule(*args)
