"""The seal wing (FORMAT.md "Seal", layer 2): the chain, checkpoints, verify and backfill.

Data flow: the stored form (:mod:`ledger.stored`) → this package → the
store's write paths (:mod:`ledger.store`) and the interfaces (the CLI,
:mod:`replay_web`). Nothing here imports :mod:`ledger.store`.

- :mod:`ledger.sealing.chain` — the seal chain, the journal chain and the
  RFC 6962 tree, pure (no I/O);
- :mod:`ledger.sealing.checkpoint` — checkpoint files, inclusion proofs and
  their Ed25519 signatures;
- :mod:`ledger.sealing.tables` — the events table and the journal by SQL, the
  stored seals;
- :mod:`ledger.sealing.witness` — the seals of each append call, computed as
  its events are stored;
- :mod:`ledger.sealing.verify` — ``verify`` and the checkpoint checks: the
  fast read :mod:`ledger.sealing.verify_fast`, the row-by-row check
  :mod:`ledger.sealing.verify_rows`, the games list's lines
  :mod:`ledger.sealing.verify_lines`, and a live game's stored chain
  :mod:`ledger.sealing.chain_check`;
- :mod:`ledger.sealing.backfill` — stores from before the chain, sealed once.
"""
