"""`attn models install`, `available` and `remove` without the internet: a local HTTP server plays
the Hugging Face Hub (its model API and `resolve` URLs, HF_ENDPOINT pointing at it) and Argos's
package index, serving the small Marian checkpoint of tests/tiny_marian.py and an Argos package
CTranslate2 made of it (tests/test_import_argos.py). It can cut a file short or change a byte,
and it records the Range requests it was sent."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("requests")
pytest.importorskip("ctranslate2")

from .forked_cli import run_attn
from .test_import_argos import imported_package  # noqa: E402

pytestmark = pytest.mark.integration
COMMIT = "0123456789abcdef0123456789abcdef01234567"
REPO = "Helsinki-NLP/opus-mt-en-de"
TEXT = "the cat sat on the mat"


class Catalog:
    """What the server serves: files by path, JSON answers by path, and its faults."""

    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.answers: dict[str, object] = {}
        self.cut: dict[str, int] = {}  # path → bytes sent before the connection is closed
        self.ranges: list[str] = []  # the Range headers received
        self.tokens: dict[str, str | None] = {}  # path → the Authorization header it was sent with


class Handler(BaseHTTPRequestHandler):
    catalog: Catalog

    def do_GET(self):  # noqa: N802 (http.server's name)
        path = self.path.split("?")[0]
        self.catalog.tokens[path] = self.headers.get("Authorization")
        if path in self.catalog.answers:
            return self.send(json.dumps(self.catalog.answers[path]).encode(), "application/json")
        if path not in self.catalog.files:
            self.send_error(404)
            return
        data, start = self.catalog.files[path], 0
        etag = f'"{hashlib.sha256(data).hexdigest()[:16]}"'
        wanted = self.headers.get("Range")
        if wanted:
            self.catalog.ranges.append(wanted)
        if wanted and self.headers.get("If-Range", etag) != etag:  # the file changed: all of it
            wanted = None
        if wanted:
            start = int(wanted.removeprefix("bytes=").split("-")[0])
        self.send_response(206 if wanted else 200)
        self.send_header("ETag", etag)
        if wanted:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.send_header("Content-Length", str(len(data) - start))
        self.end_headers()
        self.wfile.write(data[start : self.catalog.cut.pop(path, len(data))])

    def send(self, body: bytes, kind: str):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    catalog = Catalog()
    handler = type("CatalogHandler", (Handler,), {"catalog": catalog})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    # shutdown() waits for the loop's next poll: half a second a test at serve_forever's default
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield catalog, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def argos_package(tiny_marian, tmp_path_factory, worker_id) -> Path:
    """The int8 package of tests/test_import_argos.py."""
    return imported_package(tiny_marian, tmp_path_factory, worker_id, "int8")[0]


def serve_hub(catalog: Catalog, checkpoint: Path, licence: str = "cc-by-4.0") -> None:
    """The checkpoint as the Hub's REPO at COMMIT: the model API with blobs, resolve URLs, the list."""
    siblings = []
    for file in sorted(checkpoint.iterdir()):
        data = file.read_bytes()
        catalog.files[f"/{REPO}/resolve/{COMMIT}/{file.name}"] = data
        sibling = {"rfilename": file.name, "size": len(data)}
        if file.suffix in (".safetensors", ".bin", ".spm"):  # the Hub's LFS files carry their SHA-256
            sibling["lfs"] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        siblings.append(sibling)
    catalog.answers[f"/api/models/{REPO}"] = {
        "id": REPO,
        "sha": COMMIT,
        "siblings": siblings,
        "cardData": {"license": licence},
    }
    catalog.answers["/api/models"] = [
        {"id": REPO},
        {"id": "Helsinki-NLP/opus-mt-en-fr"},
        {"id": "Helsinki-NLP/opus-mt-mul-en"},
    ]


