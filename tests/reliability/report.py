"""Render the figures the reliability tests recorded as docs/reliability.md's table.

    python -m tests.reliability.report [--figures path.json] [--write docs/reliability.md] [--summary GROUP]

Without --write the table is printed. With it, the text between the two markers in the file is replaced,
so the prose around the table stays as written. --summary prints one group's tests as one table, a row each.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from . import figures

BEGIN, END = "<!-- figures:begin -->", "<!-- figures:end -->"
ORDER = ["ssrf", "rebinding", "limits", "xml_bombs", "broken_encoding", "xss", "fuzz_feeds", "fuzz_opml", "fuzz_api",
         "big_feeds", "worker_faults", "access", "csrf", "check_deploy", "rate_limit", "load"]


def table(data: dict) -> str:
    lines = []
    def place(key):
        group = key.split(":")[0]
        return (ORDER.index(group) if group in ORDER else len(ORDER), key)

    for key in sorted(data, key=place):
        entry = data[key]
        lines += [f"### {entry['title']}", "",
                  f"Target: {entry['target']}. Measured {entry['measured_at']} on {entry['database']}.", "",
                  "| Figure | Value |", "|---|---|"]
        lines += [f"| {name} | {_cell(value)} |" for name, value in entry["figures"].items()]
        lines.append("")
    return "\n".join(lines)


def summary(data: dict, group: str) -> str:
    """One row per test of the group (e.g. worker_faults), its figures as columns."""
    keys = [key for key in sorted(data, key=lambda k: data[k]["measured_at"]) if key.split(":")[0] == group]
    columns = list(dict.fromkeys(name for key in keys for name in data[key]["figures"]))
    lines = ["| Test | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for key in keys:
        figures = data[key]["figures"]
        lines.append(f"| {key.split(':', 1)[1].strip()} | "
                     + " | ".join(_cell(figures[name]) if name in figures else "" for name in columns) + " |")
    return "\n".join(lines)


def _cell(value) -> str:
    if value is None:
        return "not recovered"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return str(value).replace("|", "\\|")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--figures", type=Path, default=None, help="default: $RELIABILITY_FIGURES or $VAR_DIR/...")
    parser.add_argument("--write", type=Path, help="the Markdown file whose marked section is replaced")
    parser.add_argument("--summary", metavar="GROUP", help="print one group's tests as one table")
    args = parser.parse_args(argv)
    if args.summary:
        print(summary(figures.load(args.figures), args.summary))
        return
    rendered = table(figures.load(args.figures))
    if not args.write:
        print(rendered)
        return
    text = args.write.read_text()
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    args.write.write_text(text[:start] + "\n" + rendered + "\n" + text[end:])


if __name__ == "__main__":
    main()
