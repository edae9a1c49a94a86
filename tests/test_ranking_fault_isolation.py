"""One user's rule or model never stops another user's scores (issue 16, finding 1)."""
import dataclasses
import logging

import numpy as np
import pytest
import recommender
from recommender.features import DIM

from reader.ranking import scores
from reader.web.forms import RuleForm
from reader.models import Entry, Rule, TasteModel
from ranking_crowd import entries_for, make_desk
from ui_factories import make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("value", ["the", "C++", "++", "x", "1984", "<a>"])
def test_word_rules_the_recommender_cannot_match_are_refused_by_the_form_with_a_clear_message(value):
    form = RuleForm({"kind": "word", "value": value, "action": "hide"})
    assert not form.is_valid()
    assert "can't be a word rule" in form.errors["value"][0] and value in form.errors["value"][0]


@pytest.mark.parametrize("value, stored", [("e-mail", "e-mail"), ("<script>", "script"), (" Ferry ", "ferry"),
                                           ("Ünïcödé", "ünïcödé")])
def test_word_rules_are_stored_as_the_word_the_recommender_matches(value, stored):
    form = RuleForm({"kind": "word", "value": value, "action": "hide"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["value"] == stored
    assert recommender.Rule("word", stored, "hide").value == stored


def test_a_rule_the_recommender_refuses_skips_that_rule_only(caplog):
    ann, bob = make_user("ann"), make_user("bob")
    _, stories = make_desk(ann)
    shared = stories["ferry"] + stories["football"]
    for user in (ann, bob):
        entries_for(user, shared)
    Rule.objects.create(user=ann, kind="word", value="the", action="hide")  # stored before the form checked
    Rule.objects.create(user=ann, kind="word", value="ferry", action="hide")
    Entry.objects.update(score=-1.0)

    with caplog.at_level(logging.WARNING, logger="reader.ranking.scores"):
        scores.score_stories([s.id for s in shared])
        scores.retrain(ann.id)

    assert not Entry.objects.filter(score=-1.0).exists()  # everyone's entries scored
    hidden = Entry.objects.get(user=ann, story=stories["ferry"][0])
    assert not hidden.recommended and "always hide stories mentioning “ferry”" in hidden.reasons[0]
    assert "rule word 'the' skipped" in caplog.text


def test_a_broken_model_falls_back_to_the_priors_for_that_user_and_others_are_scored(caplog):
    ann, bob, carl = make_user("ann"), make_user("bob"), make_user("carl")
    _, stories = make_desk(ann)
    shared = stories["ferry"] + stories["football"]
    for user in (ann, bob, carl):
        entries_for(user, shared)
    fine = recommender.fit([])
    broken = dataclasses.replace(fine, indices=np.array([DIM + 7], np.int32), weights=np.ones(1, np.float32))
    TasteModel.objects.create(user=bob, data=broken.to_bytes())  # loads, but cannot score
    Entry.objects.update(score=-1.0, reasons=["unscored"])

    with caplog.at_level(logging.ERROR, logger="reader.ranking.scores"):
        scores.score_stories([s.id for s in shared])

    assert not Entry.objects.filter(score=-1.0).exists()
    assert all(0 < e.score < 1 for e in Entry.objects.filter(user=bob))  # the priors' score, not the default
    assert f"scoring stories for user {bob.id} failed" in caplog.text
    assert TasteModel.objects.filter(user__in=[ann, carl]).count() == 2
