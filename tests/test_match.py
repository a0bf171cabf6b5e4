"""MatchRun (issue 11): games in chunks on worker threads, handed over in game order whatever
the chunking and the workers, progress within long games, a stop keeps every finished game."""
from __future__ import annotations

import threading

import pandas as pd
import pytest

import duelpy
import duelpy.duel.match as match_mod
from duelpy.duel.match import CHUNK_SECONDS, MAX_CHUNK, MatchRun
from duelpy.duel.summary import Summary, summary


def collect(run, **kw):
    parts, spans = [], []

    def on_chunk(lo, hi, raw):
        spans.append((lo, hi))
        parts.append(run.table(lo, hi, raw))

    st = run.run(on_chunk, **kw)
    return st, spans, (pd.concat(parts) if parts else None)


@pytest.mark.parametrize("jobs, chunk", [(1, 0), (2, 0), (2, 7), (3, 1)])
def test_same_games_in_order_whatever_the_chunks_and_workers(jobs, chunk):
    reference = duelpy.play_match("greedy", "random", games=50, seed=3)
    run = MatchRun("greedy", "random", 50, 3, jobs=jobs, chunk=chunk)
    st, spans, df = collect(run)
    assert spans[0][0] == 0 and spans[-1][1] == 50
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))       # in game order
    pd.testing.assert_frame_equal(df, reference)
    assert st.games == 50 and not st.interrupted and st.rate > 0


def test_chunks_adapt_to_about_a_fifth_of_a_second():
    run = MatchRun("random", "random", 50_000, 1)
    assert 1 <= run.chunk <= MAX_CHUNK
    spans = []
    run.run(lambda lo, hi, raw: spans.append(hi - lo))
    assert max(spans) <= MAX_CHUNK and sum(spans) == 50_000
    assert CHUNK_SECONDS <= 1.0


def test_long_games_are_played_move_by_move_with_progress(monkeypatch):
    assert MatchRun("mcts:iterations=2000", "greedy", 2, 5).moves          # 0.6 s a game
    assert not MatchRun("mcts:iterations=200", "greedy", 2, 5).moves
    monkeypatch.setattr(match_mod, "LONG_GAME", 0.0)                       # (quicker here)
    run = MatchRun("mcts:iterations=200", "greedy", 2, 5)
    assert run.moves and run.chunk == 1
    seen = []
    st = run.run(lambda lo, hi, raw: None,
                 on_tick=lambda s: seen.append((s.games, s.in_play, s.decisions)), tick=0.02)
    assert st.games == 2
    assert any(in_play and decisions for games, in_play, decisions in seen if games < 2)
    # the same games as the core's batch runner
    moves = MatchRun("mcts:iterations=200", "greedy", 2, 5)
    _, _, df = collect(moves)
    monkeypatch.setattr(match_mod, "LONG_GAME", 1e9)
    fast = duelpy.play_match("mcts:iterations=200", "greedy", games=2, seed=5)
    pd.testing.assert_frame_equal(df, fast)


def test_a_stop_keeps_every_finished_game(monkeypatch):
    stop = threading.Event()
    real = match_mod._play_python
    count = [0]

    def stop_after_three(*args, **kwargs):
        count[0] += 1
        if count[0] == 4:
            stop.set()
        return real(*args, **kwargs)

    monkeypatch.setattr(match_mod, "_play_python", stop_after_three)
    monkeypatch.setattr(match_mod, "LONG_GAME", 0.0)
    run = MatchRun("mcts:iterations=100", "greedy", 20, 8)
    st, spans, df = collect(run, stop=stop)
    assert st.interrupted and st.games == 3 == len(df)
    reference = duelpy.play_match("mcts:iterations=100", "greedy", games=3, seed=8)
    pd.testing.assert_frame_equal(df, reference)


def test_keyboard_interrupt_stops_the_workers_and_is_raised(monkeypatch):
    def on_chunk(lo, hi, raw):
        raise KeyboardInterrupt
    run = MatchRun("greedy", "random", 10_000, 1, jobs=2, chunk=100)
    with pytest.raises(KeyboardInterrupt):
        run.run(on_chunk)
    assert not [t for t in threading.enumerate() if t.name.startswith("duel-match")]


def test_summary_by_chunks_equals_the_summary_of_the_table():
    run = MatchRun("greedy", "mcts:iterations=5", 120, 2, chunk=37)
    acc, parts = Summary(), []

    def on_chunk(lo, hi, raw):
        acc.add_raw(raw, *run.names(lo, hi))
        parts.append(run.table(lo, hi, raw))

    run.run(on_chunk)
    pd.testing.assert_frame_equal(acc.table(), summary(pd.concat(parts)), rtol=1e-9)
    t = acc.table()
    assert t.loc["mean VP of P1", "rate"] != t.loc["mean VP of P1", "rate"]      # NaN
    assert 0 <= t.loc["P1 wins", "rate"] <= 1


def test_bad_arguments():
    for kw, word in ((dict(games=0), "games"), (dict(games=5, seed=-1), "seed"),
                     (dict(games=5, jobs=0), "jobs"), (dict(games=5, chunk=-1), "chunk"),
                     (dict(games=5, colour=1), "unknown game option")):
        with pytest.raises(ValueError, match=word):
            MatchRun("random", "random", **kw)
