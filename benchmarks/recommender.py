"""Recommender quality on simulated readers of the Reuters-21578 newswire.

    python benchmarks/recommender.py --dataset ../shared/datasets/reuters21578 [--json PATH]
        [--seed N] [--readers N] [--plot PATH]

For each simulated reader and each k in 5, 10, 20, 50, 100: retrain on exactly their first k ratings,
rank the next 50 stories of their stream, and score the ranking against the ratings they would give
(ROC-AUC, precision@10). Baselines in the same run: newest first, popularity, per-user TF-IDF +
logistic regression; "ceiling" ranks by the reader's noiseless hidden taste.

Community votes are honest about time: every reader rates a story when it is published, so when a
reader's next stories are ranked the crowd holds only the ratings of stories published before the
first of them, by other readers (the reader's own earlier ratings are taken out, as the glue does).
The ranked stories themselves are new, so nobody has rated them yet. The crowd model (a fitted view
of what readers in general like, recommender/crowd.py) is refitted nightly: a ranking uses the one
fitted on the votes on stories published before the day of its first story.

A second protocol, "ours_live", is the same model with a live crowd: the ranked stories carry the votes
cast before the reader reaches them. Readers vote when a story is published, and the reader reaches the
ranked stories after that, so those are all the other readers' votes on them (as the reader's live
crowd rescoring gives them, recommender.CommunityPrior.with_story_votes); the crowd model and the
per-feature counts stay time-honest.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import recommender  # noqa: E402
import recommender_reuters  # noqa: E402
from recommender.crowd import CrowdModel  # noqa: E402
from recommender_protocol import HORIZON, KS, mean_ci, ranked_window  # noqa: E402
from recommender_simulation import Population, community_votes, simulate  # noqa: E402

METHODS = ("newest", "popularity", "tfidf_lr", "ours_no_community", "ours", "ours_live", "ceiling")
REPO = Path(__file__).resolve().parents[1]


def default_dataset() -> Path:
    shared = Path(os.environ.get("SHARED_DIR", REPO / ".." / "shared"))
    return shared / "datasets" / "reuters21578"


def precision_at(scores, labels, n=10):
    top = np.argsort(-scores, kind="stable")[:n]
    return float(labels[top].mean())


class Evaluation:
    def __init__(self, items, features, readers):
        self.items, self.features, self.readers = items, features, readers
        self.good, self.bad = community_votes(readers, len(items))
        self.dates = np.array([item.date for item in items], dtype="datetime64[s]")
        texts = [f"{item.title}\n{item.body}" for item in items]
        self.tfidf = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2).fit_transform(texts)
        self.auc = {m: {k: [] for k in KS} for m in METHODS}
        self.p10 = {m: {k: [] for k in KS} for m in METHODS}
        self.recall = {k: [] for k in KS}
        self.shown = {k: [] for k in KS}
        self.snapshot = (None, None)  # (cut, CrowdModel) of the latest nightly refit

    def rank(self, reader, k, rated, window):
        labels = reader.labels[window]
        community = self.community_before(reader.stream[window[0]])
        crowd = community.with_crowd_model(self.crowd_model_before(reader.stream[window[0]]))
        train = [(self.features[reader.stream[o]], bool(reader.labels[o])) for o in rated]
        others = community.excluding(train)  # what the glue passes for a user who has rated
        candidates = [self.features[p] for p in reader.stream[window]]
        y = reader.labels[rated]
        scores = {"newest": window.astype(float),
                  "popularity": recommender.prepare(candidates, others).crowd.sum(axis=1),
                  "tfidf_lr": self._tfidf_lr(reader.stream[rated], y, reader.stream[window]),
                  "ceiling": reader.truth[window]}
        plain = recommender.fit(train, subscribed_feeds=reader.desks)
        scores["ours_no_community"] = plain.predict(candidates)
        model = recommender.fit(train, subscribed_feeds=reader.desks, community=crowd)
        scored = model.score(candidates, community=crowd.excluding(train), explain_reasons=False)
        scores["ours"] = np.array([s.score for s in scored])
        scores["ours_live"] = model.predict(candidates, community=self.live(crowd.excluding(train), reader, window))
        recommended = np.array([s.recommended for s in scored])
        self.recall[k].append(float(recommended[labels].mean()))
        self.shown[k].append(float(recommended.mean()))
        return scores, labels

    def live(self, prior, reader, window):
        """The prior with the other readers' votes on the ranked stories (the reader's own taken out)."""
        own = dict(zip(reader.stream[reader.rated].tolist(), reader.labels[reader.rated].tolist()))
        return prior.with_story_votes(
            (self.features[p].story_id, self.good[p] - (own.get(p) is True), self.bad[p] - (own.get(p) is False))
            for p in reader.stream[window].tolist())

    def community_before(self, position):
        """All readers' votes on the stories published before the corpus story at ``position``."""
        cut = np.searchsorted(self.dates, self.dates[position], side="left")
        voted = np.flatnonzero(self.good[:cut] + self.bad[:cut])
        return recommender.CommunityPrior([(self.features[i], self.good[i], self.bad[i]) for i in voted])

    def night_before(self, position) -> int:
        """How many corpus stories were published before the day of the story at ``position``."""
        day = self.dates[position].astype("datetime64[D]").astype("datetime64[s]")
        return int(np.searchsorted(self.dates, day, side="left"))

    def crowd_model_before(self, position) -> CrowdModel:
        """The crowd model refitted on the night before the story at ``position`` was published,
        warm-started from the previous refit (rankings run in time order, see run)."""
        cut = self.night_before(position)
        if self.snapshot[0] != cut:
            model = CrowdModel.fit(self.features[:cut], self.good[:cut], self.bad[:cut], start=self.snapshot[1])
            self.snapshot = (cut, model)
        return self.snapshot[1]

    def _tfidf_lr(self, train_rows, y, test_rows):
        if y.all() or not y.any():
            return np.zeros(len(test_rows))
        clf = LogisticRegression(C=1.0, solver="liblinear").fit(self.tfidf[train_rows], y)
        return clf.decision_function(self.tfidf[test_rows])

    def run(self):
        # in time order, so that one crowd model is alive at a time and each refit starts from the last
        tasks = []
        for reader in self.readers:
            for k in KS:
                if (chosen := ranked_window(reader, k)) is not None:
                    tasks.append((self.night_before(reader.stream[chosen[1][0]]), reader.id, k, chosen))
        readers = {reader.id: reader for reader in self.readers}
        for _, reader_id, k, (rated, window) in sorted(tasks, key=lambda task: task[:3]):
            scores, labels = self.rank(readers[reader_id], k, rated, window)
            for method, s in scores.items():
                self.auc[method][k].append(roc_auc_score(labels, s))
                self.p10[method][k].append(precision_at(np.asarray(s, float), labels))
        return self


