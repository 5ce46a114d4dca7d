"""Per-seat views (FORMAT.md "Per-seat views", issue 12): the twin test and
the cases it was written for.

The twin test: for every bundled fixture and one simulated game of each
variant (its first two hands, at most 161 events; the whole game when
slow), at a position N and for each seat and the spectator (read with a
referee's token) and for an anonymous reader of the unfinished prefix, the
record up to N with every card that viewer could not have seen renamed
(:func:`tests.seat_twins.twin`, an oracle that follows each physical card)
must give the same bytes for the state API, the board fragment and the game
page; and a seat's or spectator's page at N must be the same whether the
store holds the whole record or only its first N+1 events.

CPU: the full product (every position, every viewer) costs a replay and
nine requests per case (about 6,000 cases, minutes on the CI's two
cores), so the default run samples at most 5 positions per record
(:func:`sample_positions`: knocks, rewinds, findings that wait for the end
of their hand, hand ends, the position after each, then the first move of
each deal and positions spread over the record), every seat and the
spectator at each. ``RUMMY_LEDGER_ATTACKS=1`` (CI) checks four times as many positions,
``RUMMY_LEDGER_SLOW=1`` every position (:mod:`tests.attacks`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from ledger.errors import RecordError
from ledger.events import Event
from ledger.notation import notation
from ledger.record_files import read_record
from ledger.redaction import PUBLIC_RULES, SPECTATOR, sight, visible_findings
from ledger.replay import Replayer, replay
from ledger.simulate import simulate_game
from ledger.store.application import open_app
from ledger.tokens import TokenStore
from ledger.views import state_view
from replay_web import cache_of, create_app
from replay_web.access import finished
from replay_web.store import RecordStore
from tests.attacks import ATTACKS, SLOW
from tests.seat_twins import track, twin

FIXTURES = sorted(p for p in (Path(__file__).resolve().parent.parent / "fixtures").rglob("*.jsonl"))


class SwapStore:
    """A one-game store whose record the test swaps (the viewer's Store
    protocol), with a real :class:`~ledger.store.application.LedgerApp` beside it
    for the referee's token (an unfinished game's seat views are a referee's,
    :mod:`replay_web.access`)."""

    def __init__(self, events: Sequence[Event], app: object = None) -> None:
        self.events_ = list(events)
        self.app = app

    def list_games(self):  # type: ignore[no-untyped-def]
        return []

    def version(self, game_id: str) -> int:
        return len(self.events_)

    def events(self, game_id: str) -> list[Event]:
        return list(self.events_)


@pytest.fixture(scope="module")
def referee(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, dict[str, str]]:
    """A store for tokens and a referee's ``Authorization`` header."""
    app = open_app(str(tmp_path_factory.mktemp("tokens") / "tokens.db"))
    token, _ = TokenStore(app).create("Rita", "referee")
    return app, {"Authorization": f"Bearer {token}"}


def _readable(path: Path) -> list[Event] | None:
    try:
        events = list(read_record(path).events)
        replay(events)
    except RecordError:
        return None
    return events


def _records() -> list[tuple[str, list[Event]]]:
    out = []
    for p in FIXTURES:
        events = _readable(p)
        if events is not None:
            out.append((f"{p.parent.name}/{p.stem}", events))
    for variant, seed in (("ramino", 2), ("burraco", 1), ("scala40", 2), ("ramino51", 1), ("gin", 2)):
        events, _ = simulate_game(variant, None, 2, seed=seed, violations=0.05)
        if not SLOW:  # the first hands (any prefix is a record of a game in progress)
            ends = [i for i, e in enumerate(events) if e.type == "hand_ended"]
            events = events[: min(ends[1] if len(ends) > 1 else len(events), 160) + 1]
        out.append((f"simulated-{variant}", events))
    return out


RECORDS = _records()


def sample_positions(events: Sequence[Event], limit: int = 5) -> list[int]:
    """The positions the default run checks (every position when slow):
    first the knocks, the findings that wait for the end of their hand, the
    hand ends and rewinds and the position after each, then the deals'
    first moves and positions spread over the record, at most ``limit``."""
    last = len(events) - 1
    if SLOW:
        return list(range(last + 1))
    if ATTACKS:  # CI's slow set: four times as many
        limit *= 4
    final = replay(events)
    firsts = [i for i, e in enumerate(events) if e.type in ("knocked", "position_restored")]
    firsts += sorted({f.position for f in final.findings if f.rule not in PUBLIC_RULES})
    firsts += [i for i, e in enumerate(events) if e.type == "hand_ended"]
    ordered: list[int] = []
    for k in firsts:
        ordered += [k, k + 1]
    ordered += [i + 1 for i, e in enumerate(events) if e.type == "hand_dealt"]
    ordered += [round(last * k / 5) for k in range(6)]
    picked: list[int] = []
    for k in ordered:
        if 0 <= k <= last and k not in picked:
            picked.append(k)
    return sorted(picked[:limit])


