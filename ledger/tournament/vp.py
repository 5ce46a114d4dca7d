"""Victory points from match points: the VP tables as data (TOURNAMENT.md, "From a game to victory points").

The published tables (``fibur-3``, ``fibur-4``) ship in the package as
``vp-tables.json`` (a copy of the contract's file); a tournament names one
(``scoring.table``) or carries its own bands (``scoring.bands``). The MP
difference ``d = |MP_A - MP_B|`` falls in the last band whose ``from`` is at
most ``d`` (so a difference between two published bands, which are multiples
of 5, takes the lower band); the winner gets its ``winner`` figure, the loser
its ``loser`` one; ``d`` in the first band is a draw (both get the first
band's figures, 10–10 on the 0–20 scale). ``match`` scoring gives win, draw or
loss points instead. The package file is read once (importlib.resources): no
other I/O.

>>> table = vp_table("fibur-4")
>>> vp_of(table, 1520, 1010), vp_of(table, 900, 1000), vp_of(table, 100, 2400)
((13, 7), (10, 10), (0, 20))
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import msgspec

from ledger.tournament.events import Band, Scoring

#: a VP figure
Number = int | float


@cache
def vp_tables() -> dict[str, tuple[Band, ...]]:
    """``{table id: bands}`` of the shipped ``vp-tables.json`` (keys starting with ``_`` left out)."""
    raw = json.loads(resources.files("ledger.tournament").joinpath("vp-tables.json").read_text("utf-8"))
    return {
        name: msgspec.convert(body["bands"], tuple[Band, ...]) for name, body in raw.items() if not name.startswith("_")
    }


def vp_table(name: str) -> tuple[Band, ...]:
    """The bands of the shipped table ``name``; :class:`KeyError` naming the known tables when unknown."""
    try:
        return vp_tables()[name]
    except KeyError:
        raise KeyError(f"no VP table {name!r} (known: {', '.join(sorted(vp_tables()))})") from None


def bands_of(scoring: Scoring) -> tuple[Band, ...] | None:
    """The bands a ``vp`` scoring uses (its inline ``bands`` or its named ``table``); None for ``match``."""
    if scoring.kind != "vp":
        return None
    return scoring.bands if scoring.bands is not None else vp_table(scoring.table or "")


def band_of(bands: tuple[Band, ...], difference: int) -> int:
    """The index of the band of the MP ``difference`` (the last whose ``from`` is at most it)."""
    found = 0
    for i, band in enumerate(bands):
        if band.from_ <= difference:
            found = i
    return found


def vp_of(bands: tuple[Band, ...], mp_a: int, mp_b: int) -> tuple[Number, Number]:
    """``(VP of A, VP of B)`` for the MP ``mp_a`` and ``mp_b`` of one round (a draw in the first band)."""
    d = abs(mp_a - mp_b)
    i = band_of(bands, d)
    band = bands[i]
    if i == 0 or mp_a == mp_b:
        return (bands[0].winner, bands[0].loser) if mp_a >= mp_b else (bands[0].loser, bands[0].winner)
    return (band.winner, band.loser) if mp_a > mp_b else (band.loser, band.winner)


def score_round(scoring: Scoring, mp_a: int, mp_b: int) -> tuple[Number, Number]:
    """``(A's, B's)`` points of one round under ``scoring``: VP from the table, or match points."""
    bands = bands_of(scoring)
    if bands is not None:
        return vp_of(bands, mp_a, mp_b)
    win, draw, loss = scoring.win or 0, scoring.draw or 0, scoring.loss or 0
    if mp_a == mp_b:
        return draw, draw
    return (win, loss) if mp_a > mp_b else (loss, win)
