"""Gin Rummy in one place: the rules (:mod:`.rules`), the deadwood search
(:mod:`.deadwood`), the ends of a hand (:mod:`.endings`), the scoring
(:mod:`.scoring`), the state (:mod:`.state`), the words (:mod:`.words`) and
what its views add (:mod:`.presentation`); its simulator is
:mod:`ledger.simulate.gin`. RULES.md, the GIN family."""
