"""The opening-threshold games (Scala 40, Ramino 51) in one place: their shared
rules (:mod:`.rules`), what their scoring reads (:mod:`.scoring`), what their views
add (:mod:`.presentation`) and their rule tables (:mod:`.rule_table`); each game's
own rules are :mod:`.scala40` and :mod:`.ramino51`, its simulator
:mod:`ledger.simulate.threshold`."""
