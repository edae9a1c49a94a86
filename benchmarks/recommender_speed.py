"""Recommender speed and size on Reuters-21578 stories, against per-user TF-IDF + scikit-learn LR.

    python benchmarks/recommender_speed.py --dataset ../shared/datasets/reuters21578 [--json PATH]

Single process, single thread (numbers are per core): featurising, (user, story) pairs scored per
second, retraining one user at 500 ratings (p50/p95; with the crowd model, as the reader fits, and
without), stored model bytes per user, fitting the crowd model once.
"""
from __future__ import annotations

import argparse
import json
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # per-core figures, also for the competitor
os.environ.setdefault("OMP_NUM_THREADS", "1")

import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.feature_extraction.text import TfidfVectorizer  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import recommender  # noqa: E402
import recommender_reuters  # noqa: E402
from recommender import features as feature_space  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
RATINGS = 500
USERS = 40


def timed(fn, repeat=1):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return result, np.array(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = Path(os.environ.get("SHARED_DIR", REPO / ".." / "shared"))
    parser.add_argument("--dataset", type=Path, default=shared / "datasets" / "reuters21578")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    items = recommender_reuters.load(args.dataset)
    stories = [recommender_reuters.as_story(i, it) for i, it in enumerate(items)]
    features, t_feat = timed(lambda: [recommender.featurize(s) for s in stories])
    texts = [f"{it.title}\n{it.body}" for it in items]
    tfidf, t_tfidf = timed(lambda: TfidfVectorizer(sublinear_tf=True, stop_words="english",
                                                   min_df=2).fit_transform(texts))
    rng = np.random.default_rng(0)
    concept = {t: rng.normal() for it in items for t in it.tags}
    liking = np.array([sum(concept[t] for t in it.tags) + rng.normal() for it in items]) > 0.5
    # at least one vote each way on every voted story: a user's own vote is always among the counts, as in the
    # reader (fit refuses a community that lacks the user's votes)
    votes = recommender.CommunityPrior([(features[i], int(rng.integers(1, 6)), int(rng.integers(1, 6)))
                                        for i in range(0, len(items), 3)])
    crowd, t_crowd = timed(lambda: votes.with_crowd_model())  # as the reader's glue builds it

    fit_times, counts_times, fit_bytes, lr_times, models, lrs = [], [], [], [], [], []
    for user in range(USERS):
        rows = np.sort(rng.choice(len(items), RATINGS, replace=False))
        labels = liking[rows] ^ (rng.random(RATINGS) < 0.1)
        ratings = [(features[r], bool(g)) for r, g in zip(rows, labels)]
        model, t = timed(lambda: recommender.fit(ratings, subscribed_feeds=["earn", "acq"], community=crowd))
        fit_times.append(t[0])
        _, t = timed(lambda: recommender.fit(ratings, subscribed_feeds=["earn", "acq"], community=votes))
        counts_times.append(t[0])
        fit_bytes.append(len(model.to_bytes()))
        models.append(model)
        lr, t = timed(lambda: LogisticRegression(C=1.0, solver="liblinear").fit(tfidf[rows], labels))
        lr_times.append(t[0])
        lrs.append(lr)

    batch = features[:2000]
    pairs = len(batch) * 10
    prepared, t_prepare = timed(lambda: recommender.prepare(batch, community=crowd))
    _, t_predict = timed(lambda: [m.predict(prepared) for m in models[:10]], repeat=3)
    _, t_unprepared = timed(lambda: [m.predict(batch, community=crowd) for m in models[:10]])
    _, t_rank = timed(lambda: [m.score(prepared, explain_reasons=False) for m in models[:10]])
    _, t_explain = timed(lambda: [m.score(prepared) for m in models[:10]])
    batch_tfidf = tfidf[:2000]
    _, t_lr = timed(lambda: [lr.predict_proba(batch_tfidf) for lr in lrs[:10]], repeat=3)

    fit_ms = np.array(fit_times) * 1000
    counts_ms = np.array(counts_times) * 1000
    lr_ms = np.array(lr_times) * 1000
    figures = {
        "stories": len(items),
        "featurize_stories_per_s": round(len(items) / t_feat[0]),
        "tfidf_vectorize_stories_per_s": round(len(items) / t_tfidf[0]),
        "prepare_stories_per_s": round(len(batch) / t_prepare[0]),
        "pairs_per_s_predict": round(pairs / t_predict.min()),
        "pairs_per_s_predict_unprepared": round(pairs / t_unprepared[0]),
        "pairs_per_s_score_no_reasons": round(pairs / t_rank[0]),
        "pairs_per_s_score_with_reasons": round(pairs / t_explain[0]),
        "pairs_per_s_tfidf_lr_predict_proba": round(pairs / t_lr.min()),
        "retrain_500_ms_p50": round(float(np.percentile(fit_ms, 50)), 1),
        "retrain_500_ms_p95": round(float(np.percentile(fit_ms, 95)), 1),
        "retrain_500_no_crowd_model_ms_p50": round(float(np.percentile(counts_ms, 50)), 1),
        "retrain_500_no_crowd_model_ms_p95": round(float(np.percentile(counts_ms, 95)), 1),
        "crowd_model_fit_s": round(float(t_crowd[0]), 2),
        "tfidf_lr_fit_500_ms_p50": round(float(np.percentile(lr_ms, 50)), 1),
        "tfidf_lr_fit_500_ms_p95": round(float(np.percentile(lr_ms, 95)), 1),
        "model_bytes_mean": round(float(np.mean(fit_bytes))),
        "model_bytes_max": int(np.max(fit_bytes)),
        "model_memory_while_scoring_bytes": feature_space.DIM * 4,
    }
    print(f"Reuters-21578, {len(items)} stories; {USERS} users x {RATINGS} ratings; one core\n")
    print(f"{'':38}{'ours':>14}{'TF-IDF + LR':>14}{'ratio':>8}")
    rows = [("features, stories/s", figures["featurize_stories_per_s"], figures["tfidf_vectorize_stories_per_s"]),
            ("prepare a batch, stories/s", figures["prepare_stories_per_s"], None),
            ("scoring, pairs/s (predict, batch)", figures["pairs_per_s_predict"], figures["pairs_per_s_tfidf_lr_predict_proba"]),
            ("scoring, pairs/s (predict, no batch)", figures["pairs_per_s_predict_unprepared"], None),
            ("scoring, pairs/s (score, no reasons)", figures["pairs_per_s_score_no_reasons"], None),
            ("scoring, pairs/s (score + reasons)", figures["pairs_per_s_score_with_reasons"], None),
            ("retrain at 500 ratings, ms p50", figures["retrain_500_ms_p50"], figures["tfidf_lr_fit_500_ms_p50"]),
            ("retrain at 500 ratings, ms p95", figures["retrain_500_ms_p95"], figures["tfidf_lr_fit_500_ms_p95"]),
            ("  same without the crowd model, ms p50", figures["retrain_500_no_crowd_model_ms_p50"], None),
            ("  same without the crowd model, ms p95", figures["retrain_500_no_crowd_model_ms_p95"], None)]
    for name, ours, theirs in rows:
        ratio = f"{ours / theirs:.2f}" if theirs else ""
        shown = f"{theirs:,}" if theirs is not None else ""
        print(f"{name:38}{ours:>14,}{shown:>14}{ratio:>8}")
    print(f"{'stored model, bytes mean / max':38}{figures['model_bytes_mean']:>14,}  / {figures['model_bytes_max']:,}")
    print(f"{'weights in memory while scoring':38}{figures['model_memory_while_scoring_bytes']:>14,}")
    print(f"{'crowd model fit (once per snapshot), s':38}{figures['crowd_model_fit_s']:>14,}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
