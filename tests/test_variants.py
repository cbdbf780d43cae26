"""Each variant declared once (rules.VARIANT_REGISTRY): its kind, range, help and label,
the presets that accept it, and refusals that name the variant as data."""

from __future__ import annotations

import pytest

from fivehundred.errors import RulesError
from fivehundred.rules import (
    CHOICE,
    HOUSE_VARIANTS,
    NUMBER,
    PRESETS,
    REGISTRY,
    SWITCH,
    VARIANT_HELP,
    VARIANT_REGISTRY,
    VARIANTS,
    make_rules,
)
from fivehundred.web.history import rules_catalogue


def test_every_variant_is_declared_once_with_its_facts() -> None:
    names = [v.name for v in VARIANT_REGISTRY]
    assert len(names) == len(set(names)) == len(VARIANTS) == len(VARIANT_HELP)
    assert list(VARIANTS) == names == list(REGISTRY)
    for variant in VARIANT_REGISTRY:
        assert variant.help and "\n" not in variant.help
        assert variant.title and variant.kind in (SWITCH, NUMBER, CHOICE)
        assert VARIANTS[variant.name] is variant.apply
    assert tuple(v.name for v in VARIANT_REGISTRY if v.house) == HOUSE_VARIANTS
    target, table = REGISTRY["target"], REGISTRY["scoring_table"]
    assert (target.kind, target.minimum, target.step, target.default) == (NUMBER, 10, 10, None)
    assert table.kind == CHOICE and table.options == ("avondale", "original_1904", "perfect")
    assert REGISTRY["ralphing"].default is False and REGISTRY["ralphing"].house
    assert REGISTRY["misere_anytime"].title == "misère any time"
    assert REGISTRY["claim"].title == "claim"


def test_the_registry_says_which_presets_accept_a_variant_and_what_it_contradicts() -> None:
    assert REGISTRY["teams_of_two"].presets() == ("six_handed",)
    assert REGISTRY["target"].presets() == tuple(PRESETS)
    assert "french_canadian" not in REGISTRY["pack45"].presets()
    assert REGISTRY["original_1904"].conflicts() == ("perfect",)
    assert set(REGISTRY["no_open_misere"].conflicts()) == {"open_misere", "open_misere_520"}
    for variant in VARIANT_REGISTRY:
        for preset in variant.presets():
            value = (
                300 if variant.kind == NUMBER else variant.options[0] if variant.options else True
            )
            make_rules(preset, {variant.name: value})


@pytest.mark.parametrize(
    ("preset", "variants", "named", "why"),
    [
        ("australian", {"teams_of_two": True}, "teams_of_two", "needs six players"),
        (
            "australian",
            {"perfect": True, "original_1904": True},
            "original_1904",
            "contradicts 'perfect': choose one scoring table",
        ),
        (
            "french_canadian",
            {"pack45": True},
            "pack45",
            "does not apply: the French-Canadian game has its own 46-card pack",
        ),
    ],
)
def test_refusals_carry_the_variant_as_data(
    preset: str, variants: dict[str, bool], named: str, why: str
) -> None:
    with pytest.raises(RulesError) as refused:
        make_rules(preset, variants)
    assert refused.value.variant == named and refused.value.why == why
    assert refused.value.reason == f"variant {named!r} {why}"


def test_the_lobby_reads_the_registry() -> None:
    catalogue = rules_catalogue()
    by_name = {v["name"]: v for v in catalogue["variants"]}
    assert set(by_name) == set(REGISTRY)
    for name, variant in REGISTRY.items():
        assert by_name[name]["label"] == variant.title
        assert by_name[name]["kind"] == variant.kind
    assert by_name["scoring_table"]["options"] == list(REGISTRY["scoring_table"].options)
    australian = next(p for p in catalogue["presets"] if p["name"] == "australian")
    assert australian["refused"]["teams_of_two"] == "needs six players"


def test_a_bad_value_or_an_unknown_variant_is_named_as_data() -> None:
    with pytest.raises(RulesError) as refused:
        make_rules("australian", {"target": 7})
    assert refused.value.variant == "target"
    with pytest.raises(RulesError) as refused:
        make_rules("australian", {"no_such_thing": True})
    assert refused.value.variant == "no_such_thing"