def serve_index(catalog: Catalog, base: str, package: Path) -> str:
    """An Argos index listing `package` (en→de), served with it; returns the index's URL."""
    catalog.files[f"/packages/{package.name}"] = package.read_bytes()
    catalog.answers["/index.json"] = [
        {
            "package_version": "0.1",
            "from_code": "en",
            "to_code": "de",
            "links": [f"{base}/packages/{package.name}", "ipfs://nothing"],
            "code": "translate-en_de",
        },
        {
            "package_version": "1.0",
            "from_code": "en",
            "to_code": "fr",
            "links": [f"{base}/nowhere"],
            "code": "translate-en_fr",
        },
    ]
    return f"{base}/index.json"


def run(home: Path, *args: str, endpoint: str = "http://127.0.0.1:9", check_rc: int | None = 0):
    """`attn ARGS` with its data folder `home` and the Hub at `endpoint`."""
    env = {**os.environ, "ATTN_HOME": str(home), "HF_ENDPOINT": endpoint, "NO_PROXY": "127.0.0.1,localhost"}
    result = run_attn([*args], timeout=600, env=env)
    if check_rc is not None:
        assert result.returncode == check_rc, result.stderr.decode()
    return result


def test_an_opus_mt_model_installs_and_translates_as_its_import_does(server, tiny_marian, tmp_path):
    catalog, base = server
    serve_hub(catalog, tiny_marian)
    installed = run(tmp_path, "models", "install", "opus-mt:en-de", endpoint=base)
    assert "installed opus-mt:en-de as opus-mt-en-de" in installed.stderr.decode()
    assert "licence cc-by-4.0" in installed.stderr.decode()
    folder = tmp_path / "models" / "opus-mt-en-de"
    assert (folder / "manifest.json").is_file() and not (tmp_path / "downloads" / "opus-mt-en-de").exists()
    records = json.loads(run(tmp_path, "models", "--format", "json").stdout)
    record = next(r for r in records if r["name"] == "opus-mt-en-de")
    assert (record["source"], record["licence"], record["picked_for"]) == ("opus-mt:en-de", "cc-by-4.0", [["en", "de"]])
    # picked by language pair before the shipped en-de, and the same model as `attn import marian` makes
    picked = run(tmp_path, "translate", "--from", "en", "--to", "de", "-f", "pharaoh", TEXT).stdout
    run(
        tmp_path,
        "import",
        "marian",
        str(tiny_marian),
        "--out",
        str(tmp_path / "imported"),
        "--from",
        "en",
        "--to",
        "de",
    )
    assert picked == run(tmp_path, "translate", "-m", str(tmp_path / "imported"), "-f", "pharaoh", TEXT).stdout
    assert "-" in picked.decode().split("|||")[-1]  # the alignment links
    for name in ("opus-mt:en-de", REPO):  # known to be there without the network (the Hub at a closed port)
        assert "opus-mt:en-de is installed" in run(tmp_path, "models", "install", name).stderr.decode()
    again = run(tmp_path, "models", "install", "opus-mt:en-de", "--int8").stderr.decode()
    assert "in fp32; `attn models remove opus-mt:en-de` first" in again
    assert run(tmp_path, "translate", "-m", "opus-mt:en-de", "-f", "pharaoh", TEXT).stdout == picked
    shutil.copytree(tmp_path / "imported", tmp_path / "models" / "mine")  # placed by hand: never removed
    hand_placed = run(tmp_path, "models", "remove", "mine", check_rc=2)
    assert "not installed by `attn models install`" in hand_placed.stderr.decode()
    assert (tmp_path / "models" / "mine" / "manifest.json").is_file()
    run(tmp_path, "models", "remove", "opus-mt:en-de")
    assert not folder.exists()


def test_an_interrupted_download_resumes_where_it_stopped(server, tiny_marian, tmp_path):
    catalog, base = server
    serve_hub(catalog, tiny_marian)
    weights = f"/{REPO}/resolve/{COMMIT}/model.safetensors"
    size = len(catalog.files[weights])
    catalog.cut[weights] = size // 2
    stopped = run(tmp_path, "models", "install", "en-de", endpoint=base, check_rc=2)
    error = stopped.stderr.decode().strip().splitlines()[-1]
    assert error.startswith("attn: error: ") and "the same command resumes it" in error and "Traceback" not in error
    part = tmp_path / "downloads" / "opus-mt-en-de" / "model.safetensors.part"
    kept = part.stat().st_size  # the whole reads that came before the cut
    assert size // 4 < kept <= size // 2
    run(tmp_path, "models", "install", "en-de", endpoint=base)
    assert catalog.ranges == [f"bytes={kept}-"]
    assert (tmp_path / "models" / "opus-mt-en-de" / "manifest.json").is_file()


