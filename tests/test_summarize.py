"""`attn summarize` with the shipped summarizer: documents in, one-line synopses out; copying of
names no vocabulary holds; long documents; task refusal; ROUGE through `attn eval`."""

import json
from pathlib import Path

import pytest

from attn.runtime.constants import EOS
from attn.runtime.loaded_model import LoadedModel
from attn.runtime.manifest import read_manifest
from attn.runtime.registry import resolve_model
from attn.runtime.tsv import read_tsv

from .test_cli import attn

pytestmark = pytest.mark.system

SLICE = Path(__file__).parent / "fixtures" / "summarize-test-slice.tsv"
ROUGE_L_FLOOR = 37.0  # 39.49 measured on this slice at shipping time (the second run: 36.52; the first: 35.55; the Debian-only summarizer: 36.95)
MADE_UP = "libzorbulator"
DOCUMENT = (
    f"This package provides Python 3 bindings for {MADE_UP}, a library to read and write "
    "vector images. It reads SVG and PDF files and writes PNG, JPEG and WebP images."
)


@pytest.fixture(scope="module")
def summarizer():
    return LoadedModel(resolve_model(None, "summarize", None, None), threads=1)


def test_the_default_summarizer_is_installed_and_intact():
    manifest = read_manifest(resolve_model(None, "summarize", None, None))
    assert manifest.task == "summarize"
    assert manifest.architecture["copy"]


def test_a_name_no_vocabulary_holds_is_copied_into_the_summary(summarizer):
    tokenizer = summarizer.tokenizer
    pieces = [tokenizer.decode([piece]) for piece in range(tokenizer.vocab_size)]
    assert not any("zorbul" in piece for piece in pieces)  # the name is spelled with short pieces
    out = attn("summarize", "--headline", stdin=DOCUMENT + "\n").stdout.decode()
    assert out.count("\n") == 1
    assert MADE_UP in out, out


def test_whole_input_is_one_document_and_lines_are_documents():
    whole = attn("summarize", stdin=DOCUMENT.replace(". ", ".\n")).stdout.decode()
    assert whole.count("\n") == 1
    documents = [DOCUMENT, "", "GNU Make is a utility which controls the generation of executables from source files."]
    lines = attn("summarize", "--lines", stdin="\n".join(documents) + "\n").stdout.decode().split("\n")[:-1]
    assert len(lines) == 3 and lines[1] == "" and lines[0] and lines[2]


def test_a_document_file_with_lines_is_refused_naming_the_option(tmp_path):
    """`attn summarize --lines report.docx` had said "report.docx holds zip data, not text", though
    the same file is summarized without --lines (a newcomer's trial)."""
    page = tmp_path / "page.html"
    page.write_text("<p>" + DOCUMENT + "</p>", encoding="utf-8")
    error = attn("summarize", "--lines", str(page), check_rc=2).stderr.decode()
    assert error.count("\n") == 1 and "is a document, summarized whole: --lines is for lines of text" in error
    assert attn("summarize", str(page)).stdout.decode().count("\n") == 1


def test_documents_from_files_and_jsonl(tmp_path):
    path = tmp_path / "description.txt"
    path.write_text(DOCUMENT, encoding="utf-8")
    record = json.loads(attn("summarize", "-f", "jsonl", str(path)).stdout.decode())
    assert record["source"] == DOCUMENT and record["summary"] == record["n_best"][0]["text"]


def test_heatmaps_one_file_per_document(tmp_path):
    attn("summarize", "--heatmap", str(tmp_path / "one.svg"), stdin=DOCUMENT + "\n")
    assert "<svg" in (tmp_path / "one.svg").read_text()
    attn("summarize", "--lines", "--heatmap", str(tmp_path / "map.png"), stdin=DOCUMENT + "\n" + DOCUMENT + "\n")
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".png") == ["map-1.png", "map-2.png"]


def test_an_empty_input_is_a_usage_error():
    result = attn("summarize", stdin=" \n\n", check_rc=2)
    assert result.stdout == b"" and result.stderr.decode().count("\n") == 1
    assert "nothing to summarize" in result.stderr.decode()


