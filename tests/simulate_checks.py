"""Independent checks for simulated games: card conservation and hand scores.

Each ``check_<variant>(before, after, events)`` recomputes the hand that
just ended from the table *before* ``hand_ended`` and the record's events,
following RULES.md directly (card values written out here, not taken from
the variant modules), and asserts the fold's scores agree.
"""

from __future__ import annotations

from collections import Counter

from ledger.cards import JOKER, RANK

_DECKS: dict[object, list[str]] = {}


def conservation_problem(state) -> str | None:  # noqa: ANN001
    """None when the cards in hands, pile, melds, stock and pozzetti are
    exactly the deck (checked where the stock is known), else what differs."""
    if state.phase == "setup" or state.stock is None:
        return None
    deck = _DECKS.get(state.rules)
    if deck is None:
        deck = _DECKS[state.rules] = sorted(Counter(state.rules.deck()).elements())
    seen = [c for h in state.hands for c in h]
    seen += state.discard
    for m in state.melds:
        seen += m.cards
    seen += state.stock
    for p in state.pozzetti:
        seen += p or ()
    seen.sort()
    if seen == deck:
        return None
    return f"extra {dict(Counter(seen) - Counter(deck))}, missing {dict(Counter(deck) - Counter(seen))}"


def _hand_events(events, after):  # noqa: ANN001, ANN202
    """The events of the hand that ends at ``after.position`` (from its deal)."""
    end = after.position
    start = max(i for i in range(end) if events[i].type == "hand_dealt")
    return start, events[start:end]


def _points(after) -> dict[int, tuple[int, dict[str, int]]]:  # noqa: ANN001
    r = after.results[-1]
    return {s.side: (s.points, dict(s.breakdown)) for s in r.scores}


def _all_at_once(events, after, seat: int) -> bool:  # noqa: ANN001
    """``seat`` laid no meld and laid nothing off before its last draw of the hand."""
    _, hand = _hand_events(events, after)
    last_draw = max(i for i, e in enumerate(hand) if e.type in ("card_drawn", "discard_taken") and e.seat == seat)
    return not any(
        e.type in ("meld_laid", "meld_extended", "joker_swapped") and e.seat == seat for e in hand[:last_draw]
    )


def _melded(events, after, seat: int) -> bool:  # noqa: ANN001
    _, hand = _hand_events(events, after)
    return any(e.type == "meld_laid" and e.seat == seat for e in hand)


def check_ramino(before, after, events) -> None:  # noqa: ANN001
    """Winner scores the others' hands (A 1, 2–10 face, J Q K 10), doubled after rummy."""
    r = after.results[-1]
    pts = _points(after)
    if r.reason != "went_out":
        assert all(p == 0 for p, _ in pts.values())
        return
    w = r.seat
    collected = sum(min(RANK[c], 10) for s in range(after.n_seats) if s != w for c in before.hands[s])
    want = collected * (2 if _all_at_once(events, after, w) else 1)
    assert pts[w][0] == want, (after.position, pts, want)
    assert all(p == 0 for s, (p, _) in pts.items() if s != w)


def _gin_value(cards) -> int:  # noqa: ANN001
    return sum(min(RANK[c], 10) for c in cards)


def check_gin(before, after, events) -> None:  # noqa: ANN001
    """Knock: difference to the lower deadwood; undercut +25; gin 25 (big gin 31) + defender."""
    r = after.results[-1]
    pts = {s: p - b.get("game_bonus", 0) - b.get("box_bonus", 0) for s, (p, b) in _points(after).items()}
    if r.reason != "knocked":
        assert pts == {0: 0, 1: 0}
        return
    k = r.seat
    d = 1 - k
    K, D = _gin_value(before.hands[k]), _gin_value(before.hands[d])
    standard = after.rules.ruleset == "standard"
    if K == 0:
        assert pts[d] == 0 and pts[k] - D in ((25, 31) if standard else (25,)), (pts, K, D)
    elif K < D:
        assert pts == {k: D - K, d: 0}
    elif K == D and not standard:
        assert pts == {0: 0, 1: 0}
    else:
        assert pts == {k: 0, d: K - D + 25}, (pts, K, D)