def _pages(client, game_id: str, at: int, pov: object, headers: dict[str, str]) -> tuple[bytes, bytes, bytes]:
    q = f"at={at}" if pov is None else f"at={at}&pov={pov}"
    out = []
    for url in (f"/api/games/{game_id}/state?{q}", f"/games/{game_id}/board?{q}", f"/games/{game_id}?{q}"):
        resp = client.get(url, headers=headers)
        assert resp.status_code == 200, (url, resp.get_data(as_text=True)[-400:])
        out.append(resp.get_data())
    return out[0], out[1], out[2]


@pytest.mark.parametrize(("name", "events"), RECORDS, ids=[n for n, _ in RECORDS])
def test_a_viewer_cannot_tell_its_twin_apart(name: str, events: list[Event], referee) -> None:
    """Each seat and the spectator, read with a referee's token (any game),
    and an anonymous reader (the spectator's page of an unfinished game,
    :mod:`replay_web.access`; twin check only, as its page ends at the last
    position it may see)."""
    tokens, auth = referee
    game_id = events[0].game_id  # type: ignore[attr-defined]
    full = create_app({"TESTING": True, "LEDGER_STORE": SwapStore(events, tokens)}).test_client()
    store = SwapStore(events, tokens)
    app = create_app({"TESTING": True, "LEDGER_STORE": store, "SPECTATOR_DELAY": 0})
    client, cache = app.test_client(), cache_of(app)
    n = len(events[0].players)  # type: ignore[attr-defined]
    viewers: list[tuple[object, dict[str, str]]] = [(seat, auth) for seat in range(n)] + [(SPECTATOR, auth), (None, {})]
    renamed = 0
    for at in sample_positions(events):
        store.events_ = list(events[: at + 1])
        cache.clear()
        truncated = {pov: _pages(client, game_id, at, pov, h) for pov, h in viewers}
        for pov, h in viewers[:-1]:
            page = full.get(f"/games/{game_id}?at={at}&pov={pov}", headers=h).get_data()
            assert page == truncated[pov][2], (
                f"{name} at {at} pov {pov}: the page shows events after {at}\n{_diff(page, truncated[pov][2])}"
            )
        for pov, h in viewers:
            if pov is None and finished(replay(events[: at + 1])):
                continue  # a finished game is public (replay_web.access): the anonymous reader sees it whole
            seat = pov if isinstance(pov, int) else None
            other, changed = twin(events, at, seat)
            renamed += changed
            replay(other)  # the twin is a possible record
            store.events_ = other
            cache.clear()
            got = _pages(client, game_id, at, pov, h)
            for kind, a, b in zip(("state API", "board", "page"), truncated[pov], got):
                assert a == b, f"{name} at {at} pov {pov}: the {kind} depends on cards {pov} did not see\n{_diff(a, b)}"
    assert renamed > 0  # the test renamed something


