"""Evaluation of extractors on the shared datasets: the tuning/check split and the
snippet protocol. Nothing in ``extraction.extract``'s import path imports this package."""
