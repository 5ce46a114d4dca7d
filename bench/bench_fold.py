"""Fold-only benchmark (issue 17): events/s of ``ledger.replay.replay`` over
already decoded events, per variant, optionally next to another revision of
the code measured in the same run.

    .venv/bin/python bench/bench_fold.py [--games 20] [--repeat 5] [--dir DIR] [--against REV] [--profile N]

The corpus is simulated once per variant (``ledger.simulate``, 2 players,
seeds 0..games-1; kept in ``--dir`` to be reused) and decoded before the
clock starts. Each figure is the best of ``--repeat`` passes, by this
process's CPU time (``time.process_time``; steadier than wall time on a
shared machine), with wall time beside it.

``--against REV`` extracts ``ledger/`` of that git revision (``git archive``)
into a temporary folder and runs the same measurement there in a child
process, alternating with this tree's passes, so that both see the same
load; the ratio is this tree's rate over REV's. The child reads the records
with that revision's own reader (``ledger.record_files``, or ``ledger.records``
before the reader moved there), so it works across the module moves.

``--profile N`` prints cProfile's top ``N`` functions by own time for one
replay of the corpus in this tree instead of measuring.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent

VARIANTS = (("burraco", "fibur"), ("scala40", None), ("ramino51", None), ("ramino", None), ("gin", None))


def make_corpus(folder: Path, games: int) -> dict[str, list[Path]]:
    from ledger.simulate import simulate_game, write_game

    out: dict[str, list[Path]] = {}
    for variant, ruleset in VARIANTS:
        sub = folder / variant
        sub.mkdir(parents=True, exist_ok=True)
        paths = sorted(sub.glob("*.jsonl"))
        if len(paths) < games:
            paths = [write_game(sub, simulate_game(variant, ruleset, 2, seed)[0], None) for seed in range(games)]
        out[variant] = paths[:games]
    return out


def _decoded(paths: list[str]) -> list[list[object]]:
    """The events of each record, read with this interpreter's ``ledger`` (its
    own reader: ``ledger.record_files``, or ``ledger.records`` in a revision
    from before the reader moved there, such as 806e2d3)."""
    try:
        from ledger.record_files import read_record
    except ImportError:
        from ledger.records import read_record  # type: ignore[attr-defined,no-redef]  # older trees
    return [list(read_record(Path(p)).events) for p in paths]


def measure(corpus: dict[str, list[str]], repeat: int) -> dict[str, dict[str, float]]:
    """``{variant: {"events", "cpu", "wall"}}``: best of ``repeat`` passes (this
    interpreter's ``ledger``, whichever is first on ``sys.path``)."""
    from ledger.replay import replay

    out: dict[str, dict[str, float]] = {}
    for variant, paths in corpus.items():
        games = _decoded(paths)
        n = sum(len(g) for g in games)
        best_cpu = best_wall = float("inf")
        for _ in range(repeat):
            t, c = time.perf_counter(), time.process_time()
            for g in games:
                replay(g)
            best_cpu, best_wall = min(best_cpu, time.process_time() - c), min(best_wall, time.perf_counter() - t)
        out[variant] = {"events": n, "cpu": best_cpu, "wall": best_wall}
    return out


def profile(corpus: dict[str, list[str]], top: int) -> None:
    """Print cProfile's ``top`` functions by own time (tottime) for one replay
    of the whole corpus (all variants, after one unprofiled warm-up pass)
    with this interpreter's ``ledger`` (``PYTHONPATH=TREE`` profiles another
    tree's), and the CPU time of the profiled pass."""
    import cProfile
    import pstats

    import ledger
    from ledger.replay import replay

    games = _decoded([p for paths in corpus.values() for p in paths])
    n = sum(len(g) for g in games)
    for g in games:
        replay(g)
    prof = cProfile.Profile(time.process_time)
    prof.enable()
    for g in games:
        replay(g)
    prof.disable()
    stats = pstats.Stats(prof)
    total = getattr(stats, "total_tt", 0.0)
    print(f"cProfile ({ledger.__file__}), one replay of {len(games)} games ({n:,} events), {total:.3f} s CPU")
    stats.sort_stats("tottime").print_stats(top)


def child(root: str, corpus_json: str, repeat: int) -> dict[str, dict[str, float]]:
    """Run :func:`measure` in a fresh interpreter with ``root`` first on the path (``-c`` puts
    its working folder ``root`` first, before the installed ``ledger``; ``PYTHONPATH`` then
    names this folder, for ``bench_fold``)."""
    code = (
        "import json, sys;"
        "import bench_fold, ledger; assert ledger.__file__.startswith(sys.argv[1]), ledger.__file__;"
        "print(json.dumps(bench_fold.measure(json.loads(sys.argv[3]), int(sys.argv[4]))))"
    )
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    res = subprocess.run(
        [sys.executable, "-c", code, root, str(HERE.parent), corpus_json, str(repeat)],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
    )
    if res.returncode:
        raise SystemExit(f"the measurement failed in {root}:\n{res.stderr}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dir", type=Path, default=None)
    ap.add_argument(
        "--against", default=None, help="a git revision to measure beside this tree (e.g. main, a commit id)"
    )
    ap.add_argument(
        "--profile", type=int, default=0, metavar="N", help="print cProfile's top N functions by tottime instead"
    )
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rummy-fold-") as tmp:
        folder = args.dir or Path(tmp) / "corpus"
        corpus = {k: [str(p) for p in v] for k, v in make_corpus(folder, args.games).items()}
        if args.profile:
            profile(corpus, args.profile)
            return 0
        cj = json.dumps(corpus)
        other = None
        if args.against:
            other = Path(tmp) / "against"
            other.mkdir()
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", args.against, "ledger"], capture_output=True, check=True
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(other)], input=archive, check=True)
        # alternate passes of this tree and the other one, keep the best of each
        mine: dict[str, dict[str, float]] = {}
        theirs: dict[str, dict[str, float]] = {}
        for _ in range(max(1, args.repeat // 2)):
            for store, root in ((mine, str(ROOT)), (theirs, str(other) if other else None)):
                if root is None:
                    continue
                for variant, fig in child(root, cj, 2).items():
                    best = store.setdefault(variant, fig)
                    best["cpu"], best["wall"] = min(best["cpu"], fig["cpu"]), min(best["wall"], fig["wall"])
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"fold only (replay over decoded events), {args.games} simulated 2-player games per variant, best by "
        f"CPU time; load {load}"
    )
    head = f"  {'variant':<9} {'events':>8} {'this tree ev/s (CPU)':>22} {'wall ev/s':>10}"
    if theirs:
        head += f" {args.against + ' ev/s (CPU)':>24} {'ratio (CPU)':>12}"
    print(head)
    for variant in corpus:
        m = mine[variant]
        line = (
            f"  {variant:<9} {int(m['events']):>8,} {m['events'] / m['cpu']:>22,.0f} {m['events'] / m['wall']:>10,.0f}"
        )
        if theirs:
            t = theirs[variant]
            line += f" {t['events'] / t['cpu']:>24,.0f} {t['cpu'] / m['cpu']:>11.2f}x"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
