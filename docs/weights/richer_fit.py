"""Does a richer policy class fit the search's choices better? (issue 33, round 6)

    PYTHONPATH=src python docs/weights/richer_fit.py 300 123

Plays GAMES games of planning-search self-play (2,000 iterations, round 8's weights, the
options of duel train's later rounds, duelpy.duel.train.ROUND_SEARCH; game i seeded as in
train.policy_data), records each turn's action features, per-card biases, the search's visit
shares, the Age and the position (the learned evaluator's 48 features of the mover's city
minus the opponent's, duelcore.search.value_features_of), and fits four classes to the same
turns with the same held-out tenth (duelpy.duel.train.fit_policy): the shipped one (32
features and the biases), the 32 features with one weight per Age, the shipped one plus the
528 pairwise products of the standardised features, and the shipped one plus the products
of 8 action features with the 48 of the position.  Prints each held-out cross-entropy.  About 5 minutes on 2 cores for
300 games, then 2 minutes of fitting.
"""
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import duelcore
import duelcore.search as S
from duelpy.duel.train import ROUND_SEARCH, fit_policy

GAMES, SEED = int(sys.argv[1]), int(sys.argv[2])


def one_game(i):
    gs = (SEED * 1_000_003 + i) % 2**63
    st = duelcore.new_game(seed=gs)
    rng = np.random.default_rng(gs)
    out = []
    while not st.is_terminal():
        res = S.mcts_search(st, iterations=2000, kind="plan", seed=int(rng.integers(2**63)),
                            **ROUND_SEARCH)
        acts_r, v = res["actions"], np.asarray(res["visits"], float)
        if st.phase == "play" and v.sum() > 0:
            acts, feats, win = S.turn_features_of(st)
            if win < 0:
                share = dict(zip(acts_r, v / v.sum()))
                pos = np.asarray(S.value_features_of(st)).reshape(3, -1).sum(0)
                pos = pos if st.current_player() == 0 else -pos      # the mover's side
                out.append((np.hstack([feats, S.action_biases(acts, st.age)]),
                            np.array([share.get(int(a), 0.0) for a in acts]), st.age, pos))
        st.apply_action(acts_r[int(np.argmax(v))] if len(acts_r) else st.legal_actions()[0])
    return out


turns = []
with ThreadPoolExecutor(2) as pool:
    for t in pool.map(one_game, range(GAMES)):
        turns.extend(t)
sizes = [len(t[1]) for t in turns]
X = np.concatenate([t[0] for t in turns])
T = np.concatenate([t[1] for t in turns])
G = np.repeat(np.arange(len(turns)), sizes)
A = np.repeat([t[2] for t in turns], sizes)
P = np.repeat(np.array([t[3] for t in turns]), sizes, axis=0)
print(f"{len(turns)} turns")
F, B = X[:, :S.POLICY_FEATURES], X[:, S.POLICY_FEATURES:]


def report(name, M, l2=1e-4):
    r = fit_policy(M, T, G, seed=1, l2=l2)
    print(f"{name:34s} {M.shape[1]:4d} weights, held-out {r.cross_entropy:.4f} nats "
          f"(uniform {r.base_cross_entropy:.4f}), top action the search's {r.agreement:.1%}")


report("the shipped class", X)
age = np.stack([A == a for a in (1, 2, 3)], 1).astype(float)
report("the features per Age", np.hstack([(F[:, :, None] * age[:, None, :]).reshape(len(F), -1), B]))
Fs = (F - F.mean(0)) / (F.std(0) + 1e-9)
iu = np.triu_indices(F.shape[1])
report("the shipped class + pairwise", np.hstack([X, Fs[:, iu[0]] * Fs[:, iu[1]]]), l2=1e-3)
# the position: 8 action features times the mover's 48 position features (standardised)
names = list(S.POLICY_FEATURE_NAMES)
pick = [names.index(n) for n in ("build", "discard", "wonder", "build_value", "build_new_symbol",
                                 "build_shields", "build_production_age1", "build_cost")]
Ps = (P - P.mean(0)) / (P.std(0) + 1e-9)
cross = (F[:, pick][:, :, None] * Ps[:, None, :]).reshape(len(F), -1)
report("the shipped class + position", np.hstack([X, cross]), l2=1e-3)
