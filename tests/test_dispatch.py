"""The fold's dispatch is explicit (issue 11): each event class has its handler
in :func:`ledger.variants.base.handler_table`, each rules class gets its own
table when it is made, and the hooks a variant may override are declared in
:class:`ledger.variants.hooks.VariantHooks`."""

from __future__ import annotations

import inspect

import pytest

from ledger.events import EVENT_TYPES, CardDiscarded, CardDrawn, Knocked
from ledger.state import TableState
from ledger.variants import REGISTRY, find_variant
from ledger.variants.base import Rules
from ledger.variants.gin.rules import GinRules
from ledger.variants.hooks import VariantHooks
from ledger.variants.ramino.rules import RaminoRules


@pytest.mark.parametrize("variant", sorted(REGISTRY))
def test_every_event_class_has_the_handler_of_its_type(variant: str) -> None:
    table = find_variant(variant)._handlers
    assert list(table) == list(EVENT_TYPES)
    assert {cls: fn.__name__ for cls, fn in table.items()} == {
        cls: "on_" + cls.__struct_config__.tag for cls in EVENT_TYPES
    }


def test_a_subclass_gets_its_own_overrides_and_inherits_the_rest() -> None:
    assert GinRules._handlers[Knocked] is GinRules.on_knocked is not Rules.on_knocked
    assert RaminoRules._handlers[Knocked] is Rules.on_knocked
    assert RaminoRules._handlers[CardDrawn] is Rules.on_card_drawn

    class Counting(RaminoRules):
        def on_card_discarded(self, state: TableState, e: CardDiscarded, pos: int) -> TableState:
            return super().on_card_discarded(state, e, pos)

    assert Counting._handlers[CardDiscarded] is Counting.on_card_discarded
    assert RaminoRules._handlers[CardDiscarded] is Rules.on_card_discarded


def _hooks() -> list[str]:
    return [n for n, v in vars(VariantHooks).items() if inspect.isfunction(v) and not n.startswith("_")]


def test_the_declared_hooks_are_the_rules_methods() -> None:
    # 29 less meld_label and extra_view (moved to ledger.variants.presentation), plus restock_mode (issue 11),
    # plus counted_hands, unknown_sides and without_hands (issue 24: partial records, scored per side)
    assert len(_hooks()) == 31
    for name in _hooks():
        declared = list(inspect.signature(getattr(VariantHooks, name)).parameters)
        implemented = list(inspect.signature(getattr(Rules, name)).parameters)
        assert declared == implemented, name
        assert getattr(VariantHooks, name).__doc__, name


@pytest.mark.parametrize("variant", sorted(REGISTRY))
def test_what_a_variant_overrides_is_a_declared_hook_or_a_handler(variant: str) -> None:
    """A method a variant redefines from the base is part of the declared interface
    (a hook, a handler, or ``apply`` itself, which Burraco and Gin wrap), or
    ``set_extra``, which Burraco redefines to start from a fresh extra."""
    cls = find_variant(variant)
    base = {n for k in Rules.__mro__ for n, v in vars(k).items() if callable(v) and not n.startswith("_")}
    own = {n for k in cls.__mro__[: cls.__mro__.index(Rules)] for n, v in vars(k).items() if callable(v) and n in base}
    assert own - set(_hooks()) - {n for n in own if n.startswith("on_")} <= {"apply", "set_extra"}
