"""L2-regularised logistic regression with a prior mean per weight.

scikit-learn's LogisticRegression has no non-zero prior mean, which is how community and feed
priors enter the user's model (the user's ratings then move weights away from the prior only as
far as the evidence pushes them). Solved by line-search Newton-CG (truncated Newton): a few Newton
steps, each solved by conjugate gradients on sparse Hessian-vector products. Written out here
rather than through scipy.optimize, whose per-call bookkeeping cost more than the sparse products.
"""
from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.special import expit, log_expit
from threadpoolctl import ThreadpoolController

# These problems are tiny: multi-threaded BLAS only adds hand-off cost (several times slower on a
# busy machine), and a server runs many fits side by side anyway.
_THREADS = ThreadpoolController()
GTOL = 1e-4  # stop when the gradient's Euclidean norm is below this
MAX_NEWTON = 100
MAX_CG = 200
FORCING = 0.1  # CG tolerance relative to the gradient: fewest products overall on 500-rating fits


class _Problem:
    def __init__(self, X, y, penalty, prior_mean, intercept_prior, intercept_penalty, sample_weight=None):
        self.X, self.XT = X, X.T.tocsr()
        self.y = y.astype(np.float64)
        self.s = np.ones(len(self.y)) if sample_weight is None else np.asarray(sample_weight, np.float64)
        self.penalty = np.append(penalty, intercept_penalty)
        self.prior = np.append(prior_mean, intercept_prior)
        self.squares = None  # X.T squared, for the Jacobi preconditioner (see _newton_step)

    def logits(self, theta):
        return self.X @ theta[:-1] + theta[-1]

    def loss(self, theta, z):
        d = theta - self.prior
        # log(1+e^z) - y z, written with log_expit for stability at large |z|
        return (-np.dot(log_expit(z), self.s * self.y) - np.dot(log_expit(-z), self.s * (1 - self.y))
                + 0.5 * np.dot(self.penalty * d, d))

    def curvature(self, p):
        return self.s * p * (1 - p)

    def gradient(self, theta, p):
        r = self.s * (p - self.y)
        grad = self.penalty * (theta - self.prior)
        grad[:-1] += self.XT @ r
        grad[-1] += r.sum()
        return grad

    def diagonal(self, curvature):
        if self.squares is None:
            self.squares = self.XT.power(2)
        return self.penalty + np.r_[self.squares @ curvature, curvature.sum()]

    def hessian_times(self, curvature, v):
        du = curvature * (self.X @ v[:-1] + v[-1])
        out = self.penalty * v
        out[:-1] += self.XT @ du
        out[-1] += du.sum()
        return out


def _newton_step(problem, curvature, grad, tolerance, precondition=False):
    """Conjugate gradients on H s = -grad, stopped once the residual is below ``tolerance``.

    ``precondition``: scale by H's diagonal (Jacobi). It paid only for taking a user's votes out of
    the crowd model (3.5-5.4 times fewer products, see crowd.py); fits needed more products with it
    (a user's: 40 % more; the crowd model's, rows weighted by vote counts: 4 times more).
    """
    scale = 1 / problem.diagonal(curvature) if precondition else None
    step = np.zeros_like(grad)
    residual = -grad
    direction = residual * scale if precondition else residual.copy()
    rz = np.dot(residual, direction)
    for _ in range(MAX_CG):
        if np.sqrt(np.dot(residual, residual) if precondition else rz) <= tolerance:
            break
        hd = problem.hessian_times(curvature, direction)
        alpha = rz / np.dot(direction, hd)  # H is positive definite: every penalty is > 0
        step += alpha * direction
        residual -= alpha * hd
        z = residual * scale if precondition else residual
        rz, rz_old = np.dot(residual, z), rz
        direction = z + (rz / rz_old) * direction
    return step


def fit(X: sparse.csr_matrix, y: np.ndarray, penalty: np.ndarray,
        prior_mean: np.ndarray, intercept_prior: float, intercept_penalty: float,
        start: tuple[np.ndarray, float] | None = None, sample_weight: np.ndarray | None = None,
        gtol: float = GTOL) -> tuple[np.ndarray, float]:
    """Minimise sum(sample_weight·logloss) + ½·Σ penalty·(w − prior_mean)² + ½·intercept_penalty·(b − intercept_prior)².

    Returns (weights, intercept). ``y`` may be a share in [0, 1] (e.g. the good share of a story's
    votes, with its vote count as ``sample_weight``). ``start``: (weights, intercept) near the
    optimum, e.g. a fit on most of the same rows; the optimum is the same, only fewer Newton steps
    are needed. ``gtol``: stop once the gradient's norm is below it.
    """
    problem = _Problem(X, y, penalty, prior_mean, intercept_prior, intercept_penalty, sample_weight)
    theta = problem.prior.copy() if start is None else np.append(*start)
    with _THREADS.limit(limits=1):
        z = problem.logits(theta)
        loss = problem.loss(theta, z)
        for _ in range(MAX_NEWTON):
            p = expit(z)
            grad = problem.gradient(theta, p)
            norm = np.linalg.norm(grad)
            if norm < gtol:
                break
            # inexact Newton: solve loosely far from the optimum, tightly near it (superlinear)
            step = _newton_step(problem, problem.curvature(p), grad, min(FORCING, np.sqrt(norm)) * norm)
            slope, size = np.dot(grad, step), 1.0
            while True:  # backtracking (Armijo); the full step nearly always passes
                candidate = theta + size * step
                z_new = problem.logits(candidate)
                loss_new = problem.loss(candidate, z_new)
                if loss_new <= loss + 1e-4 * size * slope or size < 1e-10:
                    break
                size *= 0.5
            theta, z, loss = candidate, z_new, loss_new
    return theta[:-1], float(theta[-1])


def newton_steps(X: sparse.csr_matrix, curvatures: list[np.ndarray], grads: list[np.ndarray], penalty: np.ndarray,
                 intercept_penalty: float, rtol: float = 1e-3) -> list[np.ndarray]:
    """H⁻¹·(−grad) for each (curvature, grad) pair, H the loss's Hessian (as in ``fit``, intercept
    last) where the rows' curvature (sample_weight·p·(1−p)) is ``curvature``: how far an optimum
    moves when ``grad`` is added to its gradient, e.g. when some votes are taken out of the data it
    was fitted on (their influence). Solved to ``rtol`` times grad's norm, Jacobi-preconditioned
    (see _newton_step)."""
    problem = _Problem(X, np.zeros(X.shape[0]), penalty, np.zeros(len(penalty)), 0.0, intercept_penalty)
    with _THREADS.limit(limits=1):
        return [_newton_step(problem, curvature, grad, rtol * np.linalg.norm(grad), precondition=True)
                for curvature, grad in zip(curvatures, grads)]
