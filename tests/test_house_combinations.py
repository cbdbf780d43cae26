"""Combinations of variants (RULES.md §10, R-HOUSE): a variant that does not apply to the
preset, or that contradicts another, is refused by name with the reason."""

from __future__ import annotations

from typing import Any

import pytest

from fivehundred.errors import RulesError
from fivehundred.rules import (
    COMBINATION_CHECKS,
    PRESETS,
    VARIANT_HELP,
    VARIANTS,
    make_rules,
)


@pytest.mark.parametrize(
    ("preset", "variants", "named", "reason"),
    [
        ("australian", {"teams_of_two": True}, "teams_of_two", "six players"),
        ("australian", {"half_each": True}, "half_each", "called partner"),
        ("six_handed", {"partner_announces": True}, "partner_announces", "called partner"),
        ("three_handed", {"pack45": True}, "pack45", "four-player"),
        ("australian", {"original_1904": True, "perfect": True}, "original_1904", "perfect"),
        ("australian", {"perfect": True, "scoring_table": "avondale"}, "scoring_table", "one"),
        ("australian", {"no_misere": True, "misere_anytime": True}, "no_misere", "anytime"),
        (
            "australian",
            {"no_open_misere": True, "open_misere_520": True},
            "no_open_misere",
            "open_misere_520",
        ),
        ("american", {"open_misere_520": True}, "open_misere_520", "open misère"),
        (
            "australian",
            {"allpass_play_nt": True, "allpass_redeal_same_dealer": True},
            "allpass_redeal_same_dealer",
            "allpass_play_nt",
        ),
        ("american", {"raise_after_passes": True}, "raise_after_passes", "Australian"),
        ("australian", {"win_1904": True, "rule_490": True}, "win_1904", "490"),
    ],
)
def test_combination_refused_by_name(
    preset: str, variants: dict[str, Any], named: str, reason: str
) -> None:
    """R-HOUSE: the error names the variant and says why."""
    with pytest.raises(RulesError) as error:
        make_rules(preset, variants)
    assert repr(named) in str(error.value)
    assert reason in str(error.value)


@pytest.mark.parametrize(
    ("preset", "variants"),
    [
        ("six_handed", {"teams_of_two": True}),
        ("five_handed", {"half_each": True, "partner_announces": True}),
        ("two_handed", {"pack45": True}),
        ("australian", {"teams_of_two": False, "half_each": False}),
        ("australian", {"no_misere": True, "misere_anytime": False}),
        ("australian", {"open_misere_520": True}),
        ("australian", {"win_1904": True, "rule_490": False}),
        ("australian", {"scoring_table": "perfect"}),
    ],
)
def test_sensible_combinations_are_accepted(preset: str, variants: dict[str, Any]) -> None:
    """A variant set false leaves the preset, so it never conflicts."""
    rules = make_rules(preset, variants)
    assert dict(rules.variants) == variants


def test_every_variant_has_help_and_every_check_names_a_variant() -> None:
    """The options screens list VARIANTS with VARIANT_HELP; nothing offered is unfinished."""
    assert set(VARIANT_HELP) == set(VARIANTS)
    assert all(text and "\n" not in text for text in VARIANT_HELP.values())
    for name, _test, _reason, rule in COMBINATION_CHECKS:
        assert name in VARIANTS
        assert rule.startswith("R-")


def test_every_preset_alone_passes_the_checks() -> None:
    for preset in PRESETS:
        assert make_rules(preset).preset == preset


def test_each_variant_declares_its_checks_and_they_are_tried_by_kind() -> None:
    """The checks live on the variants (the registry); COMBINATION_CHECKS is read from them,
    by kind first (fits the players and pack, applies to the preset, conflicts, needs)."""
    from fivehundred.rules import CHECK_KINDS, REGISTRY, VARIANT_REGISTRY

    declared = [(v.name, c.why) for v in VARIANT_REGISTRY for c in v.checks]
    assert sorted(declared) == sorted((name, why) for name, _, why, _ in COMBINATION_CHECKS)
    kinds = [
        next(c.kind for c in REGISTRY[name].checks if c.why == why)
        for name, _, why, _ in COMBINATION_CHECKS
    ]
    assert kinds == sorted(kinds, key=CHECK_KINDS.index)
    for variant in VARIANT_REGISTRY:
        for check in variant.checks:
            assert check.kind in CHECK_KINDS
            for other in check.against:  # the variants it names, as data
                assert f"'{other}'" in check.why
