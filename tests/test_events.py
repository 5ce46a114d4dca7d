"""The event structs (FORMAT.md "Events"): tags, canonical encoding, round trips,
and the class names that are stored as topics."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.cards import standard_deck
from ledger.events import (
    BY_TAG,
    EVENT_TYPES,
    CardDrawn,
    DiscardTaken,
    GameStarted,
    Player,
    decode_event,
    encode_event,
    to_builtins,
)
from ledger.stored.persistence import TOPICS

# one canonical line per event type, in FORMAT.md order
CANONICAL = [
    # `format` is always written, right after the type tag
    b'{"type":"game_started","format":"rummy-ledger/1","game_id":"club-2026-11-29-t3","variant":"burraco",'
    b'"ruleset":"fibur","options":{"target":2005,"open_with_burraco":false},"players":[{"seat":0,"name":"Anna",'
    b'"team":0},{"seat":1,"name":"Bruno","team":1}],"meta":{"tournament":"Club night","table":"3"}}',
    b'{"type":"hand_dealt","hand":1,"dealer":1,"hands":[["3H","4H"],["AS","JK"]],"discard":["6C"],"stock":["10D","2C"],"pozzetti":[["KS"],["QH"]]}',
    b'{"type":"card_drawn","seat":0,"card":"6H"}',
    b'{"type":"upcard_passed","seat":1}',
    b'{"type":"discard_taken","seat":1,"cards":["6C","QH"]}',
    b'{"type":"meld_laid","seat":0,"meld":"a","cards":["3H","4H","5H","6H"]}',
    b'{"type":"meld_extended","seat":0,"meld":"a","cards":["JK"],"result":["JK","3H","4H","5H","6H"]}',
    b'{"type":"joker_swapped","seat":1,"meld":"a","card":"2H","joker":"JK"}',
    b'{"type":"pozzetto_taken","seat":0,"pozzetto":1,"cards":["KS"]}',
    b'{"type":"card_discarded","at":"2026-11-29T20:15:00+01:00","note":"slow","seat":0,"card":"QH"}',
    b'{"type":"cards_shown","seat":1,"cards":["7C","7C"]}',
    b'{"type":"knocked","seat":0,"discard":"5C","melds":[{"meld":"m1","cards":["AH","2H","3H"]}],"deadwood":["KD"]}',
    b'{"type":"stock_restocked","cards":["4D","9S"]}',
    b'{"type":"hand_ended","reason":"went_out","seat":0,"claimed":[{"team":0,"points":420},{"team":1,"points":-35}]}',
    b'{"type":"penalty_assessed","note":"played out of turn","seat":1,"points":-50,"rule":"ALL-TURN-1"}',
    b'{"type":"position_restored","target":7,"reason":"wrong card shown"}',
    b'{"type":"game_ended","reason":"target_reached","claimed":[{"seat":0,"points":2010}]}',
]

TAGS = [
    "game_started", "hand_dealt", "card_drawn", "upcard_passed", "discard_taken", "meld_laid", "meld_extended",
    "joker_swapped", "pozzetto_taken", "card_discarded", "cards_shown", "knocked", "stock_restocked", "hand_ended",
    "penalty_assessed", "position_restored", "game_ended",
]  # fmt: skip


def test_one_struct_per_format_event_type_in_order() -> None:
    assert [cls.__struct_config__.tag for cls in EVENT_TYPES] == TAGS
    assert list(BY_TAG) == TAGS


def test_stored_topics_are_the_class_names() -> None:
    """Class names are stored as topics: renaming one needs a registered alias."""
    assert [TOPICS[cls] for cls in EVENT_TYPES] == [
        "ledger.events:GameStarted", "ledger.events:HandDealt", "ledger.events:CardDrawn",
        "ledger.events:UpcardPassed", "ledger.events:DiscardTaken", "ledger.events:MeldLaid",
        "ledger.events:MeldExtended", "ledger.events:JokerSwapped", "ledger.events:PozzettoTaken",
        "ledger.events:CardDiscarded", "ledger.events:CardsShown", "ledger.events:Knocked",
        "ledger.events:StockRestocked",
        "ledger.events:HandEnded", "ledger.events:PenaltyAssessed", "ledger.events:PositionRestored",
        "ledger.events:GameEnded",
    ]  # fmt: skip


@pytest.mark.parametrize("line", CANONICAL, ids=TAGS)
def test_canonical_line_round_trips_byte_for_byte(line: bytes) -> None:
    event = decode_event(line)
    assert event.type == msgspec.json.decode(line)["type"]
    assert encode_event(event) == line
    assert msgspec.json.decode(msgspec.json.encode(to_builtins(event))) == msgspec.json.decode(line)


def test_encoding_is_canonical_whatever_the_input_order_and_spacing() -> None:
    event = decode_event(b' { "card" : "6H" , "seat" : 0 , "type" : "card_drawn", "note": null } ')
    assert encode_event(event) == b'{"type":"card_drawn","seat":0,"card":"6H"}'


def test_defaults_are_omitted_and_common_fields_come_first() -> None:
    players = (Player(seat=0, name="A"), Player(seat=1, name="B"))
    started = GameStarted(game_id="g", variant="gin", players=players)
    expected = (
        b'{"type":"game_started","format":"rummy-ledger/1","game_id":"g","variant":"gin","players":[{"seat":0,'
        b'"name":"A"},{"seat":1,"name":"B"}]}'
    )
    assert encode_event(started) == expected
    assert decode_event(expected) == started
    drawn = CardDrawn(seat=0, card="6H", note="n", at="2026-11-29T20:15:00+01:00")
    assert (
        encode_event(drawn) == b'{"type":"card_drawn","at":"2026-11-29T20:15:00+01:00","note":"n","seat":0,"card":"6H"}'
    )


def test_events_are_frozen_and_keyword_only() -> None:
    event = CardDrawn(seat=0, card="6H")
    with pytest.raises(AttributeError):
        event.seat = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        CardDrawn(0, "6H")  # type: ignore[misc]
    assert hash(event) == hash(CardDrawn(seat=0, card="6H"))


@given(st.lists(st.sampled_from(standard_deck(2, 4)), min_size=1, max_size=30), st.integers(min_value=0, max_value=15))
def test_any_card_list_round_trips(cards: list[str], seat: int) -> None:
    event = DiscardTaken(seat=seat, cards=tuple(cards))
    assert decode_event(encode_event(event)) == event
