"""The viewer's JSON API (issue 6): the same data the pages show, errors as JSON.

The game is ``tests/webgames.small_game``: scores worked out in its docstring
(Anna 66 for hand 1, Bruno -10 by penalty; hand 2 stalled).
"""

from __future__ import annotations

import pytest

from ledger.replay import replay
from ledger.views import state_view
from tests.webgames import ANNA, BRUNO, SMALL_FINDINGS, small_game


@pytest.fixture
def client(web_client):
    return web_client(small_game())


def test_api_games_lists_summaries(client):
    resp = client.get("/api/games")
    assert resp.status_code == 200 and resp.content_type == "application/json"
    assert resp.get_json() == {
        "games": [
            {
                "game_id": "web-1",
                "variant": "ramino",
                "ruleset": "seed",
                "players": ["Anna", "Bruno"],
                "meta": {"tournament": "Club night", "table": "3", "date": "2026-11-29"},
                "hands": 2,
                "events": 19,
                "findings": 3,
                "finished": True,
                "result": {
                    "winner": "Anna",
                    "winner_side": 0,
                    "totals": [
                        {"side": "Anna", "points": 66, "players": ["Anna"]},
                        {"side": "Bruno", "points": -10, "players": ["Bruno"]},
                    ],
                    "reason": "hands_played",
                },
                "date": "2026-11-29",
                "stored_on": None,  # served from records: never stored
            }
        ]
    }
    assert client.get("/api/games?variant=gin").get_json() == {"games": []}
    assert [g["game_id"] for g in client.get("/api/games?player=BRU").get_json()["games"]] == ["web-1"]


def test_api_game_summary_and_events(client):
    body = client.get("/api/games/web-1").get_json()
    assert body["game"] == {
        "game_id": "web-1",
        "variant": "ramino",
        "ruleset": "seed",
        "players": [{"seat": 0, "name": "Anna", "team": None}, {"seat": 1, "name": "Bruno", "team": None}],
        "meta": {"tournament": "Club night", "table": "3", "date": "2026-11-29"},
        "hands": 2,
        "events": 19,
        "last": 18,
        "hand_starts": [1, 14],
        "findings": 3,
        "violations": [6, 12, 15],
        "totals": [66, -10],
        "ended": "hands_played",
        "view": "public",
    }
    events = body["events"]
    assert len(events) == 19
    assert events[5] == {
        "position": 5,
        "type": "discard_taken",
        "text": "Bruno takes K♦ from the discard pile",
        "event": {"type": "discard_taken", "seat": 1, "cards": ["KD"]},
    }
    assert events[13]["event"] == {
        "type": "penalty_assessed",
        "note": "referee: checked the discard",
        "seat": 1,
        "points": -10,
        "rule": "RAM-DISC-1",
    }


def test_api_state_is_the_folds_view(client):
    body = client.get("/api/games/web-1/state?at=9").get_json()
    expected = state_view(replay(small_game(), upto=9)).to_json()
    assert body.pop("move") == "Anna melds 9♣ 9♦ 9♠ [b]"
    assert body == expected
    assert body["seats"][1]["cards"] == list(BRUNO)
    assert body["stock"] == list(small_game()[1].stock[2:]) and body["stock_count"] == 29  # K♦ and 6♥ drawn


def test_api_state_with_pov_never_gives_a_hidden_hand(client):
    body = client.get("/api/games/web-1/state?at=2&pov=0").get_json()
    assert body["pov"] == 0
    assert body["seats"][0]["cards"] == list(ANNA) + ["KD"]
    assert body["seats"][1]["cards"] is None and body["seats"][1]["count"] == 10
    assert body["stock"] is None and body["stock_count"] == 30
    assert body["move"] == "Anna draws K♦ from the stock"
    seen_by_bruno = client.get("/api/games/web-1/state?at=2&pov=1").get_json()
    assert seen_by_bruno["seats"][0]["cards"] is None
    assert seen_by_bruno["move"] == "Anna draws a card from the stock"
    text = client.get("/api/games/web-1/state?at=2&pov=1").get_data(as_text=True)
    assert not any(f'"{c}"' in text for c in ANNA)