def _diff(a: bytes, b: bytes) -> str:
    x, y = a.decode(), b.decode()
    i = next((k for k, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    return f"...{x[max(0, i - 200) : i + 200]}...\n---\n...{y[max(0, i - 200) : i + 200]}..."


# --- the cases behind the twin test ---------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def _record(rel: str) -> list[Event]:
    return list(read_record(ROOT / "fixtures" / rel).events)


def _view(events: list[Event], at: int, pov: object) -> dict:
    return state_view(Replayer(events).state_at(at), pov).to_json()


def test_gin_the_knockers_hand_is_face_up_from_the_knock_and_its_discard_face_down():
    # gin/standard-game, hand 1: 4 Anna draws 9♣, 5 Anna knocks discarding K♣
    # face down (melds k1 k2 k3, deadwood 9♣), 6-8 Bruno's melds and lay-off, 9 hand ends
    events = _record("gin/standard-game.jsonl")
    before = _view(events, 4, 1)
    assert (
        before["seats"][0]["cards"] is None and before["seats"][0]["seen"] == [] and before["seats"][0]["count"] == 11
    )
    knock = _view(events, 5, 1)
    assert knock["seats"][0]["cards"] == ["9C"] and knock["seats"][0]["seen"] is None
    assert [m["id"] for m in knock["melds"]] == ["k1", "k2", "k3"]
    assert knock["discard"] == ["KD"] and knock["discard_hidden"] == 1  # K♣ lies face down on the upcard
    assert _view(events, 5, 0)["discard"] == ["KD", "KC"] and _view(events, 5, 0)["discard_hidden"] == 0
    assert _view(events, 5, SPECTATOR)["discard_hidden"] == 1
    assert _view(events, 8, 1)["discard_hidden"] == 1
    end = _view(events, 9, 1)  # the hand has ended: every hand and the face-down card are shown
    assert end["discard"] == ["KD", "KC"] and end["discard_hidden"] == 0
    assert end["seats"][0]["cards"] == ["9C"] and end["seats"][1]["cards"] == ["AD", "2D", "3C"]
    state = Replayer(events).state_at(5)
    assert notation(events[5], state, 1) == "Anna knocks with deadwood 9♣, discarding face down"
    assert notation(events[5], state, 0) == "Anna knocks with deadwood 9♣, discarding K♣ face down"
    assert notation(events[4], state, SPECTATOR) == "Anna draws a card from the stock"


def test_cards_taken_from_the_pile_are_seen_in_the_takers_hand_until_played():
    # bur-dispute: 2 Anna takes the upcard 9♣, 5 Anna discards 9♣
    events = _record("burraco/dispute.jsonl")
    for at in (2, 3, 4):
        seat0 = _view(events, at, 1)["seats"][0]
        assert seat0["cards"] is None and seat0["seen"] == ["9C"]
    assert _view(events, 2, SPECTATOR)["seats"][0]["seen"] == ["9C"]
    assert _view(events, 5, 1)["seats"][0]["seen"] == []
    assert _view(events, 2, 0)["seats"][0]["cards"][-1] == "9C"  # its own hand, in the order it arrived


def test_a_finding_that_depends_on_hidden_cards_waits_for_the_end_of_the_hand():
    # bur-dispute: BUR-PILE-1 at 5 (whether it is reported tells whether Anna
    # held a second 9♣); ALL-MELD-1 at 4 is public; the hand ends at 17
    events = _record("burraco/dispute.jsonl")
    replayer = Replayer(events)

    def rules(at: int, pov: object) -> list[tuple[int, str]]:
        return [(f.position, f.rule) for f in visible_findings(replayer.state_at(at), pov)]

    assert rules(5, 0) == [(4, "ALL-MELD-1"), (5, "BUR-PILE-1")]  # Anna knows her own hand
    assert rules(5, 1) == [(4, "ALL-MELD-1")]
    assert rules(16, 1) == [(4, "ALL-MELD-1"), (7, "BUR-TURN-1"), (8, "ALL-TURN-2"), (15, "ALL-TURN-1")]
    assert rules(16, SPECTATOR) == rules(16, 1)
    assert (
        rules(17, 1)
        == rules(17, SPECTATOR)
        == rules(17, None)
        == [
            (4, "ALL-MELD-1"),
            (5, "BUR-PILE-1"),
            (7, "BUR-TURN-1"),
            (8, "ALL-TURN-2"),
            (15, "ALL-TURN-1"),
            (17, "ALL-SCORE-1"),
        ]
    )
    assert _view(events, 5, 1)["findings"] == 1 and _view(events, 5, 0)["findings"] == 2


def test_a_rule_the_redaction_does_not_know_is_hidden_until_the_hand_ends():
    from msgspec.structs import replace as sreplace

    from ledger.state import Finding

    events = _record("gin/standard-game.jsonl")
    state = Replayer(events).state_at(4)
    secret = Finding(position=4, hand=1, seat=0, rule="GIN-WALL-1", msgid="Anna drew 9♣ from the last two stock cards")
    state = sreplace(state, findings=state.findings + (secret,))
    assert visible_findings(state, 0) == (secret,)
    assert visible_findings(state, 1) == () and visible_findings(state, SPECTATOR) == ()
    assert state_view(state, 1).findings == 0 and state_view(state, None).findings == 1


def test_a_spectator_sees_no_hidden_card_at_all():
    events = _record("gin/standard-game.jsonl")
    for at in range(1, 5):
        view = _view(events, at, SPECTATOR)
        assert [s["cards"] for s in view["seats"]] == [None, None]
        assert view["stock"] is None and view["pov"] == "spectator"
        assert view["deadwood"] == []  # no seat's best deadwood either


def test_sight_never_claims_a_card_the_hand_does_not_hold():
    # the oracle's seen cards of each hand include the redaction's "seen"
    for name, events in RECORDS:
        replayer = Replayer(events)
        n = len(events[0].players)  # type: ignore[attr-defined]
        for at in sample_positions(events):
            state = replayer.state_at(at)
            for pov in range(n):
                s = sight(state, pov)
                t = track(events, at, pov)
                for seat in range(n):
                    seen_faces = sorted(t.face[i] for i in t.hands[seat] if i in t.seen)
                    extra = [c for c in s.seen[seat] if s.seen[seat].count(c) > seen_faces.count(c)]
                    assert not extra, f"{name} at {at}: seat {pov} is said to see {extra} in seat {seat}'s hand"


# --- the page knows nothing after its position ------------------------------------


def _page_client(events: list[Event]):
    """A viewer of a finished game (public: no token needed)."""
    return create_app({"TESTING": True, "LEDGER_STORE": SwapStore(events)}).test_client()


def test_a_seats_page_has_no_last_position_no_future_links_and_no_later_findings():
    events = _record("burraco/dispute.jsonl")
    client = _page_client(events)
    page = client.get("/games/bur-dispute?at=5&pov=1").get_data(as_text=True)
    assert 'data-last=""' in page and 'data-violations="[4]"' in page and 'data-hands="[1]"' in page
    assert 'max="5"' in page and 'position <b id="pos-now">5</b></span>' in page
    assert 'id="nav-next" href="/games/bur-dispute?at=6&amp;pov=1"' in page
    for ctl in ("nav-last", "nav-next-violation", "nav-next-hand"):
        assert re.search(rf'<span class="ctl disabled" id="{ctl}"', page), ctl
    assert re.findall(r'<li id="move-(\d+)"', page) == ["0", "1", "2", "3", "4", "5"]
    assert "BUR-PILE-1" not in page and "9♣, the single card" not in page
    referee = client.get("/games/bur-dispute?at=5").get_data(as_text=True)
    assert 'data-last="18"' in referee and 'data-violations="[4, 5, 7, 8, 15, 17]"' in referee
    # the last recorded position: "next" still points one further, which is not recorded (yet)
    last = client.get("/games/bur-dispute?at=18&pov=1").get_data(as_text=True)
    assert 'id="nav-next" href="/games/bur-dispute?at=19&amp;pov=1"' in last
    resp = client.get("/games/bur-dispute?at=19&pov=1")
    assert resp.status_code == 404 and "position 19 is not recorded (yet)" in resp.get_data(as_text=True)
    assert "0–18" not in resp.get_data(as_text=True)


def test_the_spectator_page_and_api():
    events = _record("gin/standard-game.jsonl")
    client = _page_client(events)
    page = client.get("/games/gin-standard-1?at=4&pov=spectator").get_data(as_text=True)
    assert "(as seen by a spectator, up to this position)" in page and "<b>spectator</b>" in page
    assert "Anna draws a card from the stock" in page
    hands = set(events[1].hands[0]) | set(events[1].hands[1])  # type: ignore[attr-defined]
    board = page[page.index('id="board"') : page.index('class="melds"')]
    assert set(re.findall(r'data-card="([^"]+)"', board)) == {"KD"}  # the upcard only
    assert not set(re.findall(r'data-card="([^"]+)"', page)) & hands
    body = client.get("/api/games/gin-standard-1/state?at=4&pov=spectator").get_json()
    assert body["pov"] == "spectator" and body["move"] == "Anna draws a card from the stock"
    assert client.get("/api/games/gin-standard-1/state?at=4&pov=Spectator").get_json()["pov"] == "spectator"


def test_the_api_game_audit_and_score_as_a_seat_sees_them():
    events = _record("burraco/dispute.jsonl")
    client = _page_client(events)
    body = client.get("/api/games/bur-dispute?at=6&pov=1").get_json()
    game, moves = body["game"], body["events"]
    assert (game["last"], game["events"], game["pov"], game["violations"], game["findings"]) == (6, 7, 1, [4], 1)
    assert [m["position"] for m in moves] == list(range(7))
    assert moves[6]["text"] == "Bruno draws 6♥ from the stock" and moves[1]["event"] == {
        "type": "hand_dealt",
        "hand": 1,
        "dealer": 1,
        "discard": ["9C"],
        "hand_sizes": [11, 11],
    }
    assert (
        client.get("/api/games/bur-dispute?at=6&pov=0").get_json()["events"][6]["text"]
        == "Bruno draws a card from the stock"
    )
    audit = client.get("/api/games/bur-dispute/audit?at=6&pov=1").get_json()
    assert [(f["position"], f["rule"]) for f in audit["findings"]] == [(4, "ALL-MELD-1")]
    assert [
        (f["position"], f["rule"]) for f in client.get("/api/games/bur-dispute/audit?at=6&pov=0").get_json()["findings"]
    ] == [(4, "ALL-MELD-1"), (5, "BUR-PILE-1")]
    assert (
        client.get("/api/games/bur-dispute/audit").get_json()["findings"][1]["rule"] == "BUR-PILE-1"
    )  # the referee's, whole
    assert client.get("/api/games/bur-dispute/score?at=6&pov=1").get_json()["hands"] == []
    assert client.get("/api/games/bur-dispute/audit?at=19&pov=1").status_code == 404


def test_show_pov_on_the_command_line():
    from click.testing import CliRunner

    from ledger.cli import cli

    path = str(ROOT / "fixtures" / "gin" / "standard-game.jsonl")
    runner = CliRunner(env={"RUMMY_LEDGER_DB": None, "PERSISTENCE_MODULE": None})
    out = runner.invoke(cli, ["show", path, "--at", "5", "--pov", "spectator"])
    assert out.exit_code == 0, out.output
    assert "  seat 0 Anna: 1 card: 9♣\n  seat 1 Bruno (dealer): 10 cards: hidden\n" in out.output
    assert "discard pile: face down on top (2 cards)\n" in out.output
    seat = runner.invoke(cli, ["show", path, "--at", "3", "--pov", "1"])
    assert "  seat 0 Anna: 10 cards: hidden\n" in seat.output and "K♦ on top" in seat.output
    bad = runner.invoke(cli, ["show", path, "--at", "5", "--pov", "x"])
    assert bad.exit_code == 2 and "'x' is neither a seat number nor 'spectator'" in bad.output


def test_the_stream_gives_a_spectator_a_finding_only_once_it_may_see_it(tmp_path):
    from ledger.records import Record
    from replay_web.stream import Feed

    events = _record("burraco/dispute.jsonl")[:18]  # unfinished: no game_ended
    app = open_app(str(tmp_path / "ledger.db"))
    app.import_record(Record(events=tuple(events), lines=tuple(range(1, 19)), path="dispute.jsonl"))
    feed = Feed("bur-dispute")
    feed.sync(app)
    referee = [(i.position, [f.rule for f in i.findings]) for i in feed.items if i.findings]
    spectator = [(i.position, [f.rule for f in i.spectator_findings]) for i in feed.items if i.spectator_findings]
    assert referee == [
        (4, ["ALL-MELD-1"]),
        (5, ["BUR-PILE-1"]),
        (7, ["BUR-TURN-1"]),
        (8, ["ALL-TURN-2"]),
        (15, ["ALL-TURN-1"]),
        (17, ["ALL-SCORE-1"]),
    ]
    assert spectator == [
        (4, ["ALL-MELD-1"]),
        (7, ["BUR-TURN-1"]),
        (8, ["ALL-TURN-2"]),
        (15, ["ALL-TURN-1"]),
        (17, ["BUR-PILE-1", "ALL-SCORE-1"]),
    ]  # BUR-PILE-1 comes with the end of its hand


def test_a_rewinds_reason_is_a_referees_words_left_out_of_spectator_and_seat_json() -> None:
    """README "Who may read what": notes and a rewind's reason are left out for
    anyone who may not read the whole game (trial finding: the reason reached
    the JSON API and the live stream, which both write events by ``event_json``)."""
    from replay_web.access import SPECTATOR_ACCESS, event_json

    dispute = Path(__file__).resolve().parent.parent / "fixtures" / "burraco" / "dispute.jsonl"
    events = read_record(dispute).events[:17]  # unfinished: no hand_ended yet
    restored = events[11]
    assert event_json(restored, SPECTATOR_ACCESS) == {"type": "position_restored", "target": 6}
    app = create_app({"TESTING": True, "LEDGER_STORE": RecordStore(records=[list(events)]), "SPECTATOR_DELAY": 0})
    body = app.test_client().get("/api/games/bur-dispute?at=16").get_data(as_text=True)
    assert '"type":"position_restored"' in body.replace(" ", "") and "second draw undone" not in body
