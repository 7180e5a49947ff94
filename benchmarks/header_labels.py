"""An e-mail's header labels and reply or forward prefixes read as the target writes them
(runtime/header_labels.py) and as written, on lines a helper wrote (benchmarks/header_labels/
LANGUAGE.txt: 22 header or subject lines and 8 sentences that only open with the same words, each
of German, French and English), each direction, by the installed models' default search: the
header lines whose translation opens with the target's prefixes and label, and the other lines
the reading changed (none should change).

    python -m benchmarks.header_labels [--sentences DIR] [--out FILE]
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import attn.runtime as attn
from attn.runtime.header_labels import PATTERNS, read_header_labels
from benchmarks.report import command_line, finish, folder_directions, sentence_folder_parser, table, with_and_without

SENTENCES = Path(__file__).with_name("header_labels")


def opening(line: str, source: str, target: str) -> str | None:
    """The prefixes and label the target writes for those opening `line`; None for a line without."""
    read = read_header_labels(line, source, target)
    if read == line:
        return None
    return read[: len(read) - len(line) + PATTERNS[source].match(line).end()]


def main() -> None:
    args = sentence_folder_parser(__doc__.splitlines()[0], SENTENCES).parse_args()
    translator, rows, shown = attn.load(notify=lambda note: None), [], []
    as_written = mock.patch("attn.runtime.source_reading.read_header_labels", lambda sentence, *languages: sentence)
    for source, target, texts in folder_directions(args.sentences):
        read, unread = with_and_without(translator, texts, source, target, as_written)
        openings = [opening(text, source, target) for text in texts]
        headers = [i for i, written in enumerate(openings) if written is not None]
        others = [i for i, written in enumerate(openings) if written is None]
        for label, outputs in (("as written", unread), ("read as the target writes them", read)):
            right = sum(outputs[i].startswith(openings[i].rstrip()) for i in headers)
            changed = sum(read[i] != unread[i] for i in others) if outputs is read else ""
            rows.append([f"{source}→{target}", label, f"{right} of {len(headers)}", changed])
        shown += [f"- {source}→{target}: {texts[i]}<br>as written: {unread[i]}<br>read: {read[i]}" for i in headers]
    header = ["direction", "labels", "header lines opened as the target writes them", "other lines changed"]
    finish([command_line(), "", table(header, rows), "", *shown], args.out)


if __name__ == "__main__":
    main()
