"""Files and text as people have them: `-o` to what is not a
plain file, links and permissions, a byte-order mark and Windows line ends, heat maps beside the
user's own files, and errors that name a file without Python's "[Errno N]"."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from .test_cli import attn

pytestmark = pytest.mark.integration


def test_output_to_a_fifo_is_written_through_and_it_stays_a_fifo(reverse_model, tmp_path):
    """A FIFO (or a device) as -o was replaced by a regular file."""
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    read = []
    reader = threading.Thread(target=lambda: read.append(fifo.read_text()))
    reader.start()
    attn("translate", "-m", str(reverse_model), "-o", str(fifo), "a0 b1")
    reader.join(timeout=60)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert read == [attn("translate", "-m", str(reverse_model), "a0 b1").stdout.decode()]


def test_output_to_a_full_device_is_one_line_and_the_device_stays(reverse_model):
    """/dev/full became a regular file, exit 0."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    result = attn("translate", "-m", str(reverse_model), "-o", "/dev/full", "a0 b1", check_rc=2)
    assert result.stderr.decode() == "attn: error: --output /dev/full: cannot write there (No space left on device)\n"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_output_through_a_link_keeps_the_link_and_the_file_its_mode(reverse_model, tmp_path):
    """A symbolic link as -o was replaced by a file; a 0600 file came back 0644."""
    private = tmp_path / "private.txt"
    private.write_text("old")
    private.chmod(0o600)
    link = tmp_path / "link.txt"
    link.symlink_to(private.name)
    attn("translate", "-m", str(reverse_model), "-o", str(link), "a0 b1")
    assert (
        link.is_symlink()
        and private.read_text() == attn("translate", "-m", str(reverse_model), "a0 b1").stdout.decode()
    )
    assert stat.S_IMODE(private.stat().st_mode) == 0o600


def test_output_to_a_hard_link_keeps_every_name_of_the_file(reverse_model, tmp_path):
    """-o to a file of two hard links replaced one name by a new file: the other kept the old text."""
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("old")
    os.link(first, second)
    attn("translate", "-m", str(reverse_model), "-o", str(second), "a0 b1")
    expected = attn("translate", "-m", str(reverse_model), "a0 b1").stdout.decode()
    assert first.read_text() == second.read_text() == expected and first.stat().st_ino == second.stat().st_ino


def test_a_heat_map_through_a_link_keeps_the_link_and_many_inputs_are_capped(reverse_model, tmp_path, monkeypatch):
    """--heatmap to a symbolic link replaced the link; 100 inputs drew 100 files without a word
    (the cap is counted in this process, the drawing replaced: 50 drawings took 13 s)."""
    pytest.importorskip("matplotlib")
    from attn.cli import heatmap
    from attn.runtime.loaded_model import LoadedModel

    (tmp_path / "mine.png").write_bytes(b"old")
    (tmp_path / "link.png").symlink_to("mine.png")
    attn("translate", "-m", str(reverse_model), "--heatmap", str(tmp_path / "link.png"), "a0 b1")
    assert (tmp_path / "link.png").is_symlink() and (tmp_path / "mine.png").read_bytes().startswith(b"\x89PNG")
    drawn, notes = [], []
    monkeypatch.setattr(heatmap, "write_heatmap", lambda alignment, path, title, notify: drawn.append(path.name))
    many = heatmap.Heatmaps(tmp_path / "many.png", notes.append)
    [result] = LoadedModel(reverse_model).translate(["a0 b1"])
    for _ in range(heatmap.MAX_HEATMAPS + 2):
        many.add("a0 b1", result)
    many.write()
    assert notes == [f"--heatmap draws the first {heatmap.MAX_HEATMAPS} inputs; the others are not drawn"]
    assert drawn == [f"many-{number}.png" for number in range(1, heatmap.MAX_HEATMAPS + 1)]


