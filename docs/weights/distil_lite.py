"""Distil round 8's fitted playout policy into one without some features (issue 33).

    PYTHONPATH=src python docs/weights/distil_lite.py \
        opponent_value,opponent_value_now,expose_value,expose_face_down \
        docs/weights/policy_weights_lite.npz 600

Plays GAMES games (seeds 1000..) whose turns are drawn by round 8's policy (temperature 0.4,
science bonus 0.7, no move averages; the other decisions greedy), records every turn's
features, and refits all weights but the dropped ones (kept at 0) to round 8's sharpened
softmax on those turns (cross-entropy, duelpy.duel.train.fit_policy).  Deterministic; about
a minute.  The playouts skip a feature whose weight is 0, so the file plays faster.
"""
import sys, time
import numpy as np
import duelcore
from duelcore import search
from duelpy.duel import train

DROP = sys.argv[1].split(",")          # feature names to drop
OUT = sys.argv[2]
GAMES = int(sys.argv[3]) if len(sys.argv) > 3 else 600
TEMP = 0.4
full = search.read_policy_weights(search.policy_weights_file("round8"))
names = list(search.POLICY_WEIGHT_NAMES)
drop_idx = [names.index(n) for n in DROP]
t0 = time.time()
rows, targets, groups = [], [], []
g = 0
rng = np.random.default_rng(12345)
for game in range(GAMES):
    st = duelcore.new_game(seed=1000 + game)
    seed = int(rng.integers(2**62))
    while not st.is_terminal():
        if st.phase == "play":
            acts, feats, win = search.turn_features_of(st)
            if win < 0 and len(acts) > 1:
                X = np.hstack([feats, search.action_biases(acts, st.age)])
                z = X @ full / TEMP
                p = np.exp(z - z.max()); p /= p.sum()
                rows.append(X); targets.append(p); groups.append(np.full(len(acts), g)); g += 1
            a = int(search._fitted_draws(st, 1, seed=seed + st.n_decisions, temp=TEMP, science=0.7)[0])
        else:
            a, seed = search.choose(st, {"kind": "greedy"}, seed)
        st.apply_action(a)
X = np.concatenate(rows); T = np.concatenate(targets); G = np.concatenate(groups)
print(f"{g} turns, {len(X)} rows, {time.time()-t0:.0f}s", flush=True)
Xl = X.copy(); Xl[:, drop_idx] = 0.0
rep = train.fit_policy(Xl, T, G, seed=1, l2=1e-6)
w = rep.weights * TEMP
w[drop_idx] = 0.0
# how well the full weights themselves do on the same loss (in temp space): the floor
def ce(wv, Xm):
    z = Xm @ (wv / TEMP)
    starts = np.flatnonzero(np.r_[True, G[1:] != G[:-1]])
    return train._softmax_loss(wv / TEMP, Xm, T, starts, 0.0)[0]
print(f"cross-entropy: full {ce(full, X):.4f}  lite {ce(w, Xl):.4f}  zeroed {ce(np.where(np.isin(np.arange(len(full)), drop_idx), 0, full), Xl):.4f}")
print(f"held-out CE {rep.cross_entropy:.4f} uniform {rep.base_cross_entropy:.4f} agreement {rep.agreement:.3f}")
for n in DROP: print("dropped", n, full[names.index(n)])
for k in range(search.POLICY_FEATURES):
    print(f"{names[k]:28s} {full[k]:8.3f} {w[k]:8.3f}")
train.save_policy_weights(w, OUT)
print("wrote", OUT)