def _s40_value(card: str) -> int:
    return 25 if card == JOKER else 11 if RANK[card] == 1 else min(RANK[card], 10)


def check_scala40(before, after, events) -> None:  # noqa: ANN001
    """Others: hand value (ace 11, joker 25) or 100 unopened; chiusura in mano doubles (fisca) or +25 (seed)."""
    r = after.results[-1]
    pts = _points(after)
    if r.reason != "went_out":
        assert all(p == 0 for p, _ in pts.values())
        return
    w = r.seat
    at_once = _all_at_once(events, after, w)
    for s in range(after.n_seats):
        if s == w or s in before.eliminated:
            assert pts[s][0] == 0
            continue
        base = sum(_s40_value(c) for c in before.hands[s]) if _melded(events, after, s) else 100
        if at_once:
            base = base * 2 if after.rules.ruleset == "fisca" else base + 25
        assert pts[s][0] == base, (after.position, s, pts[s], base)


def check_ramino51(before, after, events) -> None:  # noqa: ANN001
    """Others: hand value (ace 11), doubled by a joker; 100 unopened; 200 each if only the winner
    melded, all at once."""
    r = after.results[-1]
    pts = _points(after)
    if r.reason != "went_out":
        assert all(p == 0 for p, _ in pts.values())
        return
    w = r.seat
    nobody = _all_at_once(events, after, w) and not any(
        _melded(events, after, s) for s in range(after.n_seats) if s != w
    )
    for s in range(after.n_seats):
        if s == w or s in before.eliminated:
            assert pts[s][0] == 0
            continue
        hand = before.hands[s]
        if nobody:
            want = 200
        elif not _melded(events, after, s):
            want = 100
        else:
            want = sum(11 if RANK[c] == 1 else min(RANK[c], 10) for c in hand if c != JOKER) * (
                2 if JOKER in hand else 1
            )
        assert pts[s][0] == want, (after.position, s, pts[s], want)


def _bur_value(card: str) -> int:
    if card == JOKER:
        return 30
    r = RANK[card]
    return 20 if r == 2 else 15 if r == 1 else 10 if r >= 8 else 5


def check_burraco(before, after, events) -> None:  # noqa: ANN001
    """Per side: melds + burraco bonuses + 100 closing − hands − 100 without a pozzetto."""
    r = after.results[-1]
    pts = _points(after)
    start, hand = _hand_events(events, after)
    took = {before.sides[e.seat] for e in hand if e.type == "pozzetto_taken"}
    for side, (points, b) in pts.items():
        seats = [s for s in range(after.n_seats) if before.sides[s] == side]
        melds = [m for m in before.melds if m.side == side]
        assert b.get("melds", 0) == sum(_bur_value(c) for m in melds for c in m.cards)
        assert b.get("hand", 0) == -sum(_bur_value(c) for s in seats for c in before.hands[s])
        # the closing bonus only for a regular going out (no BUR-CLOSE finding in the hand, RULES.md)
        irregular = any(f.rule.startswith("BUR-CLOSE") and f.hand == r.hand for f in after.findings)
        closer = r.reason == "went_out" and before.sides[r.seat] == side and not irregular
        assert b.get("closing", 0) == (100 if closer else 0)
        assert b.get("no_pozzetto", 0) == (0 if side in took else -100)
        n_bonus = (
            b.get("burraco_clean", 0) // 200 + b.get("burraco_semi_clean", 0) // 150 + b.get("burraco_dirty", 0) // 100
        )
        assert n_bonus == sum(1 for m in melds if len(m.cards) >= 7 and m.info.valid)
        assert points == sum(b.values())


HAND_CHECKS = {
    "ramino": check_ramino,
    "gin": check_gin,
    "scala40": check_scala40,
    "ramino51": check_ramino51,
    "burraco": check_burraco,
}
