"""Each variant's options are a typed struct with its presets as instances
(issue 11): the presets' values, the options a record may set and the
REC-FORMAT messages are what the hand-written dicts gave."""

from __future__ import annotations

import pytest

from ledger.errors import RecordError
from ledger.variants import find_variant
from ledger.variants.gin.rules import GinOptions, GinRules
from ledger.variants.options import preset_values
from ledger.variants.ramino.rules import RaminoOptions, RaminoRules

#: the presets as the variants wrote them before the structs (values and order)
PRESETS = {
    "burraco": {
        "fibur": {
            "jokers": 4,
            "stock_end": "last_two",
            "duplicate_sets": False,
            "semi_clean": True,
            "closing_requires": "any",
            "target": 2005,
            "hands": 0,
        },
        "seed": {
            "jokers": 2,
            "stock_end": "pozzetto",
            "duplicate_sets": False,
            "semi_clean": True,
            "closing_requires": "any",
            "target": 2005,
            "hands": 0,
        },
    },
    "scala40": {
        "fisca": {
            "opening_points": 40,
            "freed_joker_must_be_melded": False,
            "forbid_discard_of_attachable": "never",
            "unopened_penalty": 100,
            "elimination": 101,
            "jokers": 4,
            "ace_low": True,
            "pile_after_opening": "meld",
            "chiusura": "double",
        },
        "seed": {
            "opening_points": 40,
            "freed_joker_must_be_melded": False,
            "forbid_discard_of_attachable": "never",
            "unopened_penalty": 100,
            "elimination": 101,
            "jokers": 2,
            "ace_low": False,
            "pile_after_opening": "free",
            "chiusura": "plus25",
        },
    },
    "ramino51": {
        "clubdelgioco": {"hand_size": 14, "opening_clean": "run_or_set", "joker_ends_only": True, "elimination": 101}
    },
    "ramino": {
        "seed": {
            "going_out": "discard",
            "restock": "shuffle",
            "max_new_melds_per_turn": 0,
            "ace_high": False,
            "rummy_doubles": True,
            "target": 100,
        },
        "pagat": {
            "going_out": "any",
            "restock": "turn_over",
            "max_new_melds_per_turn": 0,
            "ace_high": False,
            "rummy_doubles": True,
            "target": 100,
        },
    },
    "gin": {
        "standard": {
            "knock_card": 10,
            "gin_bonus": 25,
            "undercut_bonus": 25,
            "target": 100,
            "oklahoma": False,
            "big_gin_bonus": 31,
            "game_bonus": 100,
            "box_bonus": 25,
            "undercut_on_equal": True,
            "retake_forbidden": True,
            "openspiel_endings": False,
        },
        "openspiel": {
            "knock_card": 10,
            "gin_bonus": 25,
            "undercut_bonus": 25,
            "target": 0,
            "oklahoma": False,
            "big_gin_bonus": 0,
            "game_bonus": 0,
            "box_bonus": 0,
            "undercut_on_equal": False,
            "retake_forbidden": False,
            "openspiel_endings": True,
        },
    },
}

#: the options a record may set, with their allowed values, as written before
SETTABLE = {
    "burraco": {
        "players": (int,),
        "duplicate_sets": (bool,),
        "semi_clean": (bool,),
        "closing_requires": ("any", "clean", "clean_or_semi"),
        "target": (int,),
        "hands": (int,),
    },
    "scala40": {
        "opening_points": (int,),
        "freed_joker_must_be_melded": (bool,),
        "forbid_discard_of_attachable": ("never", "always", "multiplayer_only"),
        "unopened_penalty": (int,),
        "elimination": (int,),
    },
    "ramino51": {
        "hand_size": (int,),
        "opening_clean": ("run_or_set", "run"),
        "joker_ends_only": (bool,),
        "elimination": (int,),
    },
    "ramino": {
        "restock": ("shuffle", "turn_over", "end_hand"),
        "max_new_melds_per_turn": (int,),
        "ace_high": (bool,),
        "rummy_doubles": (bool,),
        "target": (int,),
        "going_out": ("discard", "any"),
    },
    "gin": {"knock_card": (int,), "gin_bonus": (int,), "undercut_bonus": (int,), "target": (int,), "oklahoma": (bool,)},
}


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_the_presets_are_the_struct_instances(variant: str) -> None:
    rules = find_variant(variant)
    assert {name: list(preset_values(p).items()) for name, p in rules.presets.items()} == {
        n: list(p.items()) for n, p in PRESETS[variant].items()
    }
    assert all(isinstance(p, rules.options_type) for p in rules.presets.values())  # type: ignore[arg-type]
    for name, values in PRESETS[variant].items():
        assert list(rules(name, None, 2 if variant != "burraco" else 4).options.items()) == list(values.items())


@pytest.mark.parametrize("variant", sorted(SETTABLE))
def test_the_settable_options_come_from_the_struct(variant: str) -> None:
    assert find_variant(variant).option_types == SETTABLE[variant]


def test_a_record_s_options_give_the_typed_settings() -> None:
    rules = RaminoRules("pagat", {"target": 50, "restock": "end_hand"})
    assert rules.settings == RaminoOptions(going_out="any", restock="end_hand", target=50)
    assert rules.opt("target") == 50 and rules.options["restock"] == "end_hand"
    assert (
        GinRules("openspiel").settings
        == GinRules.presets["openspiel"]
        == GinOptions(
            target=0,
            big_gin_bonus=0,
            game_bonus=0,
            box_bonus=0,
            undercut_on_equal=False,
            retake_forbidden=False,
            openspiel_endings=True,
        )
    )


@pytest.mark.parametrize(
    ("variant", "options", "message"),
    [
        (
            "burraco",
            {"jokers": 2},
            "unknown option 'jokers' for burraco (known: closing_requires, duplicate_sets, hands, players, "
            "semi_clean, target)",
        ),
        (
            "scala40",
            {"chiusura": "double"},
            "unknown option 'chiusura' for scala40 (known: elimination, forbid_discard_of_attachable, "
            "freed_joker_must_be_melded, opening_points, unopened_penalty)",
        ),
        ("ramino", {"restock": "burn"}, "option 'restock' cannot be 'burn' (allowed: shuffle, turn_over, end_hand)"),
        ("ramino51", {"hand_size": True}, "option 'hand_size' cannot be True (allowed: int)"),
        ("gin", {"oklahoma": 1}, "option 'oklahoma' cannot be 1 (allowed: bool)"),
    ],
)
def test_a_bad_option_is_refused_naming_the_key(variant: str, options: dict[str, object], message: str) -> None:
    with pytest.raises(RecordError) as info:
        find_variant(variant)(None, options, 4 if variant == "burraco" else 2)
    assert (info.value.rule, info.value.field, info.value.message) == (
        "REC-FORMAT",
        f"options.{next(iter(options))}",
        message,
    )
