"""L2-regularised logistic regression with a prior mean per weight and a fixed offset per example.

scikit-learn's LogisticRegression has neither a per-example offset nor a non-zero prior mean, which
is how community and feed priors enter the user's model (the user's ratings then move weights away
from the prior only as far as the evidence pushes them).
"""
from __future__ import annotations

import numpy as np
from scipy import optimize, sparse
from scipy.special import expit, log_expit
from threadpoolctl import ThreadpoolController

# These problems are tiny: multi-threaded BLAS inside L-BFGS only adds hand-off cost (several times
# slower on a busy machine), and a server runs many fits side by side anyway.
_THREADS = ThreadpoolController()


def fit(X: sparse.csr_matrix, y: np.ndarray, offset: np.ndarray, penalty: np.ndarray,
        prior_mean: np.ndarray, intercept_prior: float, intercept_penalty: float,
        warm: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Minimise sum(logloss) + ½·Σ penalty·(w − prior_mean)² + ½·intercept_penalty·(b − intercept_prior)².

    Returns (weights, intercept).
    """
    n, m = X.shape
    y = y.astype(np.float64)
    XT = X.T.tocsr()

    def objective(theta):
        w, b = theta[:m], theta[m]
        z = X @ w + b + offset
        # log(1+e^z) - y z, written with log_expit for stability at large |z|
        loss = -np.sum(log_expit(z) * y + log_expit(-z) * (1 - y))
        dw = w - prior_mean
        db = b - intercept_prior
        loss += 0.5 * np.dot(penalty * dw, dw) + 0.5 * intercept_penalty * db * db
        r = expit(z) - y
        grad = np.empty(m + 1)
        grad[:m] = XT @ r + penalty * dw
        grad[m] = r.sum() + intercept_penalty * db
        return loss, grad

    start = np.concatenate([prior_mean, [intercept_prior]]) if warm is None else warm
    with _THREADS.limit(limits=1):
        result = optimize.minimize(objective, start, jac=True, method="L-BFGS-B",
                                   options={"maxiter": 200, "gtol": 1e-4})
    return result.x[:m], float(result.x[m])
