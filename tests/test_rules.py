"""Presets and variants (RULES.md §11): names, values, errors and the record form."""

from __future__ import annotations

import pytest

from fivehundred.errors import FiveHundredError, RulesError
from fivehundred.rules import make_rules, rules_from_dict


def test_default_preset_is_australian() -> None:
    """§11: australian is the default preset."""
    assert make_rules() == make_rules("australian", {})
    rules = make_rules()
    assert rules.preset == "australian"
    assert rules.players == 4
    assert rules.target == 500


def test_australian_preset_settings() -> None:
    """§11 australian: Australian auction, misère after a 7 bid (7 < m < 8), open misère
    any time (10♦ < om < 10♥, 500), the 490 rule, defenders score nothing in misère."""
    rules = make_rules("australian")
    assert rules.auction == "australian"
    assert rules.misere == "after_seven"
    assert rules.open_misere and rules.open_misere_value == 500
    assert rules.rule_490
    assert not rules.misere_defenders_score
    assert rules.scoring_table == "avondale"


def test_american_preset_settings() -> None:
    """§11 american: one-round auction, misère any time (8♠ < m < 8♣), no open misère,
    no 490 rule but the 1904 win rule, misere_defenders_score."""
    rules = make_rules("american")
    assert rules.auction == "american"
    assert rules.misere == "anytime"
    assert not rules.open_misere
    assert not rules.rule_490
    assert rules.win_rule == "1904"
    assert rules.misere_defenders_score


@pytest.mark.parametrize("preset", ["bridge", "Australian", "", "euchre"])
def test_unknown_preset_is_an_error(preset: str) -> None:
    with pytest.raises(RulesError) as error:
        make_rules(preset)
    assert repr(preset) in str(error.value)


@pytest.mark.parametrize("name", ["no_such_variant", "pack46", "Pack45", "misere_any_time"])
def test_unknown_variant_is_an_error(name: str) -> None:
    """Nothing is silently ignored: a misspelt variant is refused, naming it."""
    with pytest.raises(RulesError) as error:
        make_rules("australian", {name: True})
    assert repr(name) in str(error.value)


@pytest.mark.parametrize("name", ["inkle", "dead_hand"])
def test_later_variants_are_refused(name: str) -> None:
    """Variants refused where they do not apply (inkle needs the American auction,
    dead_hand two or three players)."""
    with pytest.raises(RulesError):
        make_rules("australian", {name: True})


@pytest.mark.parametrize(
    ("name", "value"),
    [("pack45", "yes"), ("no_misere", 1), ("target", "500"), ("target", 0), ("target", 505)],
)
def test_variant_value_of_the_wrong_type_is_an_error(name: str, value: object) -> None:
    with pytest.raises(RulesError):
        make_rules("australian", {name: value})


@pytest.mark.parametrize(
    ("preset", "players"),
    [("three_handed", 3), ("five_handed", 5), ("six_handed", 6), ("two_handed", 2)],
)
def test_presets_for_other_player_counts(preset: str, players: int) -> None:
    """§11: the presets for other player counts (R-PLAYERS) exist by name."""
    assert make_rules(preset).players == players


def test_pack45_is_a_four_player_pack() -> None:
    with pytest.raises(RulesError):
        make_rules("three_handed", {"pack45": True})


@pytest.mark.parametrize(
    ("variants", "field", "value"),
    [
        ({"pack45": True}, "pack45", True),
        ({"two_jokers": True}, "two_jokers", True),
        ({"deal_3_4_3": True}, "deal_3_4_3", True),
        ({"raise_after_passes": True}, "raise_after_passes", True),
        ({"misere_anytime": True}, "misere", "anytime"),
        ({"no_misere": True}, "misere", "off"),
        ({"no_open_misere": True}, "open_misere", False),
        ({"open_misere_520": True}, "open_misere_value", 520),
        ({"blind_misere": True}, "blind_misere", True),
        ({"allpass_redeal_same_dealer": True}, "allpass", "redeal_same_dealer"),
        ({"allpass_play_nt": True}, "allpass", "play_nt"),
        ({"dealer_must_bid": True}, "dealer_must_bid", True),
        ({"eldest_leads": True}, "eldest_leads", True),
        ({"joker_lead_not_renounced": True}, "joker_lead", "not_renounced"),
        ({"original_1904": True}, "scoring_table", "original_1904"),
        ({"perfect": True}, "scoring_table", "perfect"),
        ({"misere_defenders_score": True}, "misere_defenders_score", True),
        ({"target": 300}, "target", 300),
        ({"target": 1000}, "target", 1000),
        ({"point_spread": True}, "point_spread", True),
    ],
)
def test_each_variant_switches_its_rule(
    variants: dict[str, object], field: str, value: object
) -> None:
    assert getattr(make_rules("australian", variants), field) == value


def test_variant_set_false_leaves_the_preset() -> None:
    assert make_rules("australian", {"no_misere": False}).misere == "after_seven"
    assert make_rules("australian", {"open_misere_520": False}).open_misere_value == 500


def test_rules_record_form_round_trips() -> None:
    """Records carry ``{"preset": ..., "variants": {...}}``."""
    rules = make_rules("american", {"target": 300, "pack45": True})
    data = rules.to_dict()
    assert data == {"preset": "american", "variants": {"pack45": True, "target": 300}}
    assert rules_from_dict(data) == rules


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"preset": "australian", "variant": {}},
        {"preset": 4},
        {"preset": "australian", "variants": []},
        {"preset": "australian", "variants": {"bogus": True}},
    ],
)
def test_rules_record_form_errors(data: object) -> None:
    with pytest.raises(FiveHundredError):
        rules_from_dict(data)


def test_rules_are_immutable() -> None:
    rules = make_rules()
    with pytest.raises(AttributeError):
        rules.target = 300  # type: ignore[misc]
