"""Burraco in one place: the rules (:mod:`.rules`), the pozzetti (:mod:`.pozzetto`),
the scoring (:mod:`.scoring`), the state (:mod:`.state`), the table checks
(:mod:`.table`), the words (:mod:`.words`) and what its views add
(:mod:`.presentation`); its simulator is :mod:`ledger.simulate.burraco`.
RULES.md, the BUR family."""
