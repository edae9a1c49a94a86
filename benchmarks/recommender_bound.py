"""An information bound for the recommender benchmark: a Bayes oracle on the simulated readers.

    python benchmarks/recommender_bound.py --dataset ../shared/datasets/reuters21578
        [--seeds 1,2,5] [--readers 240] [--samples 20000] [--first N]

How well could *any* model rank on `benchmarks/recommender_quality.py`'s simulation? This script uses the
same readers (recommender_reuters.load, named_entities, recommender_simulation.simulate, same seed)
and the same protocol as `Evaluation.rank`: for each reader and k in 5, 10, 20, 50, 100 it trains on
the reader's first k rated stories, ranks the next 50 stream stories after the k-th rating, skips
windows whose labels are all one class, and scores ROC-AUC against the reader's labels there.

The oracle knows the generating process of recommender_simulation.py and everything in it except the
reader's personal taste weights (which concepts are liked or disliked, how many, how strongly) and
desk affinities: the exact shared appeal of every concept, every story's concept list, the reader's
desks and stream, the reader's own rating-noise sd, flip rate and good/bad threshold (on the noisy
utility), and the Population's ranges. It infers taste and affinity from the k labels only, with the
likelihood of the simulation, p(good | u) = flip + (1 - 2 flip) Phi((u - threshold) / noise), and
ranks by the posterior predictive probability of a good label (or the posterior mean utility):

  oracle_is_*   the exact prior: taste drawn as make_reader draws it (a number of likes and dislikes,
                concepts picked without replacement in proportion to their frequency in the reader's
                stream, the first ones picked being the likes, strengths uniform) and affinities
                N(0, 0.7^2); posterior by importance sampling from that prior (--samples draws per
                reader, shared over the reader's k); the effective sample size is printed;
  oracle_lap_*  a Gaussian approximation: per-concept taste prior with the exact prior's mean and
                variance (estimated from the same draws), affinity N(0, 0.7^2), MAP + Laplace with
                Fisher information; predictive Phi((m - threshold) / sqrt(noise^2 + s^2));
  nocrowd_lap_prob  the same Gaussian oracle without the crowd: the shared appeal is not given, only
                its prior N(0, 0.5^2) per concept added to the taste prior (what the reader's own k
                ratings can tell a model that knows the process perfectly);
  appeal~SD, oracle_lap~SD  (with --appeal-noise SD) the appeal known only through an estimate, the
                exact appeal plus independent N(0, SD^2) noise per concept (a stand-in for an imperfect
                crowd): ranking by the estimate alone, and the Gaussian oracle using its posterior.

Sanity rankings in the same run: prior_only (the oracle before any rating: appeal + the taste's prior
mean), appeal (the exact shared appeal), appeal_affinity (exact appeal + the exact desk affinity),
ceiling (the reader's noiseless utility, as the benchmark's "ceiling").

The per-reader noise, flip rate and threshold are the ones recommender_simulation.make_reader drew
(``Reader.parameters``). The threshold is the reader's quantile over their whole stream, so knowing it leaks a little about
the reader's taste; the likelihood treats it as a fixed number (ratings independent given taste).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
from scipy import optimize, sparse
from scipy.special import ndtr
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import recommender_reuters  # noqa: E402
from recommender_protocol import HORIZON, KS, mean_ci, ranked_window  # noqa: E402
from recommender_simulation import Population, simulate_with_appeal  # noqa: E402

METHODS = ("appeal", "appeal_affinity", "prior_only", "oracle_lap_mean", "oracle_lap_prob",
           "oracle_is_mean", "oracle_is_prob", "nocrowd_lap_prob", "ceiling")
REPO = Path(__file__).resolve().parents[1]


# --- the exact prior over taste, sampled as make_reader draws it ----------------------------------

def ordered_picks(p, n_samples, n_max, rng):
    """n_samples orderings of the first n_max concepts drawn without replacement in proportion to p
    (the order of first occurrence in an i.i.d. stream from p, which is how numpy's choice orders
    them); rows are (n_samples, n_max) pool indices."""
    cdf = np.cumsum(p)
    cdf /= cdf[-1]
    out = np.empty((n_samples, n_max), int)
    todo = np.arange(n_samples)
    draws = 4 * n_max
    while len(todo):
        d = np.minimum(np.searchsorted(cdf, rng.random((len(todo), draws)), side="right"), len(p) - 1)
        order = np.argsort(d, axis=1, kind="stable")
        sorted_d = np.take_along_axis(d, order, axis=1)
        first = np.ones_like(d, bool)
        first_sorted = np.concatenate([np.ones((len(todo), 1), bool), sorted_d[:, 1:] != sorted_d[:, :-1]], axis=1)
        np.put_along_axis(first, order, first_sorted, axis=1)
        rank = np.cumsum(first, axis=1)
        done = rank[:, -1] >= n_max
        rows, cols = np.nonzero(first & (rank <= n_max) & done[:, None])
        out[todo[rows], rank[rows, cols] - 1] = d[rows, cols]
        todo = todo[~done]
        draws *= 2
    return out


def prior_taste_samples(p, relevant, population, n_samples, rng):
    """Sparse (n_samples, len(relevant)) taste weights over the relevant pool indices, drawn from the
    exact prior; concepts outside `relevant` are drawn too (they take slots) but not returned."""
    n_max = population.likes[1] + population.dislikes[1]
    picks = ordered_picks(p, n_samples, n_max, rng)
    n_like = rng.integers(*population.likes, endpoint=True, size=n_samples)
    n_dislike = rng.integers(*population.dislikes, endpoint=True, size=n_samples)
    slot = np.arange(n_max)[None, :]
    sign = np.where(slot < n_like[:, None], 1.0, np.where(slot < (n_like + n_dislike)[:, None], -1.0, 0.0))
    weight = sign * rng.uniform(*population.strength, size=(n_samples, n_max))
    column = np.full(len(p), -1)
    column[relevant] = np.arange(len(relevant))
    col = column[picks]
    keep = (col >= 0) & (weight != 0)
    rows = np.nonzero(keep)[0]
    return sparse.csr_matrix((weight[keep], (rows, col[keep])), shape=(n_samples, len(relevant)))


# --- inference ------------------------------------------------------------------------------------

def flip_probit(u, threshold, noise, flip):
    """p(good label | utility u) in the simulation."""
    return flip + (1 - 2 * flip) * ndtr((u - threshold) / noise)


def laplace(design, offset, y, prior_mean, prior_var, threshold, noise, flip):
    """MAP and Laplace covariance (Fisher information) for utility = offset + design @ theta."""
    sign = np.where(y, 1.0, -1.0)
    c = 1 - 2 * flip

    def objective(theta):
        u = offset + design @ theta
        z = sign * (u - threshold) / noise
        q = flip + c * ndtr(z)
        dq = c * np.exp(-0.5 * z * z) / np.sqrt(2 * np.pi) * sign / noise  # d q / d u
        r = theta - prior_mean
        value = -np.log(q).sum() + 0.5 * (r * r / prior_var).sum()
        grad = -design.T @ (dq / q) + r / prior_var
        return value, grad

    theta = optimize.minimize(objective, prior_mean.copy(), jac=True, method="L-BFGS-B").x
    u = offset + design @ theta
    z = (u - threshold) / noise
    pg = flip + c * ndtr(z)
    dp = c * np.exp(-0.5 * z * z) / np.sqrt(2 * np.pi) / noise
    fisher = dp * dp / (pg * (1 - pg))
    precision = np.diag(1 / prior_var) + design.T @ (fisher[:, None] * design)
    return theta, np.linalg.inv(precision)


def gaussian_oracle(x, base, desk_of, n_desks, good, tr, te, mean_w, var_w, affinity_var, threshold, noise, flip):
    """Laplace posterior mean utility and predictive probability of 'good' for the stories te."""
    cols = np.flatnonzero(x[tr].sum(axis=0))
    other = np.ones(x.shape[1], bool)
    other[cols] = False
    offset = base + x[:, other] @ mean_w[other]
    design = np.c_[np.eye(n_desks)[desk_of[tr]], x[np.ix_(tr, cols)]]
    theta, cov = laplace(design, offset[tr], good[tr], np.r_[np.zeros(n_desks), mean_w[cols]],
                         np.r_[np.full(n_desks, affinity_var), var_w[cols]], threshold, noise, flip)
    test_design = np.c_[np.eye(n_desks)[desk_of[te]], x[np.ix_(te, cols)]]
    m = offset[te] + test_design @ theta
    s2 = (np.einsum("ij,jk,ik->i", test_design, cov, test_design)
          + (x[np.ix_(te, np.flatnonzero(other))] ** 2) @ var_w[other])
    return m, ndtr((m - threshold) / np.sqrt(noise ** 2 + s2))


def importance(loglik, u, p_good, tr, te):
    """Self-normalised importance weights from the prior draws given the ratings tr; returns the
    posterior mean utility and predictive probability of 'good' for te, and the effective sample size."""
    lw = loglik[:, tr].sum(axis=1)
    lw = np.exp(lw - lw.max())
    lw /= lw.sum()
    return lw @ u[:, te], lw @ p_good[:, te], float(1 / (lw * lw).sum())


def evaluate_reader(reader, params, items, concepts, appeal, population, n_samples, rng, noisy_appeals=()):
    """AUC per method for each of the reader's windows, and the importance sampler's ESS per k."""
    tasks = [(k, *chosen) for k in KS if (chosen := ranked_window(reader, k)) is not None]
    if not tasks:
        return {}, {}
    threshold, noise, flip = params["threshold"], params["noise"], params["flip"]
    offsets = np.unique(np.concatenate([np.r_[rated, window] for _, rated, window in tasks]))
    where = {o: i for i, o in enumerate(offsets)}
    pool_index = {c: i for i, c in enumerate(params["pool"])}
    counts = [Counter(concepts[reader.stream[o]]) for o in offsets]
    relevant = np.array(sorted({pool_index[c] for cs in counts for c in cs}))
    rel_col = {params["pool"][j]: i for i, j in enumerate(relevant)}
    x = np.zeros((len(offsets), len(relevant)))
    for row, cs in enumerate(counts):
        for c, n in cs.items():
            x[row, rel_col[c]] = n
    base = np.array([sum(appeal.get(c, 0) * n for c, n in cs.items()) for cs in counts])
    desk_of = np.array([reader.desks.index(items[reader.stream[o]].desk) for o in offsets])
    true_affinity = np.array([params["affinity"][d] for d in reader.desks])
    nd, affinity_var = len(reader.desks), population.desk_affinity ** 2
    good = reader.labels[offsets]
    sign = np.where(good, 1, -1)[None, :]

    def likelihood(u):
        return np.log(flip_probit(sign * (u - threshold) + threshold, threshold, noise, flip)), ndtr((u - threshold) / noise)

    # exact prior, importance sampling
    w = prior_taste_samples(params["pool_weights"], relevant, population, n_samples, rng)
    a = rng.normal(0, population.desk_affinity, (n_samples, nd))
    own = np.asarray((w @ x.T)) + a[:, desk_of]
    u = own + base[None, :]
    loglik, p_good = likelihood(u)

    # Gaussian approximation: the exact prior's per-concept moments
    mean_w = np.asarray(w.mean(axis=0)).ravel()
    var_w = np.maximum(np.asarray(w.multiply(w).mean(axis=0)).ravel() - mean_w ** 2, 1e-6)

    out, ess = {}, {}
    for k, rated, window in tasks:
        tr = np.array([where[o] for o in rated])
        te = np.array([where[o] for o in window])
        labels = reader.labels[window]
        scores = {"appeal": base[te], "appeal_affinity": base[te] + true_affinity[desk_of[te]],
                  "prior_only": base[te] + x[te] @ mean_w, "ceiling": reader.truth[window]}
        scores["oracle_is_mean"], scores["oracle_is_prob"], ess[k] = importance(loglik, u, p_good, tr, te)
        scores["oracle_lap_mean"], scores["oracle_lap_prob"] = gaussian_oracle(
            x, base, desk_of, nd, good, tr, te, mean_w, var_w, affinity_var, threshold, noise, flip)
        _, scores["nocrowd_lap_prob"] = gaussian_oracle(
            x, np.zeros_like(base), desk_of, nd, good, tr, te, mean_w, var_w + population.shared_taste ** 2,
            affinity_var, threshold, noise, flip)
        for tau, estimate in noisy_appeals:  # the appeal known only through an estimate (a crowd's)
            shrink = population.shared_taste ** 2 / (population.shared_taste ** 2 + tau ** 2)
            est = np.array([sum(estimate.get(c, 0) * n for c, n in cs.items()) for cs in counts])
            scores[f"appeal~{tau:g}"] = est[te]
            _, scores[f"oracle_lap~{tau:g}"] = gaussian_oracle(
                x, shrink * est, desk_of, nd, good, tr, te, mean_w, var_w + shrink * tau ** 2,
                affinity_var, threshold, noise, flip)
        out[k] = {method: roc_auc_score(labels, s) for method, s in scores.items()}
    return out, ess


def _cell(values) -> str:
    figure = mean_ci(values)
    return (f"{figure[0]:.3f} ± {figure[1]:.3f}" if figure else "-").rjust(15)


def table(results, ess, methods=METHODS):
    lines = [f"{'ratings':>7} {'windows':>7} " + " ".join(f"{m:>15}" for m in methods) + "   IS ESS median / p10"]
    for k in KS:
        n = len(results["ceiling"][k])
        e = np.array(ess[k]) if ess[k] else np.array([np.nan])
        lines.append(f"{k:>7} {n:>7} " + " ".join(_cell(results[m][k]) for m in methods)
                     + f"   {np.median(e):8.0f} / {np.percentile(e, 10):.0f}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path,
                        default=Path(os.environ.get("SHARED_DIR", REPO / ".." / "shared")) / "datasets" / "reuters21578")
    parser.add_argument("--seeds", default="1,2,5")
    parser.add_argument("--readers", type=int, default=240)
    parser.add_argument("--first", type=int, default=None, help="evaluate only the first N readers (all simulated)")
    parser.add_argument("--appeal-noise", default="", metavar="SD,SD",
                        help="also a Gaussian oracle that knows the appeal only as appeal + N(0, SD^2) per concept")
    parser.add_argument("--samples", type=int, default=20000, help="prior draws per reader for importance sampling")
    args = parser.parse_args(argv)
    items = recommender_reuters.load(args.dataset)
    concepts = [item.topics + item.places + entities
                for item, entities in zip(items, recommender_reuters.named_entities(items))]
    population = Population()
    for seed in [int(s) for s in args.seeds.split(",")]:
        started = time.perf_counter()
        appeal, readers = simulate_with_appeal(items, concepts, args.readers, seed, population)
        rng = np.random.default_rng(10_000 + seed)
        taus = [float(t) for t in args.appeal_noise.split(",")] if args.appeal_noise else []
        noise_rng = np.random.default_rng(30_000 + seed)
        noisy_appeals = [(tau, {c: v + noise_rng.normal(0, tau) for c, v in appeal.items()}) for tau in taus]
        methods = METHODS[:-1] + tuple(f"{kind}~{tau:g}" for tau in taus for kind in ("appeal", "oracle_lap")) + METHODS[-1:]
        results = {m: {k: [] for k in KS} for m in methods}
        ess = {k: [] for k in KS}
        evaluated = readers[:args.first] if args.first else readers
        for reader in evaluated:
            per_k, reader_ess = evaluate_reader(reader, reader.parameters, items, concepts, appeal, population, args.samples, rng, noisy_appeals)
            for k, aucs in per_k.items():
                ess[k].append(reader_ess[k])
                for m, v in aucs.items():
                    results[m][k].append(v)
        print(f"Seed {seed}: {len(evaluated)} of {len(readers)} simulated readers, "
              f"{args.samples} prior draws per reader; ROC-AUC of the next {HORIZON} stories after k ratings "
              f"(mean ± 95% interval) ({time.perf_counter() - started:.0f} s)")
        print(table(results, ess, methods) + "\n", flush=True)


if __name__ == "__main__":
    main()
