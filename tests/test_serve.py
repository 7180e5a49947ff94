"""`attn serve`: LibreTranslate's client against a real server, every error case at the
HTTP level, dynamic batching, and a graceful SIGTERM."""

import asyncio
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from attn.cli.server.batcher import Busy, DynamicBatcher  # noqa: E402
from attn.runtime.manifest import read_manifest  # noqa: E402
from attn.runtime.search import SearchOptions  # noqa: E402

from .forked_cli import run_attn
from .test_cli import attn  # noqa: E402

SOURCES = ["a0 b1 c2", "d3 e0 f1 g2", "b1 b1 a0", "c2"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`attn serve` in a subprocess on 127.0.0.1 and a free port, up once /health answers."""

    def __init__(self, *args: str):
        import httpx

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "attn.cli", "serve", "--port", str(self.port), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(600):
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
            if self.process.poll() is not None:
                raise AssertionError(self.process.stderr.read().decode())
        raise AssertionError("the server did not come up")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=60)


@pytest.fixture(scope="module")
def server(reverse_model):
    running = Server("--models", str(reverse_model))
    yield running
    running.stop()


def cli_translations(model: Path, texts: list[str]) -> list[str]:
    return attn("translate", "-m", str(model), *texts).stdout.decode().splitlines()


@pytest.mark.integration
def test_the_libretranslate_client_gets_what_the_cli_prints(server, reverse_model):
    from libretranslatepy import LibreTranslateAPI

    client = LibreTranslateAPI(server.url)
    assert [client.translate(text, "sym", "sym") for text in SOURCES] == cli_translations(reverse_model, SOURCES)
    assert client.languages() == [{"code": "sym", "name": "sym", "targets": ["sym"]}]


@pytest.mark.integration
def test_lists_alternatives_and_native_records(server, reverse_model):
    import httpx

    reply = httpx.post(
        server.url + "/translate", json={"q": SOURCES, "source": "sym", "target": "sym", "alternatives": 2}
    ).json()
    beam = max(read_manifest(reverse_model).search["beam"], 3)  # the server's search for 2 alternatives
    listed = [
        json.loads(line)
        for line in attn("translate", "-m", str(reverse_model), "-f", "jsonl", "-n", "3", "--beam", str(beam), *SOURCES)
        .stdout.decode()
        .splitlines()
    ]
    assert reply["translatedText"] == [record["translation"] for record in listed]
    assert reply["alternatives"] == [[best["text"] for best in record["n_best"][1:]] for record in listed]
    one = httpx.post(
        server.url + "/translate", json={"q": "a0 b1", "source": "sym", "target": "sym", "alternatives": 1}
    ).json()
    assert isinstance(one["translatedText"], str) and isinstance(one["alternatives"], list)
    native = httpx.post(
        server.url + "/v1/translate", json={"q": SOURCES[:2], "model": reverse_model.name, "n_best": 3, "beam": 1}
    ).json()["results"]
    records = [
        json.loads(line)
        for line in attn("translate", "-m", str(reverse_model), "-f", "jsonl", "-n", "3", "--beam", "1", *SOURCES[:2])
        .stdout.decode()
        .splitlines()
    ]
    assert native == records
    aligned = httpx.post(
        server.url + "/v1/align", json={"source": "a0 b1 c2", "target": "c2 b1 a0", "model": reverse_model.name}
    ).json()
    assert aligned["pharaoh"] == "2-0 1-1 0-2"


BAD_REQUESTS = {
    "missing q": ({"json": {"source": "sym", "target": "sym"}}, 400, "Invalid request: missing q parameter"),
    "missing source": ({"json": {"q": "a0", "target": "sym"}}, 400, "Invalid request: missing source parameter"),
    "unsupported language": ({"json": {"q": "a0", "source": "sym", "target": "xx"}}, 400, "xx is not supported"),
    "auto without detection": ({"json": {"q": "a0", "source": "auto", "target": "sym"}}, 400, "auto is not supported"),
    "xml": (
        {"json": {"q": "a0", "source": "sym", "target": "sym", "format": "xml"}},
        400,
        "xml format is not supported",
    ),
    "q a number": ({"json": {"q": 5, "source": "sym", "target": "sym"}}, 400, "q must be a string"),
    "q a list of numbers": ({"json": {"q": [1, 2], "source": "sym", "target": "sym"}}, 400, "q must be a string"),
    "alternatives a word": (
        {"json": {"q": "a0", "source": "sym", "target": "sym", "alternatives": "many"}},
        400,
        "alternatives",
    ),
    "malformed JSON": ({"content": b'{"q": ', "headers": {"content-type": "application/json"}}, 400, "not valid JSON"),
    "a JSON list": ({"json": ["a0"]}, 400, "JSON object"),
    "JSON nested 3,000 deep": (
        {"content": b'{"q": ' + b"[" * 3000 + b"]" * 3000 + b"}", "headers": {"content-type": "application/json"}},
        400,
        "nested too deeply",
    ),
    "JSON nested 600 deep": (  # deep enough that reading its strings again recursed past the limit
        {"content": b'{"q": ' + b"[" * 600 + b"]" * 600 + b"}", "headers": {"content-type": "application/json"}},
        400,
        "Invalid request",
    ),
    "more alternatives than the server's beam": (
        {"json": {"q": "a0", "source": "sym", "target": "sym", "alternatives": 16}},
        400,
        "alternatives",
    ),
    "binary": ({"content": bytes(range(256)) * 4, "headers": {"content-type": "application/json"}}, 400, "not UTF-8"),
    "too many texts": ({"json": {"q": ["a0"] * 129, "source": "sym", "target": "sym"}}, 413, "text limit (128)"),
    "too many characters": ({"json": {"q": "a0 " * 7000, "source": "sym", "target": "sym"}}, 413, "character limit"),
    "huge body": ({"content": b"q=" + b"a" * 2_000_000}, 413, "body over"),
}


@pytest.mark.integration
@pytest.mark.parametrize("request_args, status, message", BAD_REQUESTS.values(), ids=BAD_REQUESTS.keys())
def test_bad_requests_get_a_4xx_and_the_server_keeps_serving(server, request_args, status, message):
    import httpx

    reply = httpx.post(server.url + "/translate", timeout=30, **request_args)
    assert reply.status_code == status and message in reply.json()["error"]
    assert httpx.post(server.url + "/translate", data={"q": "a0 b1", "source": "sym", "target": "sym"}).json() == {
        "translatedText": "b1 a0"
    }


@pytest.mark.integration
def test_detecting_the_language_of_blank_text_is_a_400(server):
    """/detect of "   " or "?!" had answered "de" at confidence 0 (a newcomer's trial)."""
    import httpx

    for q in ("   ", ["", " "], "?!", "..."):
        reply = httpx.post(server.url + "/detect", json={"q": q})
        assert reply.status_code == 400 and "no words to detect" in reply.json()["error"]


@pytest.mark.integration
def test_a_lone_surrogate_is_read_as_a_replacement_character(server):
    """JSON's "\\udfff" is a string Python cannot encode: answered as it was, it had made a 500."""
    import httpx

    json_body = {"content-type": "application/json"}
    alone = httpx.post(
        server.url + "/translate", content=rb'{"q": "\udfff", "source": "sym", "target": "sym"}', headers=json_body
    )
    assert alone.status_code == 200 and alone.json() == {"translatedText": "\ufffd"}
    language = httpx.post(
        server.url + "/v1/translate", content=rb'{"q": "a0", "source": "sym\ud800", "target": "sym"}', headers=json_body
    )
    assert language.status_code == 400 and "not supported" in language.json()["error"]


@pytest.mark.integration
def test_unknown_routes_and_methods(server):
    import httpx

    assert httpx.get(server.url + "/nowhere").status_code == 404
    assert httpx.get(server.url + "/translate").status_code == 405
    assert "error" in httpx.get(server.url + "/translate").json()
    native = httpx.post(server.url + "/v1/translate", json={"q": "a0", "model": "nothing"})
    assert native.status_code == 400 and "no translate model named 'nothing'" in native.json()["error"]
    beam = httpx.post(server.url + "/v1/translate", json={"q": "a0", "source": "sym", "target": "sym", "beam": 10**9})
    assert (
        beam.status_code == 400 and "beam must be an integer in [1, 16]" in beam.json()["error"]
    )  # the server's bound
    penalty = httpx.post(
        server.url + "/v1/translate", json={"q": "a0", "source": "sym", "target": "sym", "length_penalty": -1}
    )
    assert penalty.status_code == 400 and "length_penalty must be" in penalty.json()["error"]  # the field's name
    # a misspelt setting of attn's own endpoints was ignored with a 200 (LibreTranslate's ignore
    # what they do not read, as LibreTranslate does)
    misspelt = httpx.post(server.url + "/v1/translate", json={"q": "a0", "source": "sym", "target": "sym", "nbest": 3})
    assert misspelt.status_code == 400 and "unknown field 'nbest'; did you mean 'n_best'?" in misspelt.json()["error"]
    assert httpx.post(server.url + "/translate", json={"q": "a0", "source": "sym", "target": "sym", "x": 1}).is_success
    two = httpx.post(
        server.url + "/translate_file",
        data={"source": "sym", "target": "sym"},
        files=[("file", ("a.txt", b"a0")), ("file", ("b.txt", b"b1"))],
    )
    assert two.status_code == 400 and "Too many files" in two.json()["error"]  # it named HTTPException


@pytest.mark.integration
def test_api_keys(reverse_model, tmp_path):
    import httpx

    keys = tmp_path / "keys"
    keys.write_text("# one key per line\nsecret-1\n\nsecret-2\nclé-secrète\n", encoding="utf-8")
    guarded = Server("--models", str(reverse_model), "--api-keys", str(keys))
    try:
        request = {"q": "a0 b1", "source": "sym", "target": "sym"}
        assert httpx.post(guarded.url + "/translate", json=request).status_code == 403
        assert httpx.post(guarded.url + "/translate", json={**request, "api_key": "secret-3"}).json() == {
            "error": "Invalid API key"
        }
        assert httpx.post(guarded.url + "/translate", json={**request, "api_key": "secret-2"}).json() == {
            "translatedText": "b1 a0"
        }
        # non-ASCII keys were a 500 (hmac.compare_digest refuses non-ASCII str)
        assert httpx.post(guarded.url + "/translate", json={**request, "api_key": "secret-\u0131"}).status_code == 403
        assert httpx.post(guarded.url + "/translate", json={**request, "api_key": "clé-secrète"}).json() == {
            "translatedText": "b1 a0"
        }
    finally:
        guarded.stop()


@pytest.mark.integration
def test_sigterm_lets_requests_in_flight_finish(reverse_model):
    import httpx

    running = Server(
        "--models",
        str(reverse_model),
        "--max-batch",
        "1",
        "--max-inputs",
        "1000",
        "--max-chars",
        "100000",
        "--max-queued",
        "5000",
    )
    texts = ["a0 b1 c2 d3 e0 f1 g2 a0 b1 c2"] * 1000

    async def in_flight():
        async with httpx.AsyncClient(timeout=300) as client:

            async def post():
                reply = await client.post(
                    running.url + "/translate", json={"q": texts, "source": "sym", "target": "sym"}
                )
                return reply, time.monotonic()

            pending = [asyncio.create_task(post()) for _ in range(3)]
            # one request decodes (--max-batch 1) while the others wait: signal only then, at any speed
            while (await client.get(running.url + "/health")).json()["queued"] == 0 and not all(
                t.done() for t in pending
            ):
                await asyncio.sleep(0.01)
            running.process.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
            return await asyncio.gather(*pending), signalled

    finished, signalled = asyncio.run(in_flight())
    assert [reply.status_code for reply, _ in finished] == [200] * 3, [reply.text[:200] for reply, _ in finished]
    assert all(len(reply.json()["translatedText"]) == 1000 for reply, _ in finished)
    assert max(at for _, at in finished) > signalled  # at least one was still decoding when the signal came
    # uvicorn finishes, then re-raises the signal it caught: the process ends by SIGTERM, as asked
    assert running.process.wait(timeout=120) in (0, -signal.SIGTERM)
    with pytest.raises(httpx.TransportError):
        httpx.get(running.url + "/health")


class CountingTranslator:
    """Stands in for a LoadedModel: 'translates' by upper-casing and records each batch; with
    `hold`, each decode waits for `release` (so a test knows a batch is decoding, at any speed)."""

    def __init__(self, hold: bool = False):
        self.batches = []
        self.started, self.release = threading.Event(), threading.Event()
        if not hold:
            self.release.set()

    def translate(self, texts, options, batch_size, text_options=None, stop=None):
        self.batches.append(list(texts))
        self.stop = stop
        self.started.set()
        self.release.wait()
        return [[text.upper()] for text in texts]


@pytest.mark.unit
def test_concurrent_requests_share_batches_and_get_their_own_results():
    async def scenario():
        translator = CountingTranslator()
        batcher = DynamicBatcher(translator, max_batch=16, max_wait=0.01)
        batcher.start()
        requests = [[f"r{i} t{j}" for j in range(i % 3 + 1)] for i in range(12)]
        results = await asyncio.gather(*(batcher.translate(texts, SearchOptions()) for texts in requests))
        await batcher.stop()
        return requests, results, translator.batches

    requests, results, batches = asyncio.run(scenario())
    assert results == [[[text.upper()] for text in texts] for texts in requests]
    assert len(batches) < len(requests) and max(len(b) for b in batches) <= 16 + 2


@pytest.mark.unit
def test_a_full_queue_refuses_and_a_timed_out_request_is_dropped():
    async def scenario():
        translator = CountingTranslator(hold=True)
        batcher = DynamicBatcher(translator, max_batch=1, max_wait=0.0, max_queued=3)
        batcher.start()
        first = asyncio.create_task(batcher.translate(["a", "b"], SearchOptions()))
        await asyncio.to_thread(translator.started.wait)  # the first batch is decoding, the queue is empty
        waiting = asyncio.create_task(batcher.translate(["c", "d", "e"], SearchOptions()))
        await asyncio.sleep(0)
        with pytest.raises(Busy):
            await batcher.translate(["f"], SearchOptions())
        with pytest.raises(TimeoutError):  # held, the batcher cannot take it: it times out queued
            await asyncio.wait_for(waiting, 0.01)
        translator.release.set()
        assert await first == [["A"], ["B"]]
        await batcher.stop()
        return translator.batches

    assert asyncio.run(scenario()) == [["a", "b"]]


@pytest.mark.integration
def test_too_many_texts_get_413_and_a_slow_request_503(reverse_model):
    import httpx

    # 1 ms is far below what hundreds of decoder steps take anywhere (one onnxruntime session run
    # alone costs microseconds), so the outcome is not a matter of this machine's speed.
    running = Server("--models", str(reverse_model), "--max-queued", "2", "--timeout", "0.001")
    try:
        request = {"source": "sym", "target": "sym"}
        # more texts than may ever wait: 413, not a 503 whose retry could never succeed (a full
        # queue's 503 is test_a_full_queue_and_a_timed_out_request_is_dropped's)
        too_many = httpx.post(running.url + "/translate", json={**request, "q": ["a0", "b1", "c2"]})
        assert too_many.status_code == 413 and "at most 2" in too_many.json()["error"]
        slow = httpx.post(running.url + "/translate", json={**request, "q": " ".join(["a0 b1 c2 d3"] * 100)})
        assert slow.status_code == 503 and "took longer than 0.001 s" in slow.json()["error"]
        assert httpx.get(running.url + "/health").json()["status"] == "ok"
    finally:
        running.stop()


@pytest.mark.system
def test_detection_with_the_shipped_model():
    import httpx
    from libretranslatepy import LibreTranslateAPI

    running = Server("--models", "en-de", "--models", "fr-en")
    try:
        client = LibreTranslateAPI(running.url)
        assert client.detect("Das Paket enthält die Dokumentation.")[0]["language"] == "de"
        assert client.detect("The package contains the documentation.")[0]["language"] == "en"
        reply = httpx.post(
            running.url + "/translate", json={"q": "The file could not be opened.", "source": "auto", "target": "de"}
        ).json()
        assert reply["detectedLanguage"]["language"] == "en"
        assert reply["translatedText"] == attn("translate", "The file could not be opened.").stdout.decode().strip()
        # a short text is read as `attn translate` reads it: English, into German, unless the identifier
        # is sure of another ("Open File." had been German at 0.48 and come back untranslated)
        short = httpx.post(
            running.url + "/translate", json={"q": "Open File.", "source": "auto", "target": "de"}
        ).json()
        assert short["detectedLanguage"]["language"] == "en" and 0 < short["detectedLanguage"]["confidence"] < 100
        assert short["translatedText"] == attn("translate", "Open File.").stdout.decode().strip() != "Open File."
        # attn's own endpoint reads it so too and says so (the web page had taken /detect's likeliest, German)
        native = httpx.post(
            running.url + "/v1/translate", json={"q": ["Open File."], "source": "auto", "target": "de"}
        ).json()["results"][0]
        assert native["detected_language"] == short["detectedLanguage"]
        assert native["translation"] == short["translatedText"]
        # codes as `attn translate` takes them: in capitals, a locale's ("EN" had been "not supported")
        coded = {"q": "The file could not be opened.", "source": "EN", "target": "de-DE"}
        assert httpx.post(running.url + "/translate", json=coded).json()["translatedText"] == reply["translatedText"]
        # already in the target language: given back as it is, as `attn translate` does; the identifier
        # sure of the whole text ("Speichern unter", read as English, had become "unternommen")
        german = httpx.post(
            running.url + "/translate",
            json={"q": ["Speichern unter", "The file could not be opened."], "source": "auto", "target": "de"},
        ).json()
        assert german["translatedText"] == ["Speichern unter", reply["translatedText"]]
        assert [found["language"] for found in german["detectedLanguage"]] == ["de", "en"]
        italian = httpx.post(
            running.url + "/translate", json={"q": "Questo file non esiste.", "source": "auto", "target": "de"}
        )
        assert italian.status_code == 400 and "it is not supported" in italian.json()["error"]
        assert client.detect("Questo file non esiste.")[0]["language"] == "it"
        # a file is read in one language, as `attn translate -i` reads it: its greeting, read alone,
        # had been French ("Hi Thomas," → "Hallo Tomas,")
        mail = "Hi Thomas,\n\nthanks for your message. I will send the contract to the lawyer tomorrow.\n"
        link = httpx.post(
            running.url + "/translate_file",
            data={"source": "auto", "target": "de"},
            files={"file": ("mail.md", mail.encode())},
        ).json()["translatedFileUrl"]
        greeting = httpx.get(link).text.splitlines()[0]
        assert greeting == attn("translate", "-s", "en", "Hi Thomas,").stdout.decode().strip()
        # read as the target language, a file comes back as it was (its short texts are not read alone)
        same = httpx.post(
            running.url + "/translate_file",
            data={"source": "auto", "target": "en"},
            files={"file": ("mail.md", mail.encode())},
        ).json()["translatedFileUrl"]
        assert httpx.get(same).text == mail
    finally:
        running.stop()
    said = running.process.stderr.read().decode()  # where it serves: uvicorn says nothing with a bound socket
    assert f"attn: serving en-de, fr-en at http://127.0.0.1:{running.port}/ " in said


@pytest.mark.system
def test_a_summary_record_holds_the_headline_and_the_sentences_the_cli_prints():
    import httpx

    article = (
        "The city council approved a new budget on Tuesday. It doubles spending on public transport. "
        "The plan adds three bus lines and extends the tram network to the airport by 2028."
    )
    printed = json.loads(attn("summarize", "-f", "jsonl", stdin=article.encode()).stdout)
    running = Server("--models", "summarize")
    try:
        record = httpx.post(running.url + "/v1/summarize", json={"q": [article]}).json()["results"][0]
        assert (record["summary"], record["sentences"]) == (printed["summary"], printed["sentences"])
        one = httpx.post(running.url + "/v1/summarize", json={"q": article, "sentences": 1}).json()["results"][0]
        assert len(one["sentences"]) == 1 and one["sentences"][0] in printed["sentences"]
        refused = httpx.post(running.url + "/v1/summarize", json={"q": article, "sentences": 0})
        assert refused.status_code == 400 and "sentences" in refused.json()["error"]
        mail = "From: Anna <anna@example.com>\nTo: Bob <bob@example.com>\nSubject: Budget\n\n" + article
        sent = httpx.post(running.url + "/v1/summarize", json={"q": mail}).json()["results"][0]  # runtime/mail.py
        assert (sent["summary"], sent["sentences"]) == (printed["summary"], printed["sentences"])
    finally:
        running.stop()


@pytest.mark.system
def test_the_both_ways_model_serves_both_of_its_directions():
    """fr-en, the both-ways model, also writes French: served alone, it answers en→fr and fr→en."""
    import httpx

    from .conftest import installed_translator

    server = Server("--models", "fr-en")
    try:
        for source, target, sentence in (
            ("en", "fr", "The file could not be opened."),
            ("fr", "en", "Le fichier n'a pas pu être ouvert."),
        ):
            [[expected]] = installed_translator((source, target)).translate([sentence])
            answer = httpx.post(server.url + "/translate", json={"q": sentence, "source": source, "target": target})
            assert answer.status_code == 200 and answer.json() == {"translatedText": expected.text}
    finally:
        server.stop()


@pytest.mark.system
def test_german_and_french_are_translated_through_english():
    """No model translates German ↔ French: /languages offers both pairs and /translate answers
    with what the CLI prints for them (both through English, runtime/router.py)."""
    import httpx

    server = Server("--models", "de-en", "--models", "en-de", "--models", "fr-en")
    try:
        offered = {entry["code"]: entry["targets"] for entry in httpx.get(server.url + "/languages").json()}
        assert "fr" in offered["de"] and "de" in offered["fr"]
        for source, target, sentence in (
            ("de", "fr", "Guten Morgen, wie geht es dir?"),
            ("fr", "de", "Le fichier n'a pas pu être ouvert."),
        ):
            answer = httpx.post(server.url + "/translate", json={"q": sentence, "source": source, "target": target})
            expected = attn("translate", "--from", source, "--to", target, sentence).stdout.decode().strip()
            assert answer.status_code == 200 and answer.json() == {"translatedText": expected}
    finally:
        server.stop()


@pytest.mark.integration
def test_a_port_in_use_is_one_line_before_any_model_loads(reverse_model):
    """uvicorn said so after the models had loaded, and exited 3."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_attn(["serve", "--port", str(port), "--models", str(reverse_model)], timeout=120)
    assert result.returncode == 2 and result.stderr.decode().count("\n") == 1
    assert f"--port {port}: cannot listen there" in result.stderr.decode()


# ---- LibreTranslate's ways of asking ----------------------------------------------------
@pytest.mark.integration
@pytest.mark.parametrize("how", ["json", "form", "multipart", "query string"])
def test_every_way_a_client_sends_its_fields_is_read(server, reverse_model, how):
    from urllib.parse import urlencode

    import httpx

    fields = {"q": "a0 b1 c2", "source": "sym", "target": "sym"}
    repeated = [("q", "a0 b1 c2"), ("q", "d3"), ("source", "sym"), ("target", "sym")]  # Flask reads the first q
    ways = {
        "json": {"json": fields},
        "form": {"content": urlencode(repeated), "headers": {"content-type": "application/x-www-form-urlencoded"}},
        "multipart": {"files": [(name, (None, value)) for name, value in repeated]},
        "query string": {"params": repeated},
    }
    reply = httpx.post(server.url + "/translate", **ways[how])
    assert reply.status_code == 200 and reply.json() == {
        "translatedText": cli_translations(reverse_model, ["a0 b1 c2"])[0]
    }


@pytest.mark.integration
def test_a_text_keeps_its_line_breaks_as_libretranslate_does(server, reverse_model):
    """Paragraphs sent in one q came back run together."""
    import httpx

    reply = httpx.post(server.url + "/translate", json={"q": "a0 b1\n\nc2 d3", "source": "sym", "target": "sym"})
    assert reply.json()["translatedText"].split("\n") == [
        *cli_translations(reverse_model, ["a0 b1"]),
        "",
        *cli_translations(reverse_model, ["c2 d3"]),
    ]


@pytest.mark.integration
def test_html_keeps_its_markup_and_translates_its_sentences_whole(server, reverse_model):
    import httpx
    from bs4 import BeautifulSoup

    html = '<p class="x" lang="en">a0 b1 c2 <b title="a0">d3 e0</b></p><!-- a0 --><script>var a0 = 1;</script>&amp; c2'
    reply = httpx.post(
        server.url + "/translate", json={"q": html, "source": "sym", "target": "sym", "format": "html"}
    ).json()
    expected = cli_translations(reverse_model, ["a0 b1 c2 d3 e0", "& c2", "a0"])
    soup = BeautifulSoup(reply["translatedText"], "html.parser")
    paragraph = soup.find("p")
    # the sentence is translated whole (its words those of the plain translation), the bold
    # element placed within it, its title translated, the comment and the script as they were
    assert paragraph["class"] == ["x"] and paragraph.get_text() == expected[0]
    assert paragraph["lang"] == "sym"  # the language it is in now
    assert [b.attrs for b in soup.find_all("b")] == [{"title": expected[2]}] and soup.find("b").get_text().strip()
    assert "<!-- a0 --><script>var a0 = 1;</script>" in reply["translatedText"]
    assert reply["translatedText"].endswith(expected[1].replace("&", "&amp;"))


@pytest.mark.integration
def test_a_file_is_translated_and_downloaded(server, reverse_model):
    import httpx

    reply = httpx.post(
        server.url + "/translate_file",
        data={"source": "sym", "target": "sym"},
        files={"file": ("notes.txt", b"a0 b1\n\nc2 d3\n")},
    )
    assert reply.status_code == 200
    download = httpx.get(reply.json()["translatedFileUrl"])
    lines = cli_translations(reverse_model, ["a0 b1", "c2 d3"])
    assert (
        download.text == f"{lines[0]}\n\n{lines[1]}\n"
        and 'filename="notes.txt"' in download.headers["content-disposition"]
    )
    wrong = httpx.post(
        server.url + "/translate_file", data={"source": "sym", "target": "sym"}, files={"file": ("notes.xlsx", b"x")}
    )
    assert wrong.status_code == 400 and wrong.json()["error"].startswith("Invalid request: file format not supported")
    assert ".docx" in wrong.json()["error"] and ".srt" in wrong.json()["error"]  # the formats taken are named
    damaged = httpx.post(
        server.url + "/translate_file", data={"source": "sym", "target": "sym"}, files={"file": ("notes.docx", b"x")}
    )
    assert damaged.status_code == 400 and "not a Word document" in damaged.json()["error"]
    assert httpx.get(server.url + "/download_file/..%2F..%2Fetc%2Fpasswd").status_code == 404
    # a name in letters of any script keeps them ("Übersicht Mai.txt" had come back "_bersicht_Mai.txt")
    named = httpx.post(
        server.url + "/translate_file",
        data={"source": "sym", "target": "sym"},
        files={"file": ("Übersicht Mai.txt", b"a0 b1\n")},
    )
    download = httpx.get(named.json()["translatedFileUrl"])
    assert download.status_code == 200 and "%C3%9Cbersicht_Mai.txt" in download.headers["content-disposition"]


@pytest.mark.integration
def test_a_file_is_held_to_its_own_size_limit_and_its_text_to_the_character_limit(server, reverse_model):
    """A Word file with a picture (307 KB) had been refused as a body over --max-chars' 185,536 bytes,
    which `attn translate -i` translated: a file's bytes have --max-file-mb (20 MB by default)."""
    import httpx

    from attn.cli.server.settings import Limits

    page = b"<p>a0 b1</p><!-- " + b"x" * (2 * Limits().max_body_bytes) + b" -->"  # its text: 5 characters
    reply = httpx.post(
        server.url + "/translate_file", data={"source": "sym", "target": "sym"}, files={"file": ("page.html", page)}
    )
    assert reply.status_code == 200
    assert httpx.get(reply.json()["translatedFileUrl"]).text.startswith(
        f"<p>{cli_translations(reverse_model, ['a0 b1'])[0]}</p>"
    )
    too_big = b"x" * (Limits().max_file_bytes + 1)
    over = httpx.post(
        server.url + "/translate_file", data={"source": "sym", "target": "sym"}, files={"file": ("page.html", too_big)}
    )
    assert over.status_code == 413 and "--max-file-mb" in over.json()["error"]
    words = httpx.post(
        server.url + "/translate_file",
        data={"source": "sym", "target": "sym"},
        files={"file": ("notes.txt", b"a0 " * (Limits().max_chars // 2))},
    )
    assert words.status_code == 413 and "exceeds character limit" in words.json()["error"]


@pytest.mark.integration
def test_windows_text_reads_as_plain_text_and_a_file_keeps_its_line_ends(server, reverse_model):
    """A CRLF file lost nothing but came back LF, and "\r" or a BOM in q was
    translated as text."""
    import httpx

    lines = cli_translations(reverse_model, ["a0 b1", "c2 d3"])
    reply = httpx.post(
        server.url + "/translate", json={"q": ["\ufeffa0 b1", "c2 d3\r"], "source": "sym", "target": "sym"}
    )
    assert reply.json() == {"translatedText": [lines[0], lines[1]]}
    body = b'\xef\xbb\xbf{"q": "a0 b1", "source": "sym", "target": "sym"}'  # a BOM before the body, as Notepad saves it
    marked = httpx.post(server.url + "/translate", content=body, headers={"content-type": "application/json"})
    assert marked.status_code == 200 and marked.json() == {"translatedText": lines[0]}
    uploaded = httpx.post(
        server.url + "/translate_file",
        data={"source": "sym", "target": "sym"},
        files={"file": ("notes.txt", b"\xef\xbb\xbfa0 b1\r\n\r\nc2 d3\r\n")},
    )
    download = httpx.get(uploaded.json()["translatedFileUrl"])
    assert download.content.decode("utf-8") == f"\ufeff{lines[0]}\r\n\r\n{lines[1]}\r\n"


@pytest.mark.integration
def test_a_catalog_uploaded_with_a_target_its_language_header_contradicts_is_a_400(server):
    """`attn translate -i` refused to fill a catalog of German (`Language: de`) with another
    language; /translate_file wrote the messages under the header all the same."""
    import httpx

    pytest.importorskip("polib")

    def uploaded(language: str) -> httpx.Response:
        catalog = f'msgid ""\nmsgstr ""\n"Language: {language}\\n"\n\nmsgid "a0 b1"\nmsgstr ""\n'
        files = {"file": ("app.po", catalog.encode())}
        return httpx.post(server.url + "/translate_file", data={"source": "sym", "target": "sym"}, files=files)

    refused = uploaded("de")
    assert refused.status_code == 400 and "app.po is a catalog of de (its Language header), not of sym" in refused.text
    done = uploaded("sym")
    assert done.status_code == 200 and 'msgstr "b1 a0"' in httpx.get(done.json()["translatedFileUrl"]).text


@pytest.mark.integration
def test_html_nested_beyond_the_bound_is_a_400_and_within_it_translates(server):
    import httpx

    from attn.runtime.documents.html import MAX_NESTING

    half = MAX_NESTING // 2
    within = "<div>" * half + "<b>" * half + "a0 b1" + "</b>" * half + "</div>" * half
    beyond = "<b>" * 1000 + "a0" + "</b>" * 1000  # within the size limits, beyond the nesting bound
    for html, status in ((within, 200), (beyond, 400)):
        reply = httpx.post(
            server.url + "/translate", json={"q": html, "source": "sym", "target": "sym", "format": "html"}
        )
        assert reply.status_code == status, reply.text
    assert "deeper than" in reply.json()["error"]


@pytest.mark.integration
def test_a_document_of_more_text_nodes_than_may_wait_is_413_not_a_retry(server):
    """1,025 text nodes got 503 "retry later", which could never succeed."""
    import httpx

    from attn.cli.server.batcher import MAX_QUEUED

    html = "".join(f"<p>a{i % 4}</p>" for i in range(MAX_QUEUED + 1))
    reply = httpx.post(server.url + "/translate", json={"q": html, "source": "sym", "target": "sym", "format": "html"})
    assert reply.status_code == 413 and f"at most {MAX_QUEUED}" in reply.json()["error"]


@pytest.mark.integration
def test_the_endpoints_of_a_front_end(server):
    import httpx

    assert httpx.post(
        server.url + "/suggest", data={"q": "a0", "s": "b1", "source": "sym", "target": "sym"}
    ).json() == {"error": "Suggestions are disabled on this server."}
    settings = httpx.get(server.url + "/frontend/settings").json()
    assert (
        settings["suggestions"] is False
        and settings["filesTranslation"] is True
        and ".txt" in settings["supportedFilesFormat"]
    )
    assert settings["language"]["source"]["code"] == "auto" and settings["charLimit"] > 0
    assert settings["language"]["target"]["code"] == "sym"  # the one target here
    spec = httpx.get(server.url + "/spec").json()
    assert spec["openapi"].startswith("3.") and {"/translate", "/translate_file", "/languages"} <= set(spec["paths"])
    page = httpx.get(server.url + "/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html") and "attn" in page.text
    assert page.headers["x-frame-options"] == "SAMEORIGIN"  # not framed by another site
    assert "frame-ancestors 'self'" in page.headers["content-security-policy"]
    assert httpx.get(server.url + "//languages").json() == httpx.get(server.url + "/languages").json()
    preflight = httpx.options(
        server.url + "/translate", headers={"Origin": "http://example.org", "Access-Control-Request-Method": "POST"}
    )
    assert preflight.status_code == 200 and preflight.headers["access-control-allow-origin"] == "*"


@pytest.mark.integration
def test_expensive_requests_within_the_size_limits_are_refused(server):
    """10,000 emoji are 20,000 characters but 40,000 pieces, and a 120-byte request could ask for
    beam 128 and min_length 1000: both held a model for minutes."""
    import httpx

    emoji = httpx.post(server.url + "/translate", json={"q": "😀" * 10_000, "source": "sym", "target": "sym"})
    assert emoji.status_code == 413 and "budget" in emoji.json()["error"]
    heavy = httpx.post(
        server.url + "/v1/translate",
        json={"q": "a0", "source": "sym", "target": "sym", "beam": 128, "min_length": 1000},
    )
    assert heavy.status_code == 400 and "beam must be an integer in [1, 16], got 128" in heavy.json()["error"]
    assert (
        httpx.post(server.url + "/translate", json={"q": "a0 b1", "source": "sym", "target": "sym"}).status_code == 200
    )


@pytest.mark.unit
def test_a_request_that_times_out_stops_its_decoding():
    """The timeout abandoned the wait, not the work: a decode went on for minutes, and
    SIGTERM then waited a minute for that orphaned decode to end."""

    async def scenario():
        translator = CountingTranslator(hold=True)
        batcher = DynamicBatcher(translator, max_batch=1, max_wait=0.0)
        batcher.start()
        request = asyncio.create_task(batcher.translate(["a"], SearchOptions()))
        await asyncio.to_thread(translator.started.wait)
        assert not translator.stop.is_set()
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(request, 0.01)
        await asyncio.sleep(0)  # the future's callbacks run
        stopped = translator.stop.is_set()
        translator.release.set()
        await batcher.stop()
        return stopped

    assert asyncio.run(scenario())


@pytest.mark.integration
def test_a_stopped_search_ends_at_its_next_step(reverse_model):
    from attn.runtime.decoder_state import SearchStopped
    from attn.runtime.loaded_model import LoadedModel

    stop = threading.Event()
    stop.set()
    with pytest.raises(SearchStopped):
        LoadedModel(reverse_model, threads=1).translate(["a0 b1 c2"], stop=stop)
    # /v1/align's forcing too: a timed-out alignment ends instead of running on
    with pytest.raises(SearchStopped):
        LoadedModel(reverse_model, threads=1).force("a0 b1 c2", "c2 b1 a0", stop=stop)


@pytest.mark.integration
def test_a_loopback_server_answers_only_to_its_own_names(server):
    """Any Host was accepted, which leaves DNS rebinding possible."""
    import httpx

    refused = httpx.get(server.url + "/languages", headers={"Host": "attacker.example:5000"})
    assert (refused.status_code, refused.json()) == (400, {"error": "Invalid host header"})  # had been plain text
    assert httpx.get(server.url.replace("127.0.0.1", "localhost") + "/languages").status_code == 200


@pytest.mark.integration
def test_a_binary_api_keys_file_is_a_usage_error(reverse_model, tmp_path):
    """It was an internal error, exit 1 with a UnicodeDecodeError."""
    (tmp_path / "keys.bin").write_bytes(bytes(range(256)) * 8)
    result = attn("serve", "--models", str(reverse_model), "--api-keys", str(tmp_path / "keys.bin"), check_rc=2)
    assert b"not a UTF-8 text file" in result.stderr and result.stderr.count(b"\n") == 1


@pytest.mark.unit
def test_a_flood_of_accept_errors_is_logged_once_a_minute():
    """Out of file descriptors, the log grew 48 MB in 20 s, one traceback per failed accept()
    ."""
    import logging

    from attn.cli.serve import OncePerMinute

    gate = OncePerMinute("socket.accept() out of system resource")
    records = [
        logging.LogRecord("asyncio", logging.ERROR, "", 0, "socket.accept() out of system resource", None, None)
        for _ in range(1000)
    ]
    other = logging.LogRecord("asyncio", logging.ERROR, "", 0, "something else", None, None)
    assert sum(map(gate.filter, records)) == 1 and gate.filter(other)


@pytest.mark.integration
def test_a_client_trickling_its_headers_is_dropped_and_others_are_served(reverse_model):
    """uvicorn's keep-alive timer restarts with every byte, so a client sending its
    headers a byte at a time held its connection for as long as it liked."""
    import httpx

    running = Server("--models", str(reverse_model), "--header-seconds", "1")
    try:
        slow = socket.create_connection(("127.0.0.1", running.port))
        slow.settimeout(10)
        slow.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        closed = False
        for _ in range(
            300
        ):  # a header byte every 0.1 s, up to 30 s: far past the 1 s deadline however slow the machine
            try:
                slow.sendall(b"a")
                readable, _, _ = select.select([slow], [], [], 0.1)
                closed = bool(readable) and slow.recv(1024) == b""
            except OSError:  # reset by the server
                closed = True
            if closed:
                break
        assert closed  # dropped while it was still trickling
        slow.close()
        # a client that sends its request whole is served, also after a pause on its connection
        with httpx.Client(base_url=running.url) as client:
            assert client.get("/health").status_code == 200
            time.sleep(0.5)
            reply = client.post("/translate", json={"q": "a0 b1", "source": "sym", "target": "sym"})
            assert reply.status_code == 200, reply.text
    finally:
        running.stop()


@pytest.mark.integration
def test_alignments_in_flight_are_bounded_and_timed_out(reverse_model, monkeypatch):
    """Eight concurrent /v1/align requests with long targets all ran for minutes: no timeout, no
    bound on alignments in flight. Now at most ALIGNMENTS_AT_ONCE are computed at once
    (another gets 503 at once) and each gets 503 past --timeout. The computing ones are held
    until they are known to run, so no step depends on how fast the machine is."""
    from concurrent.futures import ThreadPoolExecutor

    from starlette.testclient import TestClient

    from attn.cli.server.app import create_app
    from attn.cli.server.served import ALIGNMENTS_AT_ONCE
    from attn.cli.server.settings import Limits
    from attn.runtime.loaded_model import LoadedModel

    translator = LoadedModel(reverse_model, threads=1)
    release, started = threading.Event(), threading.Semaphore(0)
    force = translator.force

    def held_force(source, target, options=None, stop=None):
        started.release()
        release.wait(60)
        return force(source, target, options, stop)

    monkeypatch.setattr(translator, "force", held_force)
    request = {"source": "a0 b1", "target": "b1 a0", "source_lang": "sym", "target_lang": "sym"}
    with TestClient(create_app([translator], Limits(timeout=5.0))) as client:
        with ThreadPoolExecutor(ALIGNMENTS_AT_ONCE) as pool:
            computing = [pool.submit(client.post, "/v1/align", json=request) for _ in range(ALIGNMENTS_AT_ONCE)]
            for _ in range(ALIGNMENTS_AT_ONCE):
                assert started.acquire(timeout=60)
            refused = client.post("/v1/align", json=request)  # while both are held
            timed_out = [future.result() for future in computing]
            # past their 503s the two still hold their slots until their work ends
            still_held = client.post("/v1/align", json=request)
        release.set()
    assert refused.status_code == 503 and refused.json()["error"].startswith("Slowdown")
    assert still_held.status_code == 503 and still_held.json()["error"].startswith("Slowdown")
    assert all(a.status_code == 503 and "took longer than 5 s" in a.json()["error"] for a in timed_out)


@pytest.mark.integration
def test_a_connection_whose_body_nothing_reads_is_closed_after_its_answer(server):
    """150 connections trickling a body to /suggest (403) or with a foreign Host (400) stayed open
    past every deadline. The server shuts its side after the answer and drops the rest of the body
    for LINGER_SECONDS at most: a client still trickling then finds the connection reset."""
    import socket
    import time

    from attn.cli.server.settings import LINGER_SECONDS

    with socket.create_connection(("127.0.0.1", server.port)) as client:
        client.sendall(b"POST /suggest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n0123456789")
        client.settimeout(10)
        answer = b""
        while chunk := client.recv(4096):  # the whole 403, then the end of the server's side
            answer += chunk
        started, ended = time.monotonic(), False
        while not ended and time.monotonic() - started < LINGER_SECONDS + 10:  # a byte of body every 0.1 s
            try:
                client.sendall(b"x")
                time.sleep(0.1)
            except OSError:  # reset: the server closed it
                ended = True
    assert answer.startswith(b"HTTP/1.1 403") and b"}" in answer
    assert ended and time.monotonic() - started < LINGER_SECONDS + 5


@pytest.mark.integration
def test_a_body_over_the_limit_is_answered_413_and_not_reset(server):
    """Refused at its headers, a 2 MB body was left unread and the connection closed at once: the
    kernel resets such a socket, and a client still sending saw "connection reset" instead of the
    413 (now and then, on a busy machine). The body is now read and dropped until the client closes."""
    import socket

    body = b"q=" + b"a" * 2_000_000
    with socket.create_connection(("127.0.0.1", server.port)) as client:
        client.settimeout(30)
        client.sendall(b"POST /translate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n" % len(body))
        client.sendall(body[:100_000])
        time.sleep(0.5)  # the server answers and ends its side while the body is on its way
        client.sendall(body[100_000:])
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413") and b"body over" in answer


@pytest.mark.integration
def test_a_request_framed_two_ways_is_refused_and_nothing_after_it_answered(server):
    """Content-Length and Transfer-Encoding together were read as chunked and a GET pipelined after
    the body answered: behind a proxy that reads Content-Length, a smuggled request."""
    import socket

    smuggled = (
        b"POST /translate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port)) as client:
        client.sendall(smuggled)
        client.settimeout(10)
        answer = b""
        while chunk := client.recv(4096):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 400") and answer.count(b"HTTP/1.1") == 1


@pytest.mark.integration
def test_pipelined_requests_on_one_connection_are_all_answered(server):
    import socket

    with socket.create_connection(("127.0.0.1", server.port)) as client:
        client.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 2)
        client.settimeout(5)
        answer = b""
        while answer.count(b"HTTP/1.1 200") < 2:
            chunk = client.recv(4096)
            assert chunk, answer  # closed before the second answer
            answer += chunk


@pytest.mark.unit
def test_a_killed_servers_translated_files_are_removed_by_the_next(tmp_path, monkeypatch):
    """A server killed with SIGKILL left /tmp/attn-serve-files-* with users' translations."""
    from attn.cli.server.files import FOLDER_PREFIX, TranslatedFiles

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    abandoned = tmp_path / f"{FOLDER_PREFIX}{int(finished.stdout)}-x1"
    running = tmp_path / f"{FOLDER_PREFIX}{os.getppid()}-x2"
    for folder in (abandoned, running):
        folder.mkdir()
        (folder / "0123.letter.docx").write_bytes(b"a user's translation")
    files = TranslatedFiles()
    try:
        assert not abandoned.exists() and running.is_dir()
        assert files.folder.parent == tmp_path and files.folder.name.startswith(f"{FOLDER_PREFIX}{os.getpid()}-")
    finally:
        files.remove()


@pytest.mark.unit
def test_a_front_end_picks_german_first_as_attn_translate_does():
    from attn.cli.server.libretranslate import front_end_target

    assert front_end_target({"de", "en", "fr"}) == "de"
    assert front_end_target({"en", "fr"}) == "en"
    assert front_end_target({"sym", "x1"}) == "sym" and front_end_target(set()) == "en"