def test_api_state_defaults_to_the_last_position(client):
    body = client.get("/api/games/web-1/state").get_json()
    assert body["position"] == 18 and body["ended"] == "hands_played" and body["totals"] == [66, -10]


def test_api_audit_is_the_audit_json(client):
    """``audit --json``'s object: the findings with their rulings (none here),
    the seal after the last event, the length and the chain check (issue 26)."""
    assert client.get("/api/games/web-1/audit").get_json() == {
        "game_id": "web-1",
        "findings": [f | {"ruling": None} for f in SMALL_FINDINGS],
        "seal": "6f7c16981d5ed710dacb0f41fee08c27c0877b03952727a4518d59ce4f072eb1",
        "length": 19,
        "chain_verified": True,
    }
    at6 = client.get("/api/games/web-1/audit?at=6").get_json()
    assert (at6["seal"], at6["length"], at6["chain_verified"], len(at6["findings"])) == (
        "79817b40cc059f76ef9d8d876ce391c224b7d06777efb4d26cc5ef020d338600",
        7,
        True,
        1,
    )
    seat = client.get("/api/games/web-1/audit?pov=0").get_json()
    assert (seat["seal"], seat["length"], seat["chain_verified"]) == (None, 19, True)  # a seat's view: no seal


def test_api_score_is_the_score_json(client):
    assert client.get("/api/games/web-1/score").get_json() == {
        "game_id": "web-1",
        "hands": [
            {
                "hand": 1,
                "scores": [
                    {"seat": 0, "points": 66, "breakdown": {"hands_collected": 66, "rummy_double": 0}},
                    {"seat": 1, "points": -10, "breakdown": {"penalty": -10}},
                ],
            },
            {
                "hand": 2,
                "scores": [{"seat": 0, "points": 0, "breakdown": {}}, {"seat": 1, "points": 0, "breakdown": {}}],
            },
        ],
        "totals": [{"seat": 0, "points": 66}, {"seat": 1, "points": -10}],
        "winner": 0,
        "winner_kind": "seat",
        "seal": "6f7c16981d5ed710dacb0f41fee08c27c0877b03952727a4518d59ce4f072eb1",  # served from records: computed
        "chain_verified": True,
    }


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/api/games/nope", 404, "no game 'nope' in the store"),
        ("/api/games/nope/state", 404, "no game 'nope' in the store"),
        ("/api/games/nope/audit", 404, "no game 'nope' in the store"),
        ("/api/games/nope/score", 404, "no game 'nope' in the store"),
        ("/api/games/web-1/state?at=19", 400, "position 19 is outside this game's positions 0–18"),
        ("/api/games/web-1/state?at=1.5", 400, "at='1.5' is not a whole number"),
        (
            "/api/games/web-1/state?pov=-1",
            400,
            "pov=-1: no such seat at this table (seats 0–1); pov=spectator is the view from no seat",
        ),
        (
            "/api/nothing",
            404,
            "The requested URL was not found on the server. If you entered the URL manually please check your "
            "spelling and try again.",
        ),
    ],
)
def test_api_errors_are_json(client, url, status, message):
    resp = client.get(url)
    assert resp.status_code == status
    assert resp.content_type == "application/json"
    body = resp.get_json()
    assert body["error"]["status"] == status
    assert body["error"]["message"] == message


def test_api_keeps_names_as_data(records_app, client):
    evil = small_game("evil-2", names=("<script>x</script>", "B"))
    app = records_app(evil)
    resp = app.test_client().get("/api/games/evil-2/state?at=1")
    assert resp.content_type == "application/json"
    assert resp.get_json()["seats"][0]["name"] == "<script>x</script>"
