"""The fit's solver: it reaches the optimum, and its shortcuts (merged columns, warm start) do not move it."""
import numpy as np
from scipy import sparse

from recommender import logistic, training


def problem(seed=0, n=60, m=400):
    rng = np.random.default_rng(seed)
    X = sparse.random(n, m, density=0.03, random_state=rng, format="csr", dtype=np.float32)
    extra = rng.normal(size=(n, 4))
    y = (rng.random(n) < 0.4).astype(float)
    return X, extra, y


def objective_gradient(X, y, penalty, prior, b_prior, b_penalty, w, b):
    """Written out independently of logistic.py."""
    p = 1 / (1 + np.exp(-(X @ w + b)))
    return np.r_[X.T @ (p - y) + penalty * (w - prior), (p - y).sum() + b_penalty * (b - b_prior)]


def test_the_solution_has_a_zero_gradient_and_the_priors_pull():
    X, extra, y = problem()
    design = sparse.hstack([X, sparse.csr_matrix(extra)], format="csr")
    penalty = np.r_[np.ones(X.shape[1]), 3.0, 3.0, 3.0, 3.0]
    prior = np.r_[np.zeros(X.shape[1]), 0.7, 0.7, 0.0, 1.0]
    w, b = logistic.fit(design, y, penalty, prior, -0.4, 0.1)
    assert np.linalg.norm(objective_gradient(design, y, penalty, prior, -0.4, 0.1, w, b)) < 1e-4
    assert np.abs(w[:X.shape[1]]).max() > 0.01  # the data did move the weights off the prior


def test_merging_columns_of_one_story_gives_the_same_weights():
    X, extra, y = problem(1)
    used = np.bincount(X.indices, minlength=X.shape[1])
    assert (used == 1).sum() > 50 and (used > 1).sum() > 20  # both kinds of column are present
    w, e, b = training._solve(X, extra, y, -0.4)
    design = sparse.hstack([X, sparse.csr_matrix(extra)], format="csr")
    full, full_b = logistic.fit(design, y, np.r_[np.full(X.shape[1], training.FEATURE_PENALTY), training.EXTRA_PENALTY],
                                np.r_[np.zeros(X.shape[1]), training.EXTRA_PRIOR], -0.4, training.INTERCEPT_PENALTY)
    assert np.allclose(w, full[:X.shape[1]], atol=1e-5)
    assert np.allclose(e, full[X.shape[1]:], atol=1e-5) and abs(b - full_b) < 1e-5


def test_a_warm_start_from_more_rows_reaches_the_same_optimum():
    X, extra, y = problem(2)
    fitted = training._solve(X, extra, y, -0.4)
    rows = np.arange(len(y)) % 5 != 0
    cold = training._solve(X[rows], extra[rows], y[rows], -0.4)
    warm = training._solve(X[rows], extra[rows], y[rows], -0.4, fitted)
    assert not np.allclose(cold[0], fitted[0], atol=1e-3)  # the start was not already the answer
    for a, b in zip(cold, warm):
        assert np.allclose(a, b, atol=1e-5)



def test_new_stories_get_their_own_subject_weight_and_stories_with_votes_score_as_before():
    X, extra, y = problem(3)
    extra[:, training.VOTED] = 0
    new = extra.copy()
    new[:, 0] = 0  # as before any votes: no crowd_story
    weight = np.where(np.arange(len(y)) % 7 == 0, 0.2, 1.0)
    fitted = training._solve(X, extra, y, -0.4, weight=weight)
    w, e, b = fitted
    split = training._new_story_topic(X, new, y, weight, fitted)
    assert split[training.TOPIC] + split[training.VOTED] == e[training.TOPIC]  # with votes: as fitted
    assert np.allclose(np.delete(split, [training.TOPIC, training.VOTED]), np.delete(e, [training.TOPIC, training.VOTED]))
    # without votes: the optimum of the rated stories' likelihood as new stories, under crowd_topic's prior
    beta = split[training.TOPIC]
    z = X @ w + new @ np.r_[e[0], beta, 0.0, e[3]] + b
    p = 1 / (1 + np.exp(-z))
    grad = np.dot(weight * (p - y), new[:, training.TOPIC]) + training.EXTRA_PENALTY[training.TOPIC] * (
        beta - training.EXTRA_PRIOR[training.TOPIC])
    assert abs(grad) < 1e-6 and abs(beta - e[training.TOPIC]) > 1e-3
