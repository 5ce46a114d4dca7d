"""The stored form of game records (layer 2): what the store writes and the seal reads.

Below both :mod:`ledger.store` (which writes the rows) and
:mod:`ledger.sealing` (which seals and verifies them); imports neither.

- :mod:`ledger.stored.persistence` — the msgspec mapper: stored bytes = the
  canonical JSON of the record event; topics; game ids to originator ids;
  the decoding of a stored row; the recorders' SQL helpers;
- :mod:`ledger.stored.summaries` — each game's line of the games list (the
  ``rummy_game_summary`` side table).
"""
