"""Tournaments: rounds, tables, victory points and standings as events (TOURNAMENT.md).

A pure domain package (no I/O): one concept per module.

- :mod:`ledger.tournament.events` — the seven events of a tournament record, as msgspec structs;
- :mod:`ledger.tournament.records` — the reader of tournament record files (REC-… refusals);
- :mod:`ledger.tournament.state` — the fold: the tournament's state at any position;
- :mod:`ledger.tournament.vp` — VP tables as data and VP from the MP difference;
- :mod:`ledger.tournament.results` — a game's result as the standings read it;
- :mod:`ledger.tournament.standings` — the standings by the tiebreak list;
- :mod:`ledger.tournament.pairing` — the movements' proposers;
- :mod:`ledger.tournament.checker` — the independent checker (TOUR-… findings).
"""