def test_a_file_changed_since_its_download_began_is_downloaded_afresh(server, argos_package, tmp_path):
    """The part of the old file is not completed with the new file's tail: If-Range."""
    catalog, base = server
    index = serve_index(catalog, base, argos_package)
    link = f"/packages/{argos_package.name}"
    catalog.cut[link] = len(catalog.files[link]) // 2
    run(tmp_path, "models", "install", "argos:en-de", "--index", index, check_rc=2)
    with zipfile.ZipFile(argos_package) as original, zipfile.ZipFile(tmp_path / "new.zip", "w") as changed:
        for info in original.infolist():  # the same package, stored uncompressed: other bytes
            changed.writestr(info.filename, original.read(info), compress_type=zipfile.ZIP_STORED)
    catalog.files[link] = (tmp_path / "new.zip").read_bytes()
    run(tmp_path, "models", "install", "argos:en-de", "--index", index)
    assert len(catalog.ranges) == 1 and (tmp_path / "models" / "argos-en-de" / "manifest.json").is_file()


def test_the_hub_token_goes_to_the_hub_only(server, tiny_marian, argos_package, tmp_path, monkeypatch):
    catalog, base = server
    serve_hub(catalog, tiny_marian)
    index = serve_index(catalog, base.replace("127.0.0.1", "localhost"), argos_package)
    monkeypatch.setenv("HF_TOKEN", "hf_secret")
    run(tmp_path, "models", "available", "--index", index.replace("127.0.0.1", "localhost"), endpoint=base)
    run(tmp_path, "models", "install", "argos:en-de", "--index", index.replace("127.0.0.1", "localhost"))
    assert catalog.tokens["/api/models"] == "Bearer hf_secret"
    assert catalog.tokens["/index.json"] is None and catalog.tokens[f"/packages/{argos_package.name}"] is None


@pytest.mark.parametrize(
    "answer", [{"siblings": None}, {"siblings": [{"rfilename": ["x"]}]}, {"siblings": "x"}, [], "text"]
)
def test_a_malformed_hub_answer_is_one_line(server, tmp_path, answer):
    catalog, base = server
    catalog.answers[f"/api/models/{REPO}"] = answer
    refused = run(tmp_path, "models", "install", "opus-mt:en-de", endpoint=base, check_rc=2)
    assert refused.stderr.startswith(b"attn: error: ") and refused.stderr.count(b"\n") == 1