def table(title, figures):
    lines = [title, f"{'ratings':>7} {'readers':>7} " + " ".join(f"{m:>17}" for m in METHODS)]
    for k in KS:
        n = figures[METHODS[0]][k]["n"]
        cells = []
        for m in METHODS:
            f = figures[m][k]
            cells.append(f"{f['mean']:.3f} ± {f['ci95']:.3f}".rjust(17) if f["n"] else "-".rjust(17))
        lines.append(f"{k:>7} {n:>7} " + " ".join(cells))
    return "\n".join(lines)


def summary(values):
    figure = mean_ci(values)
    if figure is None:
        return {"mean": None, "ci95": None, "n": 0}
    mean, ci, n = figure
    return {"mean": round(mean, 4), "ci95": round(ci, 4), "n": n}


def plot(figures, path: Path, seed, n_readers):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8.5, 4.2))
    for m in METHODS:
        ks = [k for k in KS if figures[m][k]["n"]]
        means = [figures[m][k]["mean"] for k in ks]
        cis = [figures[m][k]["ci95"] for k in ks]
        style = "--" if m == "ceiling" else "-"
        ax.errorbar(ks, means, yerr=cis, label=m, linestyle=style, marker="o", capsize=3)
    ax.set_xscale("log")
    ax.set_xticks(KS, [str(k) for k in KS])
    ax.set_xlabel("ratings the model was trained on")
    ax.set_ylabel(f"mean per-reader ROC-AUC, next {HORIZON} stories")
    ax.set_title(f"Simulated Reuters-21578 readers (seed {seed}, {n_readers} readers)")
    ax.axhline(0.5, color="grey", linewidth=0.5)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def population_from(overrides: list[str]) -> Population:
    """Population with FIELD=VALUE overrides; a range is given as LOW,HIGH."""
    changes = {}
    for override in overrides:
        name, _, value = override.partition("=")
        if name not in Population.__dataclass_fields__:
            raise SystemExit(f"unknown population field {name!r}; known: {', '.join(Population.__dataclass_fields__)}")
        kind = type(getattr(Population(), name))
        parts = [float(v) for v in value.split(",")]
        if kind is tuple:
            element = type(getattr(Population(), name)[0])
            changes[name] = tuple(element(v) for v in parts)
        else:
            changes[name] = kind(parts[0])
    return Population(**changes)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=default_dataset())
    parser.add_argument("--json", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--readers", type=int, default=240)
    parser.add_argument("--population", action="append", default=[], metavar="FIELD=VALUE",
                        help="override a simulated-reader range, e.g. shared_taste=0.2 or noise=0.5,1.5 "
                             "(fields of recommender_simulation.Population)")
    parser.add_argument("--plot", default=str(REPO / "docs" / "recommender-learning-curve.png"),
                        help="learning-curve image path ('' to skip)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    items = recommender_reuters.load(args.dataset)
    concepts = [item.topics + item.places + entities
                for item, entities in zip(items, recommender_reuters.named_entities(items))]
    features = [recommender.featurize(recommender_reuters.as_story(i, item)) for i, item in enumerate(items)]
    population = population_from(args.population)
    readers = simulate(items, concepts, args.readers, args.seed, population)
    evaluation = Evaluation(items, features, readers).run()
    auc = {m: {k: summary(evaluation.auc[m][k]) for k in KS} for m in METHODS}
    p10 = {m: {k: summary(evaluation.p10[m][k]) for k in KS} for m in METHODS}
    recommended = {k: {"recall": summary(evaluation.recall[k]), "shown": summary(evaluation.shown[k])}
                   for k in KS}
    print(f"Reuters-21578: {len(items)} stories; {len(readers)} simulated readers, seed {args.seed}"
          f"{'; ' + ' '.join(args.population) if args.population else ''}; "
          f"ranking the next {HORIZON} stories after k ratings (mean ± 95% interval)\n")
    print(table("ROC-AUC", auc) + "\n")
    print(table("precision@10", p10) + "\n")
    print("ours, 'recommended' cut-off: share of good stories recommended (recall) / share of stories shown")
    for k in KS:
        r, s = recommended[k]["recall"], recommended[k]["shown"]
        if r["n"]:
            print(f"{k:>7} {r['mean']:.3f} ± {r['ci95']:.3f} / {s['mean']:.3f} ± {s['ci95']:.3f}")
    print(f"\n({time.perf_counter() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps({"seed": args.seed, "readers": len(readers), "horizon": HORIZON,
                                         "population": population.__dict__,
                                         "stories": len(items), "roc_auc": auc, "precision_at_10": p10,
                                         "recommended": recommended}, indent=1))
    if args.plot:  # str, not Path: Path("") would be "." and write a file named ".png"
        plot(auc, Path(args.plot), args.seed, len(readers))


if __name__ == "__main__":
    main()
