"""Simulated games: heuristic players that play complete games through THE fold.

:func:`simulate_game` plays one game of a variant and preset to its end
condition and returns the record's events (every card known: the deal with
the stock order) and the violations it injected. Every move is checked on
the fold (:func:`ledger.replay.evolve`) before it is kept, so a simulated
game without injections audits clean by construction, and with injections
audits to exactly the injected findings (:mod:`ledger.simulate.inject`).
:func:`simulate_main` writes many games as record files (the CLI's
``rummy-ledger simulate``).

>>> events, injected = simulate_game("ramino", None, 2, seed=1)
>>> events[0].type, events[-1].type, injected
('game_started', 'game_ended', [])
>>> simulate_game("ramino", None, 2, seed=1)[0] == events
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from ledger import catalog
from ledger.events import Event
from ledger.simulate.inject import Injector
from ledger.simulate.strategy import SimulationError, Strategy
from ledger.variants import find_variant


class _Strategies(Mapping[str, str | type]):
    """variant -> ``"module:Class"`` of its strategy, read from the catalog (variants that have one)."""

    def __getitem__(self, variant: str) -> str | type:
        target = catalog.CATALOG[variant].strategy
        if target is None:
            raise KeyError(variant)
        return target

    def __iter__(self) -> Iterator[str]:
        return (e.id for e in catalog.CATALOG.values() if e.strategy is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


#: variant -> "module:Class" of its strategy (:mod:`ledger.catalog`)
STRATEGIES: Mapping[str, str | type] = _Strategies()


def find_strategy(variant: str) -> type[Strategy]:
    """The strategy class of a variant; raises :class:`KeyError` when unknown."""
    try:
        target = STRATEGIES[variant]
    except KeyError:
        raise KeyError(f"no simulator for variant {variant!r} (known: {', '.join(sorted(STRATEGIES))})") from None
    strategy: type[Strategy] = catalog.load(target)
    return strategy


def simulate_game(
    variant: str,
    ruleset: str | None,
    players: int,
    seed: int,
    violations: float = 0.0,
    game_id: str | None = None,
) -> tuple[list[Event], list[dict[str, object]]]:
    """Play one complete game; returns ``(events, injected)``.

    ``events`` is a ``rummy-ledger/1`` record (``game_started`` …
    ``game_ended``); ``injected`` lists ``{"position", "hand", "seat",
    "rule"}`` for each injected violation (empty when ``violations`` is 0),
    which is exactly what the audit reports. Deterministic for a seed.

    Raises :class:`KeyError` for an unknown variant, :class:`RecordError`
    for an unknown ruleset or player count, :class:`SimulationError` when
    no clean move exists (a bug).
    """
    rng = random.Random(f"{variant}/{ruleset}/{players}/{seed}")
    strategy = find_strategy(variant)(rng)
    injector = Injector(violations, random.Random(f"inject/{seed}")) if violations > 0 else None
    strategy.injector = injector
    gid = game_id or f"sim-{variant}-{ruleset or find_variant(variant).default_ruleset}-{players}p-{seed}"
    table = strategy.play_game(gid, ruleset, players)
    return list(table.events), (injector.injected if injector else [])


def write_game(out: Path, events: list[Event], injected: list[dict[str, object]] | None) -> Path:
    """Write ``GAME_ID.jsonl`` (and ``GAME_ID.injected.json`` when ``injected``
    is not None) in ``out``; returns the record's path."""
    from ledger.record_files import write_record

    gid = events[0].game_id  # type: ignore[attr-defined]  # events[0] is the game_started
    path = out / f"{gid}.jsonl"
    write_record(events, path)
    if injected is not None:
        doc = {"game_id": gid, "findings": injected}
        (out / f"{gid}.injected.json").write_text(json.dumps(doc, indent=1) + "\n")
    return path


def partial_game(
    events: list[Event], injected: list[dict[str, object]], knowledge: str
) -> tuple[list[Event], list[dict[str, object]]]:
    """``(events, injected)`` of a simulated game cut to what ``knowledge``
    (``scorer`` or ``seat:N``) saw; raises :class:`~ledger.errors.LedgerError` for another value."""
    from ledger.partial import parse_viewer, redact
    from ledger.rule_ids import NEEDS_HIDDEN_EVIDENCE

    seat = parse_viewer(knowledge)
    cut = redact(events, seat)
    kept = [
        {**f, "position": cut.positions[int(f["position"])]}  # type: ignore[call-overload]  # an injected position is an int
        for f in injected
        if f["rule"] not in NEEDS_HIDDEN_EVIDENCE or (seat is not None and f["seat"] == seat)
    ]
    return list(cut.events), kept


def simulate_main(
    variant: str,
    ruleset: str | None,
    players: int,
    games: int,
    seed: int,
    out: str | Path,
    violations: float = 0.0,
    progress: Callable[[int], None] | None = None,
    knowledge: str = "full",
) -> list[Path]:
    """Simulate ``games`` games (seeds ``seed`` … ``seed + games - 1``) into
    the folder ``out``; returns the record paths.

    With ``violations`` > 0 each record gets ``NAME.injected.json`` beside
    it. ``knowledge`` ``scorer`` or ``seat:N`` writes each game as the partial
    record that viewer saw (:func:`ledger.partial.redact`; the injected list
    then holds what its audit reports: positions moved past the inserted
    ``cards_shown``, hidden-evidence rules only about seat N).
    ``progress(1)`` is called after each game; when None a rich progress bar
    is shown on stderr when stderr is a terminal (none in a file or a pipe).
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []

    def run(step: Callable[[int], None]) -> None:
        for i in range(games):
            events, injected = simulate_game(variant, ruleset, players, seed + i, violations)
            if knowledge != "full":
                events, injected = partial_game(events, injected, knowledge)
            paths.append(write_game(out, events, injected if violations > 0 else None))
            step(1)

    if progress is not None:
        run(progress)
        return paths
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        run(lambda _k: None)
        return paths

    with Progress(
        TextColumn("[bold]simulate[/] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
    ) as bar:
        task = bar.add_task(f"{variant} {ruleset or ''}".strip(), total=games)
        run(lambda k: bar.advance(task, k))
    return paths


__all__ = ["STRATEGIES", "SimulationError", "find_strategy", "simulate_game", "simulate_main", "write_game"]
