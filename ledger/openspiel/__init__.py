"""Convert an OpenSpiel ``gin_rummy`` game into a ``rummy-ledger/1`` record.

Input: the game's action history, as a list of ints, the text of
``state.serialize()`` (one action per line), the text of
``pyspiel.serialize_game_and_state`` (its ``[Game]`` line gives the game's
parameters, its ``[State]`` section the history), or ints separated by
spaces or commas. Output: a record under ``variant: gin``, ``ruleset:
openspiel``. The conversion is pure Python (it does not need ``pyspiel``):
it follows OpenSpiel's state machine (``gin_rummy.cc``) phase by phase.

- :mod:`ledger.openspiel.actions` — OpenSpiel's action ids: cards and melds;
- :mod:`ledger.openspiel.params` — the game's parameters and the input
  texts (:func:`~ledger.openspiel.params.parse_input`);
- :mod:`ledger.openspiel.convert` — the state machine that builds the record
  (:func:`~ledger.openspiel.convert.convert_actions`);
- :mod:`ledger.openspiel.command` — the body of ``rummy-ledger
  import-openspiel`` (files, stdin and stdout);
- :mod:`ledger.openspiel.play` — seeded OpenSpiel games (needs ``pyspiel``;
  for the oracle test and the bench).
"""