def test_a_corrupted_download_is_refused_and_deleted(server, tiny_marian, tmp_path):
    catalog, base = server
    serve_hub(catalog, tiny_marian)
    weights = f"/{REPO}/resolve/{COMMIT}/model.safetensors"
    data = bytearray(catalog.files[weights])
    data[len(data) // 2] ^= 0xFF  # the same length, one byte changed
    catalog.files[weights] = bytes(data)
    refused = run(tmp_path, "models", "install", "opus-mt:en-de", endpoint=base, check_rc=2)
    assert "not the one the source declares" in refused.stderr.decode() and refused.stderr.count(b"\n") == 1
    assert not list((tmp_path / "downloads" / "opus-mt-en-de").glob("model.safetensors*"))
    assert not (tmp_path / "models" / "opus-mt-en-de").exists()


def test_an_argos_package_installs_from_the_index_in_int8_and_is_listed(server, argos_package, tmp_path):
    catalog, base = server
    index = serve_index(catalog, base, argos_package)
    listed = run(tmp_path, "models", "available", "--source", "argos", "--index", index).stdout.decode()
    assert listed.splitlines() == ["name\tfrom\tto\tversion", "argos:en-de\ten\tde\t0.1", "argos:en-fr\ten\tfr\t1.0"]
    without_hub = run(tmp_path, "models", "available", "--index", index)  # the Hub at a closed port
    assert (
        without_hub.stdout.decode() == listed
        and "listed without opus-mt: http://127.0.0.1:9" in without_hub.stderr.decode()
    )
    offline = run(tmp_path, "models", "available", "--index", "http://127.0.0.1:9/index.json", check_rc=2)
    assert offline.stderr.decode().count("127.0.0.1:9") == 2 and offline.stderr.count(b"without a network") == 1
    run(tmp_path, "models", "install", "argos:en-de", "--int8", "--index", index)
    records = json.loads(run(tmp_path, "models", "--format", "json").stdout)
    record = next(r for r in records if r["name"] == "argos-en-de")
    assert record["architecture"]["precision"] == "int8" and record["source"] == "argos:en-de"
    assert run(tmp_path, "translate", "-m", "argos-en-de", "-f", "jsonl", TEXT).stdout.strip()
    shipped = run(tmp_path, "models", "remove", "en-de", check_rc=2)
    assert "shipped with attn" in shipped.stderr.decode()
    for path in ("../../etc", "/etc"):  # a path had been answered with the install names' help
        named = run(tmp_path, "models", "remove", path, check_rc=2).stderr.decode()
        assert named.count("\n") == 1 and "is not an installed model's name" in named


def test_a_hostile_package_is_refused_before_anything_is_installed(server, argos_package, tmp_path):
    catalog, base = server
    hostile = tmp_path / "hostile" / argos_package.name
    hostile.parent.mkdir()
    with zipfile.ZipFile(argos_package) as original, zipfile.ZipFile(hostile, "w") as copy:
        for info in original.infolist():
            copy.writestr(info, original.read(info))
        copy.writestr("../../outside.txt", "escaped")
    index = serve_index(catalog, base, hostile)
    refused = run(tmp_path / "home", "models", "install", "argos:en-de", "--index", index, check_rc=2)
    assert "points out of the package's folder" in refused.stderr.decode() and refused.stderr.count(b"\n") == 1
    assert not (tmp_path / "home" / "models" / "argos-en-de").exists() and not (tmp_path / "outside.txt").exists()


def test_a_name_that_does_not_exist_suggests_the_nearest(server, tmp_path):
    catalog, base = server
    catalog.answers["/api/models"] = [{"id": REPO}, {"id": "Helsinki-NLP/opus-mt-en-fr"}]
    refused = run(tmp_path, "models", "install", "opus-mt:en-dee", endpoint=base, check_rc=2)
    message = refused.stderr.decode()
    assert (
        message.startswith("attn: error: no model 'opus-mt:en-dee'; the nearest: opus-mt:en-de")
        and message.count("\n") == 1
    )
    malformed = run(tmp_path, "models", "install", "english-german", endpoint=base, check_rc=2)
    assert "is not a model name" in malformed.stderr.decode()


def test_without_a_network_the_error_names_the_url_and_the_alternative(tmp_path):
    refused = run(tmp_path, "models", "install", "opus-mt:en-de", check_rc=2)  # the Hub at a closed port
    message = refused.stderr.decode()
    assert message.count("\n") == 1 and "http://127.0.0.1:9/api/models/" in message and "attn import" in message


def test_serve_installs_what_is_missing_on_its_first_start(server, tiny_marian, tmp_path, monkeypatch):
    import httpx

    from .test_serve import Server

    catalog, base = server
    serve_hub(catalog, tiny_marian)
    monkeypatch.setenv("ATTN_HOME", str(tmp_path))
    monkeypatch.setenv("HF_ENDPOINT", base)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    running = Server("--install", "opus-mt:en-de", "--models", "opus-mt-en-de")
    try:
        answer = httpx.post(running.url + "/translate", json={"q": TEXT, "source": "en", "target": "de"}, timeout=60)
    finally:
        running.stop()
    assert answer.status_code == 200 and answer.json()["translatedText"]
    expected = run(tmp_path, "translate", "-m", "opus-mt-en-de", TEXT).stdout.decode().strip()
    assert answer.json()["translatedText"] == expected
