"""L2-regularised logistic regression with a prior mean per weight.

scikit-learn's LogisticRegression has no non-zero prior mean, which is how community and feed
priors enter the user's model (the user's ratings then move weights away from the prior only as
far as the evidence pushes them). Solved by trust-region Newton-CG: a few
Newton steps made of sparse Hessian-vector products, cheaper here than L-BFGS's many iterations.
"""
from __future__ import annotations

import numpy as np
from scipy import optimize, sparse
from scipy.special import expit, log_expit
from threadpoolctl import ThreadpoolController

# These problems are tiny: multi-threaded BLAS only adds hand-off cost (several times slower on a
# busy machine), and a server runs many fits side by side anyway.
_THREADS = ThreadpoolController()


class _Problem:
    def __init__(self, X, y, penalty, prior_mean, intercept_prior, intercept_penalty):
        self.X, self.XT = X, X.T.tocsr()
        self.y = y.astype(np.float64)
        self.penalty = np.append(penalty, intercept_penalty)
        self.prior = np.append(prior_mean, intercept_prior)
        self._at, self._p = None, None

    def _probabilities(self, theta):
        if self._at is None or not np.array_equal(theta, self._at):
            self._at, self._p = theta.copy(), expit(self.X @ theta[:-1] + theta[-1])
        return self._p

    def loss_and_gradient(self, theta):
        z = self.X @ theta[:-1] + theta[-1]
        # log(1+e^z) - y z, written with log_expit for stability at large |z|
        loss = -np.sum(log_expit(z) * self.y + log_expit(-z) * (1 - self.y))
        self._at, self._p = theta.copy(), expit(z)
        d = theta - self.prior
        r = self._p - self.y
        grad = self.penalty * d
        grad[:-1] += self.XT @ r
        grad[-1] += r.sum()
        return loss + 0.5 * np.dot(self.penalty * d, d), grad

    def hessian_times(self, theta, v):
        p = self._probabilities(theta)
        du = p * (1 - p) * (self.X @ v[:-1] + v[-1])
        out = self.penalty * v
        out[:-1] += self.XT @ du
        out[-1] += du.sum()
        return out


def fit(X: sparse.csr_matrix, y: np.ndarray, penalty: np.ndarray,
        prior_mean: np.ndarray, intercept_prior: float, intercept_penalty: float) -> tuple[np.ndarray, float]:
    """Minimise sum(logloss) + ½·Σ penalty·(w − prior_mean)² + ½·intercept_penalty·(b − intercept_prior)².

    Returns (weights, intercept).
    """
    problem = _Problem(X, y, penalty, prior_mean, intercept_prior, intercept_penalty)
    with _THREADS.limit(limits=1):
        result = optimize.minimize(problem.loss_and_gradient, problem.prior, jac=True,
                                   hessp=problem.hessian_times, method="trust-ncg",
                                   options={"gtol": 1e-4, "maxiter": 100})
    return result.x[:-1], float(result.x[-1])
