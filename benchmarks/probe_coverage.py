"""Which test covers each finding of a probe report: for every FAIL or CONCERN row of the report's
case table, its id, verdict and case, and the tests (file::function) whose code, docstring,
decorators or comments just above name that id. Prints a Markdown table.

    python benchmarks/probe_coverage.py ../shared/reports/probe-edcb066.md
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
FINDING_ID = re.compile(r"\b([A-Z][0-9]+[a-z]?(?:\.[0-9]+)?)\b")


def tests_naming_ids() -> dict[str, set[str]]:
    """id → the tests that name it."""
    found: dict[str, set[str]] = {}
    for path in sorted(TESTS.glob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test")):
                continue
            first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
            while first > 0 and lines[first - 1].lstrip().startswith("#"):
                first -= 1
            for finding in set(FINDING_ID.findall("\n".join(lines[first : node.end_lineno]))):
                found.setdefault(finding, set()).add(f"{path.name}::{node.name}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", type=Path)
    args = parser.parse_args()
    covering = tests_naming_ids()
    print("| id | verdict then | case | tests that name it |\n|---|---|---|---|")
    for line in args.report.read_text(encoding="utf-8").splitlines():
        if not re.search(r"\*\*(FAIL|CONCERN)\*\*", line):
            continue
        cells = [cell.strip() for cell in line.replace("\\|", "¦").split("|")]
        finding, case, verdict = cells[1], cells[2], cells[6].strip("*")
        tests = "<br>".join(f"`{test}`" for test in sorted(covering.get(finding, ()))) or "none"
        print(f"| {finding} | {verdict} | {case.replace('¦', chr(92) + '|')} | {tests} |")


if __name__ == "__main__":
    main()