def test_a_document_over_the_limit_is_condensed_with_a_note():
    long_document = " ".join([DOCUMENT] * 30)
    result = attn("summarize", stdin=long_document)
    assert result.stdout.decode().count("\n") == 1
    assert "summarized from its most salient sentences" in result.stderr.decode()


def test_a_long_documents_end_reaches_its_summary(summarizer):
    """Five descriptions in one document of about 500 words, twice what the summarizer reads at
    once: it reads a sentence that only the last description holds (read from the head, as before
    runtime/condense.py, it never saw the end)."""
    from attn.runtime.sentences import split_sentences

    described = [row.source for row in read_tsv(SLICE) if len(row.source.split()) > 60][:5]
    summary = summarizer.translate([" ".join(described)])[0][0]
    read = summary.alignment.source_words
    assert len(read) < len(" ".join(described).split())
    from_the_end = [
        sentence
        for sentence in split_sentences(" ".join(read), "en")
        if sentence in described[-1] and not any(sentence in earlier for earlier in described[:-1])
    ]
    assert from_the_end


def test_models_of_the_other_task_are_refused(reverse_model):
    summarizer_folder = str(resolve_model(None, "summarize", None, None))
    refused = attn("translate", "-m", summarizer_folder, "hello", check_rc=2).stderr.decode()
    assert "is a summarize model, not a translate model" in refused and refused.count("\n") == 1
    refused = attn("summarize", "-m", str(reverse_model), stdin="a0 b1", check_rc=2).stderr.decode()
    assert "is a translate model, not a summarize model" in refused


def test_rouge_on_the_test_slice_stays_above_the_floor_and_beats_the_lead(tmp_path):
    model_scores, lead_scores = tmp_path / "model.json", tmp_path / "lead.json"
    table = attn("eval", str(SLICE), "--task", "summarize", "--json", str(model_scores)).stdout.decode()
    assert "ROUGE-L" in table
    attn("eval", str(SLICE), "--lead", "7", "--json", str(lead_scores))
    model = json.loads(model_scores.read_text())["scores"]["all"]
    lead = json.loads(lead_scores.read_text())["scores"]["all"]
    assert model["sentences"] == lead["sentences"] == len(read_tsv(SLICE))
    assert model["rougeL"] >= ROUGE_L_FLOOR and model["rougeL"] > lead["rougeL"]
    # a model beside --lead is refused: it had been left out without a word (a newcomer's trial)
    refused = attn("eval", str(SLICE), "--lead", "7", "-m", "summarize", check_rc=2).stderr.decode()
    assert "--lead scores the first words of each source, no model" in refused


PROBE = Path(__file__).parent / "fixtures" / "summarize-probe.tsv"


def test_the_probe_of_ten_ordinary_texts_summarizes_as_recorded(summarizer):
    """Ten texts of our own (news, a blog post, e-mails, a README, a how-to, a health story, a
    weather report; the second column names each), their summaries recorded when the model
    shipped (summarize-probe.shipped.txt, judged in models/README.md). Another CPU may decide a
    near tie the other way: the recorded summary is then one of the 5 best, or of a wider search's,
    within NEAR_TIE (test_shipped_model.py assert_recorded_near_best)."""
    from .test_shipped_model import assert_recorded_near_best

    rows = read_tsv(PROBE)
    found = summarizer.translate([row.source for row in rows], summarizer.default_options(n_best=5))
    recorded = PROBE.with_suffix(".shipped.txt").read_text(encoding="utf-8").splitlines()
    assert len(found) == len(recorded) == 10
    for row, summaries, expected in zip(rows, found, recorded):
        assert_recorded_near_best(summarizer, row.source, expected, summaries)


def test_a_compressed_file_is_refused(tmp_path):
    import gzip

    (tmp_path / "article.txt.gz").write_bytes(gzip.compress(DOCUMENT.encode()))
    result = attn("summarize", str(tmp_path / "article.txt.gz"), check_rc=2)
    assert b"gzip" in result.stderr and result.stdout == b""


