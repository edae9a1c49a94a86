"""Recommender quality on simulated readers of the Reuters-21578 newswire, across simulation settings.

    python benchmarks/recommender_quality.py [--dataset DIR] [--quick] [--settings NAME,...] [--seeds N,...]
        [--readers N] [--evaluate N] [--jobs N] [--json PATH] [--population FIELD=VALUE ...]

For each setting of the simulation (SETTINGS: the default population; less and more taste shared by all
readers, narrow and broad readers, text-driven and desk-driven taste, each alone or mixed; and HELD_OUT, a
second reader family never tuned on, recommender_clusters.py) and each seed, READERS simulated
readers vote (the community); for the first EVALUATE of them and each k in KS: retrain on exactly their
first k ratings, rank the next 50 stories of their stream, and score the ranking against the ratings
they would give (mean per-reader ROC-AUC). Seeds are split into tuning seeds (what changes were judged
on) and check seeds (never looked at while changing the model); both are printed.

Two protocols, each with every method given the same information:

- "time-honest": every reader rates a story when it is published, so when a reader's next stories are
  ranked the crowd holds only the ratings of stories published before the first of them, by other
  readers (the reader's own earlier ratings are taken out, as the glue does). The ranked stories are
  new, so nobody has rated them yet. The crowd model (recommender/crowd.py) is refitted nightly: a
  ranking uses the one fitted on the votes on stories published before the day of its first story.
- "live": the ranked stories carry the votes cast before the reader reaches them. Readers vote when a
  story is published and the reader reaches the ranked stories after that, so those are all the other
  readers' votes on them (as the reader's live crowd rescoring gives them,
  recommender.CommunityPrior.with_story_votes); the crowd model and the per-feature counts stay
  time-honest.

Baselines, per user, scikit-learn logistic regression (C = 1) on the same k ratings and the same crowd:
"tfidf_lr" on the story's TF-IDF (corpus-wide IDF) plus the crowd's two columns our model gets (what
other readers think of this story, and of what it is about, by the same crowd model); "tfidf_meta_lr"
adds the story's desk (feed), its tags and "from a subscribed desk". "ceiling" ranks by the reader's
noiseless hidden taste. "closed" is the share of the gap from the best baseline to the ceiling that
ours closes: (ours - best) / (ceiling - best).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.preprocessing import MultiLabelBinarizer

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import recommender  # noqa: E402
import recommender_reuters  # noqa: E402
from recommender.crowd import CrowdModel  # noqa: E402
from recommender_protocol import HORIZON, mean_ci, ranked_window  # noqa: E402
import recommender_clusters  # noqa: E402
from recommender_clusters import ClusterPopulation  # noqa: E402
from recommender_simulation import Population, community_votes, simulate  # noqa: E402

KS = (5, 20, 100)
PROTOCOLS = ("time-honest", "live")
BASELINES = ("tfidf_lr", "tfidf_meta_lr")
METHODS = BASELINES + ("ours", "ceiling")
# Population overrides per setting (fields of recommender_simulation.Population). Each moves what the model
# leans on: the crowd (taste shared by all readers), how many desks a reader's stream mixes, and whether taste
# lives in what a story is about (tags, names in the text) or in which desk it is from. The two mixed
# settings put each end of every axis in one population (RUN_BY_DEFAULT, about 12 minutes on two busy cores);
# the one-axis ones run with --settings (all nine on both seeds: about 35 minutes there).
SETTINGS = {
    "default": (),
    "private-narrow-text": ("shared_taste=0.2", "desks=1,1", "desk_affinity=0.15", "strength=1.2,3.0"),
    "shared-broad-desk": ("shared_taste=1.0", "desks=6,9", "desk_affinity=1.5", "strength=0.3,1.0"),
    "less-shared": ("shared_taste=0.2",),
    "more-shared": ("shared_taste=1.0",),
    "narrow": ("desks=1,1",),
    "broad": ("desks=6,9",),
    "text-driven": ("desk_affinity=0.15", "strength=1.2,3.0"),
    "desk-driven": ("desk_affinity=1.5", "strength=0.3,1.0"),
}
# A second, held-out taste model family (recommender_clusters.py: taste in words, held by groups of readers,
# contrarians, coin-flip ratings and readers who rate mostly what appeals): no model setting was chosen on it,
# so none of its seeds is a tuning seed. Overrides of recommender_clusters.ClusterPopulation.
HELD_OUT = {
    "word-clusters": (),
}
FAMILIES = {**{s: Population for s in SETTINGS}, **{s: ClusterPopulation for s in HELD_OUT}}
RUN_BY_DEFAULT = ("default", "private-narrow-text", "shared-broad-desk")
TUNING_SEEDS = (1,)
CHECK_SEEDS = (2,)
REPO = Path(__file__).resolve().parents[1]


def default_dataset() -> Path:
    shared = Path(os.environ.get("SHARED_DIR", REPO / ".." / "shared"))
    return shared / "datasets" / "reuters21578"


@dataclass(frozen=True)
class Corpus:
    """What the baselines see of each story: TF-IDF of title and text, and one-hot desk and tags."""

    tfidf: sparse.csr_matrix
    meta: sparse.csr_matrix

    @classmethod
    def of(cls, items) -> "Corpus":
        texts = [f"{item.title}\n{item.body}" for item in items]
        tfidf = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2).fit_transform(texts)
        labels = [(f"desk:{item.desk}",) + tuple(f"tag:{t}" for t in item.tags) for item in items]
        meta = MultiLabelBinarizer(sparse_output=True).fit_transform(labels)
        return cls(tfidf.tocsr(), sparse.csr_matrix(meta, dtype=np.float64))


class Evaluation:
    def __init__(self, items, features, readers, corpus: Corpus | None = None, evaluate: int | None = None):
        self.items, self.features, self.readers = items, features, readers
        self.evaluated = readers[:evaluate]
        self.good, self.bad = community_votes(readers, len(items))
        self.dates = np.array([item.date for item in items], dtype="datetime64[s]")
        self.desks = np.array([item.desk for item in items], dtype=object)
        self.corpus = corpus or Corpus.of(items)
        self.auc = {p: {m: {k: [] for k in KS} for m in METHODS} for p in PROTOCOLS}
        self.snapshot = (None, None)  # (cut, CrowdModel) of the latest nightly refit

    def rank(self, reader, k, rated, window):
        """{protocol: {method: scores of the window's stories}}."""
        community = self.community_before(reader.stream[window[0]])
        crowd = community.with_crowd_model(self.crowd_model_before(reader.stream[window[0]]))
        train = [(self.features[reader.stream[o]], bool(reader.labels[o])) for o in rated]
        others = crowd.excluding(train)  # what the glue passes for a user who has rated
        priors = {"time-honest": others, "live": self.live(others, reader, window)}
        candidates = [self.features[p] for p in reader.stream[window]]
        model = recommender.fit(train, subscribed_feeds=reader.desks, community=crowd)
        baselines = self._baselines(reader, rated, window, others, priors)
        return {protocol: {**baselines[protocol], "ours": model.predict(candidates, community=prior),
                           "ceiling": reader.truth[window]}
                for protocol, prior in priors.items()}

    def _baselines(self, reader, rated, window, others, priors):
        """Per-user logistic regressions given the same ratings and crowd as ours, per protocol."""
        train_rows, test_rows = reader.stream[rated], reader.stream[window]
        y = reader.labels[rated]
        train = self._inputs(reader, train_rows, others)
        scores = {protocol: {} for protocol in PROTOCOLS}
        for protocol, prior in priors.items():
            test = self._inputs(reader, test_rows, prior)
            for name in BASELINES:
                if y.all() or not y.any():  # one class: nothing to learn but the crowd's view
                    scores[protocol][name] = test[name][:, -2:].sum(axis=1).A.ravel()
                    continue
                clf = LogisticRegression(C=1.0, solver="liblinear").fit(train[name], y)
                scores[protocol][name] = clf.decision_function(test[name])
        return scores

    def _inputs(self, reader, rows, prior):
        crowd = sparse.csr_matrix(recommender.prepare([self.features[r] for r in rows], prior).crowd)
        subscribed = sparse.csr_matrix(np.isin(self.desks[rows], reader.desks).astype(float)[:, None])
        return {"tfidf_lr": sparse.hstack([self.corpus.tfidf[rows], crowd], format="csr"),
                "tfidf_meta_lr": sparse.hstack([self.corpus.tfidf[rows], self.corpus.meta[rows], subscribed, crowd],
                                               format="csr")}

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

    def run(self):
        # in time order, so that one crowd model is alive at a time and each refit starts from the last
        tasks = []
        for reader in self.evaluated:
            for k in KS:
                if (chosen := ranked_window(reader, k)) is not None:
                    tasks.append((self.night_before(reader.stream[chosen[1][0]]), reader.id, k, chosen))
        readers = {reader.id: reader for reader in self.evaluated}
        for _, reader_id, k, (rated, window) in sorted(tasks, key=lambda task: task[:3]):
            labels = readers[reader_id].labels[window]
            for protocol, scores in self.rank(readers[reader_id], k, rated, window).items():
                for method, s in scores.items():
                    self.auc[protocol][method][k].append(roc_auc_score(labels, s))
        return self


def summary(values):
    figure = mean_ci(values)
    if figure is None:
        return {"mean": None, "ci95": None, "n": 0}
    mean, ci, n = figure
    return {"mean": round(mean, 4), "ci95": round(ci, 4), "n": n}


def closed(figures) -> float | None:
    """Share of the gap from the best baseline to the ceiling that ours closes."""
    if not figures["ours"]["n"]:
        return None
    best = max(figures[m]["mean"] for m in BASELINES)
    return (figures["ours"]["mean"] - best) / (figures["ceiling"]["mean"] - best)


def table(result) -> str:
    lines = [f"{'protocol':<12} {'k':>3} {'readers':>7} " + " ".join(f"{m:>15}" for m in METHODS)
             + f" {'ours - best':>11} {'closed':>6}"]
    for protocol in PROTOCOLS:
        for k in KS:
            figures = {m: result["roc_auc"][protocol][m][str(k)] for m in METHODS}
            if not figures["ours"]["n"]:
                continue
            best = max(figures[m]["mean"] for m in BASELINES)
            cells = " ".join(f"{figures[m]['mean']:.3f} ± {figures[m]['ci95']:.3f}".rjust(15) for m in METHODS)
            lines.append(f"{protocol:<12} {k:>3} {figures['ours']['n']:>7} {cells} "
                         f"{figures['ours']['mean'] - best:>+11.3f} {closed(figures):>6.0%}")
    return "\n".join(lines)


def summary_table(results) -> str:
    """ours - best baseline (share of the gap to the ceiling closed), per setting, protocol, k and seed half."""
    halves = (("tuning", TUNING_SEEDS), ("check", CHECK_SEEDS))
    head = f"{'setting':<12} {'protocol':<12}" + "".join(
        f" {f'{half} k={k}':>17}" for half, _ in halves for k in KS)
    lines = [head]
    for setting in dict.fromkeys(r["setting"] for r in results):
        for protocol in PROTOCOLS:
            cells = []
            for _, seeds in halves:
                for k in KS:
                    runs = [r for r in results if r["setting"] == setting and r["seed"] in seeds]
                    figures = [{m: r["roc_auc"][protocol][m][str(k)] for m in METHODS} for r in runs]
                    figures = [f for f in figures if f["ours"]["n"]]
                    if not figures:
                        cells.append("-".rjust(17))
                        continue
                    diff = np.mean([f["ours"]["mean"] - max(f[m]["mean"] for m in BASELINES) for f in figures])
                    share = np.mean([closed(f) for f in figures])
                    cells.append(f"{diff:+.3f} ({share:4.0%})".rjust(17))
            lines.append(f"{setting:<12} {protocol:<12} " + " ".join(cells))
    return "\n".join(lines)


def population_from(overrides: list[str], family=Population):
    """The family's population (Population or ClusterPopulation) with FIELD=VALUE overrides; a range is
    given as LOW,HIGH."""
    changes = {}
    for override in overrides:
        name, _, value = override.partition("=")
        if name not in family.__dataclass_fields__:
            raise SystemExit(f"unknown {family.__name__} field {name!r}; known: {', '.join(family.__dataclass_fields__)}")
        kind = type(getattr(family(), name))
        parts = [float(v) for v in value.split(",")]
        if kind is tuple:
            element = type(getattr(family(), name)[0])
            changes[name] = tuple(element(v) for v in parts)
        else:
            changes[name] = kind(parts[0])
    return family(**changes)


_SHARED: dict = {}  # the corpus, set once before the runs (forked workers inherit it)


def run_one(setting: str, seed: int, readers: int, evaluate: int, extra: tuple[str, ...] = ()) -> dict:
    items, concepts, features, corpus = (_SHARED[n] for n in ("items", "concepts", "features", "corpus"))
    started = time.perf_counter()
    overrides = {**SETTINGS, **HELD_OUT}[setting] + tuple(extra)
    population = population_from(list(overrides), FAMILIES[setting])
    if setting in HELD_OUT:
        simulated = recommender_clusters.simulate(items, readers, seed, population)
    else:
        simulated = simulate(items, concepts, readers, seed, population)
    evaluation = Evaluation(items, features, simulated, corpus, evaluate).run()
    return {"setting": setting, "overrides": overrides, "seed": seed, "readers": readers,
            "evaluated": len(evaluation.evaluated), "seconds": round(time.perf_counter() - started),
            "roc_auc": {p: {m: {str(k): summary(evaluation.auc[p][m][k]) for k in KS} for m in METHODS}
                        for p in PROTOCOLS}}


def load_corpus(dataset: Path):
    items = recommender_reuters.load(dataset)
    _SHARED.update(
        items=items,
        concepts=[item.topics + item.places + entities
                  for item, entities in zip(items, recommender_reuters.named_entities(items))],
        features=[recommender.featurize(recommender_reuters.as_story(i, item)) for i, item in enumerate(items)],
        corpus=Corpus.of(items))
    return items


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=default_dataset())
    parser.add_argument("--json", type=Path)
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: tuning seed only, 120 readers voting, 12 evaluated (minutes, wide intervals)")
    parser.add_argument("--settings", default=",".join(RUN_BY_DEFAULT),
                        help=f"comma-separated, of {', '.join(FAMILIES)} (default: {', '.join(RUN_BY_DEFAULT)}; "
                             f"{', '.join(HELD_OUT)}: the held-out family)")
    parser.add_argument("--seeds", help="comma-separated (default: tuning seeds, then check seeds)")
    parser.add_argument("--readers", type=int, default=240, help="simulated readers voting")
    parser.add_argument("--evaluate", type=int, default=80, help="of them, how many are ranked for")
    parser.add_argument("--jobs", type=int, default=1, help="runs side by side (the machine's cores are shared)")
    parser.add_argument("--population", action="append", default=[], metavar="FIELD=VALUE",
                        help="override a simulated-reader range in every setting, e.g. noise=0.5,1.5 "
                             "(fields of recommender_simulation.Population, or of "
                             "recommender_clusters.ClusterPopulation for the held-out family)")
    args = parser.parse_args(argv)
    settings = args.settings.split(",")
    if unknown := [s for s in settings if s not in FAMILIES]:
        raise SystemExit(f"unknown setting(s) {unknown}; known: {', '.join(FAMILIES)}")
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else list(TUNING_SEEDS + CHECK_SEEDS)
    readers, evaluate = args.readers, args.evaluate
    if args.quick:
        seeds, readers, evaluate = seeds[:1], 120, 12
    for family in {FAMILIES[s] for s in settings}:
        population_from(args.population, family)  # a typo stops here, not in a worker
    started = time.perf_counter()
    items = load_corpus(args.dataset)
    runs = [(setting, seed, readers, evaluate, tuple(args.population)) for seed in seeds for setting in settings]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(run_one, *zip(*runs)))
    print(f"Reuters-21578: {len(items)} stories; {readers} simulated readers vote, the first {evaluate} are "
          f"ranked for; the next {HORIZON} stories after k ratings; mean per-reader ROC-AUC ± 95% interval; "
          f"tuning seeds {', '.join(map(str, TUNING_SEEDS))}, check seeds {', '.join(map(str, CHECK_SEEDS))}\n")
    for result in results:
        half = ("held-out family" if result["setting"] in HELD_OUT else "tuning" if result["seed"] in TUNING_SEEDS
                else "check" if result["seed"] in CHECK_SEEDS else "other")
        print(f"{result['setting']} ({' '.join(result['overrides']) or 'as drawn by default'}), "
              f"seed {result['seed']} ({half}), {result['seconds']} s")
        print(table(result) + "\n")
    print("ours - best baseline (share of the gap to the ceiling closed), mean over a half's seeds")
    print(summary_table(results))
    print(f"\n({time.perf_counter() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps({"horizon": HORIZON, "stories": len(items), "runs": results}, indent=1))


if __name__ == "__main__":
    main()
