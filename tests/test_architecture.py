"""The import graph of reader/, extraction/ and recommender/, read from the source with ast: no import loops, the
two libraries free of Django and the app, reader's rooms importing only downward (web -> ingestion -> ranking), and
extraction's product path (extract(), the methods) never loading its evaluation and training.

Imports inside functions count too: a lazy import is still an edge a loop can run through.
"""
from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("reader", "extraction", "recommender")
# Only the Celery wiring runs tasks by importing them: the management commands (entry points, some run a task's
# body in the foreground) and the system check that reads fetch_feed's time limit. Everything else sends by name
# through reader.queue.
MAY_IMPORT_TASKS = ("reader.management", "reader.checks", "reader.celery", "reader.tasks")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path) -> set[str]:
    """Every dotted name an import in the file may load: `from a import b` gives both a and a.b."""
    name = module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def graph() -> dict[str, set[str]]:
    """Module -> the modules of these packages it imports (every name, so django and others are kept too)."""
    files = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts]
    return {module_name(p): imported_names(p) for p in files}


def internal(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """Only the modules of these packages. A module's own packages are left out: they are always loaded before it
    (`from . import x` in a package's module loads x, not the package again)."""
    return {module: {n for n in names if n in edges and not (module + ".").startswith(n + ".")}
            for module, names in edges.items()}


def imports_from(edges: dict[str, set[str]], importers: str, imported: tuple[str, ...]) -> list[str]:
    return sorted(f"{module} imports {name}" for module, names in edges.items()
                  if module == importers or module.startswith(importers + ".")
                  for name in names if name.split(".")[0] in imported or name.startswith(imported))


def test_the_graph_sees_the_imports_it_is_meant_to_check():
    edges = internal(graph())
    assert "reader.ingestion.subscribe" in edges["reader.web.views"]  # `from ..ingestion import subscribe as ...`
    assert "reader.ingestion.jsonfeed" in edges["reader.ingestion.parsing"]  # `from . import charsets, jsonfeed`
    assert "reader.web.reading" in edges["reader.web.context_processors"]  # a lazy import inside a function
    assert "reader.queue" in edges["reader.ranking.scores"]


def test_a_loop_would_be_found():
    loop = {"a": {"b"}, "b": {"c"}, "c": {"a"}}
    try:
        tuple(TopologicalSorter(loop).static_order())
    except CycleError as error:
        assert set(error.args[1]) == {"a", "b", "c"}
    else:
        raise AssertionError("the loop a -> b -> c -> a was not found")


def test_there_are_no_import_loops():
    edges = internal(graph())
    try:
        tuple(TopologicalSorter(edges).static_order())
    except CycleError as error:
        raise AssertionError(f"import loop: {' -> '.join(error.args[1])}") from None


def test_the_libraries_import_nothing_from_django_or_the_app():
    edges = graph()
    assert imports_from(edges, "extraction", ("django", "reader", "recommender")) == []
    assert imports_from(edges, "recommender", ("django", "reader")) == []


def reached_from(edges: dict[str, set[str]], starts: set[str]) -> set[str]:
    """Every module the starts load, directly or through others."""
    seen, todo = set(), list(starts)
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(edges.get(module, ()))
    return seen


def test_extract_never_loads_the_evaluation():
    """The shipped path (the package, its command, every method the registry names) stays clear of the lab:
    datasets, scoring, competitors and training live in extraction.evaluation and nothing there is loaded."""
    from extraction.methods import METHODS

    edges = internal(graph())
    methods = {target.partition(":")[0] for target in METHODS.values()}
    reached = reached_from(edges, {"extraction", "extraction.__main__", *methods})
    assert {"extraction.pipeline", "extraction.methods.clump", "extraction.blocks"} <= reached  # the walk works
    assert sorted(m for m in reached if m.startswith("extraction.evaluation")) == []


def test_only_the_evaluation_imports_the_evaluation():
    edges = graph()
    importers = {module for module, names in edges.items() if not module.startswith("extraction.evaluation")
                 and any(n.startswith("extraction.evaluation") for n in names)}
    assert importers == set()
    assert imports_from(edges, "extraction.methods", ("extraction.evaluation",)) == []


def test_reader_rooms_import_only_downward():
    edges = graph()
    assert imports_from(edges, "reader.ingestion", ("reader.web",)) == []
    assert imports_from(edges, "reader.ranking", ("reader.web", "reader.ingestion")) == []
    assert imports_from(edges, "reader.demo", ("reader.web", "reader.ingestion", "reader.ranking")) == []


def test_only_the_celery_wiring_imports_the_tasks():
    edges = graph()
    importers = {module for module, names in edges.items() if any(n == "reader.tasks" or n.startswith("reader.tasks.")
                                                                   for n in names)}
    assert {m for m in importers if not m.startswith(MAY_IMPORT_TASKS)} == set()
