"""The opening-threshold games (Scala 40, Ramino 51) in one place: their shared
rules (:mod:`.rules`), what their scoring reads (:mod:`.scoring`) and what their views add (:mod:`.presentation`); each
game's own rules are :mod:`ledger.variants.scala40` and
:mod:`ledger.variants.ramino51`, its simulator :mod:`ledger.simulate.threshold`."""
