"""The recommender installs on its own (recommender/pyproject.toml): it asks for the same versions the whole
reader does, and nothing of the web app."""
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def requirements(path: Path) -> dict[str, Requirement]:
    project = tomllib.loads(path.read_text())["project"]
    return {Requirement(line).name.lower(): Requirement(line) for line in project["dependencies"]}


def test_the_recommender_alone_needs_only_its_numeric_libraries_at_the_reader_s_versions():
    alone, whole = requirements(ROOT / "recommender" / "pyproject.toml"), requirements(ROOT / "pyproject.toml")
    assert set(alone) == {"numpy", "scipy", "scikit-learn", "threadpoolctl"}
    for name, requirement in alone.items():
        if name in whole:
            assert requirement.specifier == whole[name].specifier, name
