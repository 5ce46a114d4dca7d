"""Classic Ramino (Rummy) in one place: its rules (:mod:`.rules`: the melds, the
going out, the scoring of the cards left in hand) and its rule table
(:mod:`.rule_table`: RULES.md, the RAM family); its simulator is
:mod:`ledger.simulate.ramino`."""