def test_a_byte_order_mark_and_windows_line_ends_read_as_plain_text(reverse_model):
    """A UTF-8 BOM before the first line was translated as text; CRLF lines too."""
    plain = attn("translate", "-m", str(reverse_model), stdin="a0 b1\nc2 d3\n").stdout
    assert attn("translate", "-m", str(reverse_model), stdin=b"\xef\xbb\xbfa0 b1\r\nc2 d3\r\n").stdout == plain


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le"])
def test_utf16_and_utf32_with_their_mark_read_as_text(reverse_model, encoding, tmp_path):
    """PowerShell 5's `>` and Notepad's "Unicode" write UTF-16 with a byte-order mark: its NUL bytes
    had it refused as binary data. Lines, a summary and a corpus to score read as their UTF-8 twins."""
    text = "a0 b1\r\nc2 d3\r\n"
    plain = attn("translate", "-m", str(reverse_model), stdin=text).stdout
    marked = ("\ufeff" + text).encode(encoding)
    assert attn("translate", "-m", str(reverse_model), stdin=marked).stdout == plain
    document = "A first sentence of the document. A second one follows it.\n"
    summary = attn("summarize", stdin=document).stdout
    assert attn("summarize", stdin=("\ufeff" + document).encode(encoding)).stdout == summary
    corpus = tmp_path / "unicode.tsv"  # Excel's "Unicode Text": tab-separated UTF-16
    corpus.write_bytes(("\ufeffa0 b1\tb1 a0\nc2 d3\td3 c2\n").encode(encoding))
    scored = attn("eval", str(corpus), "-m", str(reverse_model), "--hypotheses", str(tmp_path / "out.txt"))
    assert "100.0" in scored.stdout.decode() and (tmp_path / "out.txt").read_text() == "b1 a0\nd3 c2\n"


def test_heat_maps_never_replace_the_users_numbered_files(reverse_model, tmp_path):
    """Plot-1.png and plot-2.png of the user's were overwritten; a missing folder or a
    folder as the file failed after translating, with Python's error."""
    pytest.importorskip("matplotlib")
    (tmp_path / "plot-2.png").write_bytes(b"mine")
    result = attn(
        "translate", "-m", str(reverse_model), "--heatmap", str(tmp_path / "plot.png"), "a0 b1", "c2 d3", check_rc=2
    )
    assert result.stdout == b"" and "plot-2.png already exist" in result.stderr.decode()
    assert (tmp_path / "plot-2.png").read_bytes() == b"mine" and not (tmp_path / "plot-1.png").exists()
    missing = attn("translate", "-m", str(reverse_model), "--heatmap", str(tmp_path / "no" / "x.png"), "a0", check_rc=2)
    assert missing.stdout == b"" and "does not exist" in missing.stderr.decode()
    (tmp_path / "folder.png").mkdir()
    assert (
        "is a folder"
        in attn(
            "translate", "-m", str(reverse_model), "--heatmap", str(tmp_path / "folder.png"), "a0", check_rc=2
        ).stderr.decode()
    )


@pytest.mark.parametrize(
    "command",
    [
        ["translate", "-i", "{missing}"],
        ["summarize", "-i", "{missing}"],
        ["eval", "{missing}"],
        ["translate", "-o", "{missing}/deeper/out.txt", "a0"],
        ["bench", "{missing}"],
        ["export", "{missing}.toml", "--out", "{missing}-model"],
        ["quantize", "{missing}", "--out", "{missing}-int8"],
        ["import", "marian", "{missing}", "--out", "{missing}-out"],
    ],
    ids=lambda command: command[0] + " " + command[1],
)
def test_a_missing_file_is_named_in_one_line_without_errno(reverse_model, tmp_path, command):
    """`attn summarize -i /nonexistent` said "[Errno 2] No such file…"."""
    arguments = [part.format(missing=tmp_path / "missing") for part in command]
    if arguments[0] in ("translate", "bench"):
        arguments += ["-m", str(reverse_model)]
    result = attn(*arguments, stdin="", check_rc=None)
    message = result.stderr.decode()
    assert result.returncode == 2 and message.count("\n") == 1 and "missing" in message and "Errno" not in message


def test_a_text_given_to_summarize_as_a_file_says_where_a_text_goes():
    """`attn summarize "The council voted…"` said "The council voted…: No such file or directory"."""
    result = attn("summarize", "The council voted on Monday to close the old bridge.", check_rc=2)
    message = result.stderr.decode()
    assert message.count("\n") == 1 and "is no file" in message and "standard input" in message