def test_by_default_two_sentences_of_the_document_are_printed_and_the_headline_on_request():
    """What a plain `attn summarize` prints was chosen by hand judgement on 20 texts of four kinds
    (docs/studies/SUMMARY-FORMS.md): the two sentences its headline drew on most."""
    document = (
        "The council approved the new budget on Monday after a long debate. Spending on schools rises "
        "by five percent. Roads get less money than last year. The mayor said the plan was fair."
    )
    printed = attn("summarize", stdin=document).stdout.decode().strip()
    assert printed == attn("summarize", "--sentences", "2", stdin=document).stdout.decode().strip()
    headline = attn("summarize", "--headline", stdin=document).stdout.decode().strip()
    assert headline and headline != printed
    record = json.loads(attn("summarize", "-f", "jsonl", stdin=document).stdout.decode())
    assert record["summary"] == headline and " ".join(record["sentences"]) == printed  # a record holds both
    refused = attn("summarize", "--headline", "--sentences", "1", stdin=document, check_rc=2).stderr.decode()
    assert "--sentences" in refused and refused.count("\n") == 1


def test_sentences_are_chosen_from_the_document_in_its_order():
    document = (
        "The council approved the new budget on Monday after a long debate. Spending on schools rises "
        "by five percent. Roads get less money than last year. The mayor said the plan was fair."
    )
    chosen = attn("summarize", "--sentences", "2", stdin=document).stdout.decode().strip()
    sentences = [s for s in document.replace(". ", ".|").split("|")]
    picked = [s for s in sentences if s in chosen]
    assert len(picked) == 2 and chosen == " ".join(picked)


