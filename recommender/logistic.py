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
    def __init__(self, X, y, penalty, prior_mean, intercept_prior, intercept_penalty):
        self.X, self.XT = X, X.T.tocsr()
        self.y = y.astype(np.float64)
        self.penalty = np.append(penalty, intercept_penalty)
        self.prior = np.append(prior_mean, intercept_prior)

    def logits(self, theta):
        return self.X @ theta[:-1] + theta[-1]

    def loss(self, theta, z):
        d = theta - self.prior
        # log(1+e^z) - y z, written with log_expit for stability at large |z|
        return -np.dot(log_expit(z), self.y) - np.dot(log_expit(-z), 1 - self.y) + 0.5 * np.dot(self.penalty * d, d)

    def gradient(self, theta, p):
        r = p - self.y
        grad = self.penalty * (theta - self.prior)
        grad[:-1] += self.XT @ r
        grad[-1] += r.sum()
        return grad

    def hessian_times(self, curvature, v):
        du = curvature * (self.X @ v[:-1] + v[-1])
        out = self.penalty * v
        out[:-1] += self.XT @ du
        out[-1] += du.sum()
        return out


def _newton_step(problem, curvature, grad, tolerance):
    """Conjugate gradients on H s = -grad, stopped once the residual is below ``tolerance``."""
    step = np.zeros_like(grad)
    residual = -grad
    direction = residual.copy()
    rr = np.dot(residual, residual)
    for _ in range(MAX_CG):
        if np.sqrt(rr) <= tolerance:
            break
        hd = problem.hessian_times(curvature, direction)
        alpha = rr / np.dot(direction, hd)  # H is positive definite: every penalty is > 0
        step += alpha * direction
        residual -= alpha * hd
        rr, rr_old = np.dot(residual, residual), rr
        direction = residual + (rr / rr_old) * direction
    return step


def fit(X: sparse.csr_matrix, y: np.ndarray, penalty: np.ndarray,
        prior_mean: np.ndarray, intercept_prior: float, intercept_penalty: float,
        start: tuple[np.ndarray, float] | None = None) -> tuple[np.ndarray, float]:
    """Minimise sum(logloss) + ½·Σ penalty·(w − prior_mean)² + ½·intercept_penalty·(b − intercept_prior)².

    Returns (weights, intercept). ``start``: (weights, intercept) near the optimum, e.g. a fit on
    most of the same rows; the optimum is the same, only fewer Newton steps are needed.
    """
    problem = _Problem(X, y, penalty, prior_mean, intercept_prior, intercept_penalty)
    theta = problem.prior.copy() if start is None else np.append(*start)
    with _THREADS.limit(limits=1):
        z = problem.logits(theta)
        loss = problem.loss(theta, z)
        for _ in range(MAX_NEWTON):
            p = expit(z)
            grad = problem.gradient(theta, p)
            norm = np.linalg.norm(grad)
            if norm < GTOL:
                break
            # inexact Newton: solve loosely far from the optimum, tightly near it (superlinear)
            step = _newton_step(problem, p * (1 - p), grad, min(FORCING, np.sqrt(norm)) * norm)
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