def test_an_unknown_task_is_a_usage_error(tmp_path):
    """`attn eval FILE --task foo` said "internal error: KeyError: 'foo'" and exited 1."""
    (tmp_path / "pairs.tsv").write_text("a\tb\n")
    result = attn("eval", str(tmp_path / "pairs.tsv"), "--task", "foo", check_rc=2)
    assert "choose translate or summarize" in result.stderr.decode() and "KeyError" not in result.stderr.decode()


def test_eval_reads_the_language_of_the_sources_it_is_given():
    """`attn eval FILE --swap-columns` scored the default en→de model on the German column (BLEU 2)."""
    fixture = Path(__file__).parent / "fixtures" / "en-de-test-slice.tsv"
    result = attn("eval", str(fixture), "--swap-columns", "--limit", "4", "--json", "-")
    assert "read as German (de)" in result.stderr.decode()
    assert json.loads(result.stdout)["model"] == "de-en"


def test_binary_input_is_refused_and_bytes_that_are_not_utf8_are_named(reverse_model):
    """`head -c 300 /bin/ls | attn translate` printed 17 kB of made-up words; a Latin-1 line came
    back with U+FFFD and no word of why, then with U+FFFD for "£" (it is read as Windows-1252)."""
    binary = attn("translate", "-m", str(reverse_model), stdin=b"\x7fELF\x02\x01\x01\x00\x00\x00a0 b1\n", check_rc=2)
    assert (
        binary.stdout == b""
        and binary.stderr.decode()
        == "attn: error: standard input holds binary data (NUL bytes), not text: nothing translated\n"
    )
    latin1 = attn("translate", "-m", str(reverse_model), "-f", "jsonl", stdin=b"a0 b1\ncaf\xe9 a0 \x80 \xa320\n")
    assert [json.loads(line)["source"] for line in latin1.stdout.decode().splitlines()] == ["a0 b1", "café a0 € £20"]
    assert "standard input, line 2: byte 4 is not UTF-8 (b'\\xe9'): read as Windows-1252" in latin1.stderr.decode()


def test_two_served_models_of_one_name_are_refused(reverse_model, tmp_path):
    """`--models en-de --models other/en-de` dropped one silently."""
    pytest.importorskip("starlette")
    import shutil

    twin = tmp_path / reverse_model.name
    shutil.copytree(reverse_model, twin)
    result = attn("serve", "--models", str(reverse_model), "--models", str(twin), check_rc=2)
    assert "have the same name" in result.stderr.decode() and result.stderr.decode().count("\n") == 1


def test_punctuation_alone_comes_back_as_it_was(reverse_model):
    """ "!?" × 2,000 came back as an invented sentence ("What is you!!!")."""
    lines = ["!?!?!?" * 100, "---", "…", "a0 b1 !"]
    out = attn("translate", "-m", str(reverse_model), stdin="\n".join(lines) + "\n").stdout.decode().splitlines()
    assert out[:3] == lines[:3] and out[3] != lines[3]


def test_a_line_break_at_a_texts_edge_is_not_read_by_the_model(reverse_model):
    """`attn translate $'Hello.\\r'` and the server's q "Hello.\\n" gave "Hallo. März": the model read
    the line break and wrote a word for it."""
    plain = attn("translate", "-m", str(reverse_model), "a0 b1 c2").stdout
    for edged in ("a0 b1 c2\r", "a0 b1 c2\n", "\r\na0 b1 c2\r\n"):
        assert attn("translate", "-m", str(reverse_model), edged).stdout == plain
    # the indentation is not read either, and goes before the translation (a file's indented
    # line), trailing spaces and tabs after it
    assert attn("translate", "-m", str(reverse_model), " \ta0 b1 c2\t").stdout == b" \t" + plain[:-1] + b"\t\n"


def test_a_document_of_punctuation_alone_has_nothing_to_summarize():
    """12,000 characters of punctuation came back whole as their own summary."""
    refused = attn("summarize", stdin="!?." * 4000, check_rc=2)
    assert "holds no words" in refused.stderr.decode() and refused.stdout == b""
    assert attn("summarize", "--lines", stdin="!!!\n---\n").stdout == b"\n\n"