def test_an_endless_input_is_read_only_to_its_limit():
    """`attn summarize /dev/zero` read forever; past --max-chars the rest is unread."""
    import subprocess
    import sys

    result = subprocess.run(
        [
            "bash",
            "-c",
            f"yes 'The council approved the budget.' | {sys.executable} -m attn.cli summarize --max-chars 5000",
        ],
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == 0 and result.stdout.count(b"\n") == 1 and b"--max-chars" in result.stderr


def test_a_document_summarizes_the_same_alone_and_in_a_batch(summarizer):
    """The shipped summarizer, as users meet it: the probe's texts together and one at a time."""
    texts = [row.source for row in read_tsv(PROBE)]
    together = summarizer.translate(texts, batch_size=16)
    alone = [summarizer.translate([text])[0] for text in texts]
    for a, b in zip(together, alone):
        assert a[0].tokens == b[0].tokens


def test_an_extractive_summary_stays_within_what_the_summarizer_read():
    """`--sentences 100` on 100,000 unpunctuated words printed all of them: only the words read count."""
    import numpy as np

    from attn.runtime.alignment import WordAlignment
    from attn.runtime.extractive import attended_sentences

    def read(words):  # what the summarizer read: the head of the document, or its condensed sentences
        return WordAlignment(words, ["x"], np.full((1, len(words)), 1 / len(words), np.float32))

    assert attended_sentences(read("one two three four five six".split()), 5) == ["one two three four five six"]
    head = "One two. Three four. Five six.".split()  # of "… Seven eight. Nine ten."
    assert attended_sentences(read(head), 100) == ["One two.", "Three four.", "Five six."]
    assert attended_sentences(read(head), 1) == ["One two."]


def test_a_sentence_that_refers_back_comes_with_the_one_before_it():
    """ "It was reported by customers on the first day …" had been chosen without the sentence that
    says what "it" is."""
    import numpy as np

    from attn.runtime.alignment import WordAlignment
    from attn.runtime.extractive import attended_sentences

    sentences = [
        "Staff worked late on Friday night.",
        "The new billing system failed on Monday.",
        "It was reported by customers first.",
    ]
    words = " ".join(sentences).split()
    weights = np.array([[0.1] * 6 + [0.05] * 7 + [0.3] * 6], np.float32)  # the third the most, then the first
    alignment = WordAlignment(words, ["x"], weights / weights.sum())
    assert attended_sentences(alignment, 2, sentences=sentences) == sentences[1:]
    assert attended_sentences(alignment, 1, sentences=sentences) == sentences[:1]  # no room for both: passed over
    # after a greeting or a title, which says nothing it could refer to, it is chosen alone (the
    # greeting had taken a place and been dropped: one sentence of two)
    greeted = ["Hello there.", sentences[2], sentences[1]]
    weights = np.array([[0.1] * 2 + [0.3] * 6 + [0.2] * 7], np.float32)  # "It …" the most, then the failure
    alignment = WordAlignment(" ".join(greeted).split(), ["x"], weights / weights.sum())
    assert attended_sentences(alignment, 2, sentences=greeted) == greeted[1:]
    # the sentence taken before one that refers back is not taken again when its turn comes (it
    # had taken a place: 3 sentences of 4 asked)
    mail = ["The file could not be opened.", "He drinks coffee every morning.", "He goes to work.", "Call Lee at nine."]
    weights = np.array([[0.3] * 6 + [0.1] * 5 + [0.2] * 4 + [0.05] * 4], np.float32)
    alignment = WordAlignment(" ".join(mail).split(), ["x"], weights / weights.sum())
    assert attended_sentences(alignment, 4, sentences=mail) == mail
    assert len(attended_sentences(alignment, 3, sentences=mail)) == 3


def test_the_word_a_summary_ends_with_is_read_across_its_pieces(summarizer):
    """The word check (runtime/word_check.py) reads the word the pieces so far end with, whole:
    byte-level pieces of an accented letter, a name cut into pieces, nothing after punctuation."""
    from attn.runtime.word_check import WordCheck, document_words

    check = WordCheck(frozenset({"wants", "ich"}), summarizer.tokenizer)
    encode = summarizer.tokenizer.encode
    assert check.last_word(encode("#Person2# wants")) == "wants"
    assert check.last_word(encode("the Café")) == "café"
    assert check.last_word(encode("they smokging")) == "smokging"
    assert check.last_word(encode("a word.")) == "" and check.last_word([]) == ""
    pieces = summarizer.tokenizer.pieces
    lead_byte, line_break = pieces.index("â"), pieces.index("Ċ")  # the first byte of "’"; "\n"
    assert check.last_word(encode("they smokg") + [lead_byte]) == "smokg"
    assert check.ends[line_break] and not check.ends[lead_byte]
    # a character left broken within a word ("Zür\ufffdrich" in a headline's n-best) is no word
    # anyone may write, though its last letters ("ich") are
    broken = check.last_word(encode("the Zür") + [lead_byte, pieces.index("ich")])
    assert broken and broken not in check.targets and broken not in document_words("the Zürich ich")


@pytest.mark.parametrize("beam", [5, 1])
def test_every_word_of_a_summary_is_the_documents_or_one_its_training_targets_hold(summarizer, beam):
    """Copy attention wrote words of neither ("#Pson2#", "smokging", "Deloit"): with its target
    words, the summarizer's search, beam or greedy, writes no word that is neither."""
    from attn.runtime.word_check import WORD, document_words

    check = summarizer.word_check
    assert check is not None and summarizer.manifest.format_version == 5  # its training targets' words
    documents = [row.source for row in read_tsv(SLICE)]
    results = summarizer.translate(documents, summarizer.default_options(beam=beam), batch_size=8)
    slips = []
    for document, result in zip(documents, results):
        allowed = document_words(summarizer.tokenizer.decode(summarizer.source_ids(document))) | check.targets
        slips += [(result[0].text, word) for word in WORD.findall(result[0].text) if word.lower() not in allowed]
    # 0 of 100 here with the beam (7 without the check), 0 greedy (9 without); a near tie on
    # another CPU may lead a summary to a word spelled by pieces of other characters than letters,
    # which the check then lets through: at most 2
    assert len(slips) <= 2, slips


def test_a_summary_row_may_end_only_an_allowed_word(summarizer):
    """A row's last word: allowed (nothing banned but misspelling pieces), begun by an allowed word
    (the pieces that would end it banned), or begun by none (everything banned: the row falls
    behind), unless every row of its summary is so (then nothing is banned: no summary is spelled
    on to its maximum length)."""
    import numpy as np

    from attn.runtime.word_check import WordCheck

    tokenizer = summarizer.tokenizer
    check = WordCheck(frozenset({"wants"}), tokenizer).for_documents(["#Person2# wants tea."])
    vocabulary = np.arange(tokenizer.vocab_size)
    rows = [tokenizer.encode(text) for text in ("#Person2", "#Pers", "#Pson", "#Person2# wa")]
    banned = check.banned(vocabulary, rows, np.zeros(len(rows), dtype=np.int64))
    ending = set(check.check.ending)
    assert set(banned[0]).isdisjoint({EOS, tokenizer.pieces.index("#")}) and ending <= set(banned[1])
    assert len(banned[2]) == len(vocabulary)
    assert ending <= set(banned[3]) and tokenizer.encode(" tea")[0] in ending
    assert len(check.banned(vocabulary, [rows[2]], np.zeros(1, dtype=np.int64))[0]) == 0
    pieces = tokenizer.pieces
    assert pieces.index("on") not in banned[1] and pieces.index("on") in banned[3]  # "#Person2", not "waon"
    assert pieces.index("n") not in banned[3]  # on into "wants"


def test_a_summary_row_spells_only_what_an_allowed_word_begins(summarizer):
    """Every beam of a headline had spelled "Baking sour" + "day" into "sourday", a word of neither
    the document nor the training targets, which the check then let through ("Beth" + "ear", "Lo" +
    "Short", "Pinyto" so too): a piece of letters that would spell what no allowed word begins is
    banned, whether it goes on with a word or opens one."""
    import numpy as np

    from attn.runtime.word_check import WordCheck

    tokenizer = summarizer.tokenizer
    check = WordCheck(frozenset({"sourdough", "bread"}), tokenizer).for_documents(["Baking bread at home."])
    texts = ("Baking sour", "Baking bread", "")
    rows = [tokenizer.encode(text) if text else [] for text in texts]
    banned = check.banned(np.arange(tokenizer.vocab_size), rows, np.zeros(len(rows), dtype=np.int64))
    got = dict(zip(texts, (set(columns) for columns in banned)))
    piece = tokenizer.pieces.index
    assert piece("day") in got["Baking sour"] and piece("ough") in got["Baking sour"]  # "sourday", "sourough"
    assert piece("d") not in got["Baking sour"]  # on into "sourdough"
    assert piece("day") in got["Baking bread"] and piece("Ġday") in got["Baking bread"]  # "breadday", "day"
    assert piece("Ġbre") not in got["Baking bread"] and piece("Ġat") not in got["Baking bread"]
    assert piece("b") not in got[""] and piece("d") in got[""] and piece("Ġx") in got[""]  # a first word


def test_a_summary_cut_at_its_length_limit_ends_at_its_last_whole_word(summarizer):
    """A headline that ran to its maximum length in the middle of a word ended so ("… rise due to
    uncert"), or in a bracket ("Extended Access Control (PACE"): it ends before that word's run
    of text and before the bracket, its attention cut alike; one that ended on a whole word with
    its brackets closed, or before the limit, is kept as it is."""
    import numpy as np

    from attn.runtime.search import Hypothesis
    from attn.runtime.word_check import WordCheck

    tokenizer = summarizer.tokenizer
    check = WordCheck(frozenset({"prices", "rise", "due", "to", "uncertainty"}), tokenizer).for_documents(
        ["Prices rise due to uncertainty."]
    )

    def hypothesis(text: str) -> Hypothesis:
        tokens = tokenizer.encode(text)
        return Hypothesis(tokens, -1.0, -5.0, np.ones((len(tokens), 4), np.float32))

    cut, whole = hypothesis("Prices rise due to uncert"), hypothesis("Prices rise due to")
    assert check.check.last_word(cut.tokens) == "uncert"  # begun by an allowed word, not one
    ended = check.ended(cut, 0, len(cut.tokens))
    assert ended.tokens == whole.tokens and ended.attention.shape == (len(whole.tokens), 4)
    assert check.ended(cut, 0, len(cut.tokens) + 1) is cut  # it ended (EOS) before its limit
    assert check.ended(whole, 0, len(whole.tokens)) is whole
    alone = hypothesis("uncert")
    assert check.ended(alone, 0, len(alone.tokens)) is alone  # nothing would be left
    opened, closed = hypothesis("Prices rise (due to uncertainty"), hypothesis("Prices rise (due) to")
    assert check.ended(opened, 0, len(opened.tokens)).tokens == tokenizer.encode("Prices rise")  # a bracket left open
    assert check.ended(closed, 0, len(closed.tokens)) is closed


def test_summaries_held_short_end_with_whole_words(summarizer):
    """Held to 10 pieces, 3 of the slice's first 40 summaries had ended in the middle of a word
    ("asynchronous task queue/job que"); now each ends with a word of its document or of the
    training targets."""
    from attn.runtime.word_check import WORD, document_words

    documents = [row.source for row in read_tsv(SLICE)][:40]
    options = summarizer.default_options(max_length_ratio=0.0, max_length_offset=10)
    cut = []
    for document, result in zip(documents, summarizer.translate(documents, options, batch_size=8)):
        allowed = document_words(summarizer.tokenizer.decode(summarizer.source_ids(document)))
        words, text = WORD.findall(result[0].text), result[0].text
        whole = words and words[-1].lower() in allowed | summarizer.word_check.targets
        cut += [] if whole or " " not in text.strip() else [text]  # a single run of text is kept (ended)
    assert not cut


def test_a_number_is_one_of_the_documents_numbers_whole(summarizer):
    """Copying "." and "2" of "1.2" after a "U" wrote "U.2 mln metro users" for "1.2 mln": a number
    (words joined by points and commas) ends only as one of the document's; one that a number of
    the document begins may go on with a point or a comma, not end."""
    import numpy as np

    from attn.runtime.word_check import WordCheck

    tokenizer = summarizer.tokenizer
    check = WordCheck(frozenset({"u", "mln", "in"}), tokenizer).for_documents(["1.2 mln users, 5,000 in 1987."])
    vocabulary = np.arange(tokenizer.vocab_size)
    texts = ("U.2", "1.2", "1", "1.", "5,000", "in 1987.", "5,")
    banned = check.banned(vocabulary, [tokenizer.encode(t) for t in texts], np.zeros(len(texts), dtype=np.int64))
    got = dict(zip(texts, (set(columns) for columns in banned)))
    ending, pieces = set(check.check.ending), tokenizer.pieces
    point, digit, spaced_digit, spaced_point = (pieces.index(p) for p in (".", "2", "Ġ2", "Ġ."))
    assert len(got["U.2"]) == len(vocabulary)
    # after a number, only the pieces that would open what no allowed word or number begins
    assert got["1.2"] == got["5,000"] and pieces.index("Ġx") in got["1.2"]
    assert got["1.2"].isdisjoint({point, pieces.index(","), pieces.index("Ġin"), EOS})
    # after punctuation, only the pieces that would begin what no allowed word or number begins
    assert pieces.index("Ġin") not in got["in 1987."] and pieces.index("Ġx") in got["in 1987."]
    assert spaced_digit in got["in 1987."] and pieces.index("Ġ1") not in got["in 1987."]  # "2…", "1…"
    # "1.2" begins so: a joiner may follow (with no space before it), no end
    assert point not in got["1"] and spaced_point in got["1"] and ending - got["1"] == {pieces.index(j) for j in ".,:/"}
    for joined in ("1.", "5,"):  # then only a digit, with no space before it
        assert digit not in got[joined] and {spaced_digit, pieces.index("x")} <= got[joined]


def test_a_time_or_a_fraction_is_a_number_whole(summarizer):
    """A headline wrote "15/00" of a document's "15" and "00": colons and slashes join a number as
        points and commas do, so "15:00" and "2/3" are the document's numbers and "15/00" is none (its
    parts are: a date's year may be written alone)."""
    import numpy as np

    from attn.runtime.word_check import WordCheck, document_numbers

    numbers = document_numbers("Doors open at 15:00 on 2/3, 24/7.")
    assert numbers == {"15:00", "2/3", "24/7", "15", "00", "2", "3", "24", "7"}  # the parts are numbers too
    assert "2024" in document_numbers("Filed on 12/05/2024.")  # a date's year may be written alone
    tokenizer = summarizer.tokenizer
    check = WordCheck(frozenset({"at", "on"}), tokenizer).for_documents(["Doors open at 15:00 on 2/3."])
    texts = ("at 15:00", "on 2/3", "at 15/00", "at 15")
    rows = [tokenizer.encode(text) for text in texts]
    banned = check.banned(np.arange(tokenizer.vocab_size), rows, np.zeros(len(rows), dtype=np.int64))
    got = dict(zip(texts, (set(columns) for columns in banned)))
    assert len(got["at 15/00"]) == tokenizer.vocab_size
    for allowed in ("at 15:00", "on 2/3", "at 15"):  # may end, and go on with a word
        assert got[allowed].isdisjoint({EOS, tokenizer.pieces.index("."), tokenizer.pieces.index("Ġon")})


def test_target_words_are_written_from_a_configs_training_targets(tmp_path):
    """`attn target-words` writes a summarizer's folder with its training targets' words; a
    translation model is refused."""
    from .conftest import ROOT

    config = ROOT / "configs" / "summarize.toml"
    rows = [f"--set=data.train=['{SLICE}']", f"--set=data.dev=['{SLICE}']", "--set=data.sample={}"]
    model = resolve_model(None, "summarize", None, None)
    attn("target-words", str(config), str(model), "--out", str(tmp_path / "words"), *rows)
    written = (tmp_path / "words" / "target_words.txt").read_text(encoding="utf-8").split()
    expected = {word.lower() for row in read_tsv(SLICE) for word in row.target.split() if word.isalpha()}
    assert written == sorted(written) and expected <= set(written)
    assert LoadedModel(tmp_path / "words", threads=1).word_check is not None
    refused = attn(
        "target-words", str(config), str(ROOT / "models" / "en-de"), "--out", str(tmp_path / "x"), *rows, check_rc=2
    )
    assert "is for summarize models" in refused.stderr.decode()


def test_a_byte_order_mark_is_dropped_and_bytes_not_utf8_are_named_as_attn_translate_does(tmp_path):
    """A file saved with a byte-order mark began its summary with the mark (and its first source
    word in JSON lines); a Latin-1 file was summarized with U+FFFD and no word about it."""
    text = "The council voted on Tuesday to close the old bridge. The bridge carries 9,000 cars a day.\n"
    plain = attn("summarize", stdin=text).stdout
    marked = attn("summarize", stdin=b"\xef\xbb\xbf" + text.encode())
    assert marked.stdout == plain and not marked.stderr
    latin = attn("summarize", stdin=("Caf\xe9 owners " + text).encode("latin-1")).stderr.decode()
    assert "line 1: byte 4 is not UTF-8" in latin and latin.count("\n") == 1


def test_a_title_and_a_greeting_are_sentences_of_their_own():
    """Lines without a full stop were glued to the next sentence ("… Main Street The council …")."""
    document = (
        "Council closes the old Elm Street bridge\n\nHi everyone,\n\nThe city council voted on Tuesday to close "
        "the old Elm Street bridge to cars after engineers found cracks in two of its steel supports. The "
        "bridge carries about 9,000 vehicles a day. Drivers will be sent on a detour through the industrial "
        "estate.\n\nThanks,\nMaria Okafor\n"
    )
    printed = attn("summarize", stdin=document).stdout.decode().strip()
    assert printed
    assert "bridge The city" not in printed and "everyone, The" not in printed and "Thanks, Maria" not in printed


def test_a_document_in_another_language_gets_a_note():
    german = (
        "Die Bundesregierung hat am Mittwoch ein neues Klimaschutzpaket beschlossen. Es sieht vor, dass bis "
        "2030 der Ausstoß von Treibhausgasen um 65 Prozent gegenüber 1990 sinkt, und es kostet viel Geld."
    )
    notes = attn("summarize", stdin=german).stderr.decode()
    assert notes == (
        "attn: input 1 reads as German (de), and the summarizer reads English (en): translate first "
        "(attn translate --to en)\n"
    )
