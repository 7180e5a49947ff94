"""How the time of every module-level regular expression of the runtime and the command line grows
with its input, on long runs of one character or a few (what a hostile or broken input sends): a
pattern that backtracks at every position takes time growing with the square of the length.

    python -m benchmarks.regex_growth [--length 1000] [--factor 4] [--out FILE]

For each pattern, the input on which `finditer` over `factor` times the length took longest
against the same input at the length: about `factor` for a linear pattern, its square for a
quadratic one. Only patterns whose longer run took 2 ms or more are listed (others are too quick
to time), the worst first.
"""

from __future__ import annotations

import argparse
import importlib
import re
import string
from collections import deque
from pathlib import Path

from attn.cli.bench import timed
from benchmarks.report import command_line, cpu_name, finish, table

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("runtime", "cli")
# Long runs of one printable character or a pair, and runs after an opening (an address's, a
# placeholder's, a URL's) of letters, digits or dots
RUNS = [*string.printable[:-5], "é", "a ", "0 ", "0,", "0.", "a.", "a-", "@a", "/a", "1:", "A."]
OPENINGS = ["%", "{", "{{", "{%", "@", "a@", "http://", "www.", "`", "#", "&", "<", "$", "-", "(", "'", "«", "1."]
INPUTS = [("", run) for run in RUNS] + [(opening, run) for opening in OPENINGS for run in ("a", "0", ".")]
QUICK = 0.002  # seconds: a longer run that quick is not timed well enough to compare


def patterns() -> dict[str, re.Pattern]:
    """Every compiled pattern at the top level of a module of the runtime or the command line."""
    found: dict[int, tuple[str, re.Pattern]] = {}
    for package in PACKAGES:
        for path in sorted(p for p in (ROOT / package).rglob("*.py") if p.name != "__main__.py"):
            name = ".".join(("attn", *path.relative_to(ROOT).with_suffix("").parts))
            module = importlib.import_module(name.removesuffix(".__init__"))
            for attribute, value in vars(module).items():
                if isinstance(value, re.Pattern):
                    found.setdefault(id(value), (f"{module.__name__}.{attribute}", value))
    return dict(found.values())


def seconds(pattern: re.Pattern, text: str, runs: int = 3) -> float:
    """The shortest of `runs` runs of `finditer` over `text` (cli/bench.py timed)."""
    return timed(lambda: deque(pattern.finditer(text), maxlen=0), runs)[1]


def growth(pattern: re.Pattern, length: int, factor: int) -> tuple[float, str, float]:
    """(ratio, input, seconds at the longer length) of the input whose time grew most."""
    worst = (0.0, "", 0.0)
    for opening, run in INPUTS:
        short = opening + run * (length // len(run))
        long = opening + run * (factor * length // len(run))
        if seconds(pattern, long, runs=1) >= QUICK and (spent := seconds(pattern, long)) >= QUICK:
            worst = max(worst, (spent / max(seconds(pattern, short), 1e-9), repr(opening + run + "…"), spent))
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=1000)
    parser.add_argument("--factor", type=int, default=4)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = []
    for name, pattern in patterns().items():
        ratio, text, spent = growth(pattern, args.length, args.factor)
        if ratio:
            rows.append([name, text, f"{spent * 1000:.1f}", f"{ratio:.1f}"])
    rows.sort(key=lambda row: -float(row[3]))
    lines = [
        command_line(),
        "",
        f"{cpu_name()}; a linear pattern's time grows about {args.factor}×, a quadratic one's {args.factor**2}×.",
        "",
        table(["pattern", "worst input", f"ms at {args.factor * args.length:,}", "growth"], rows),
    ]
    finish(lines, args.out)


if __name__ == "__main__":
    main()
