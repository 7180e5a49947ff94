"""Where public models come from, and what a name given to `attn models install` means.

- `argos:en-de`: the newest Argos Translate package from en to de in Argos's package index (a
  JSON list of packages, each with its languages, version and download links: ARGOS_INDEX, or the
  URL or file that `--index` or the `ATTN_ARGOS_INDEX` variable names).
- `opus-mt:en-de`: the Hugging Face Hub's `Helsinki-NLP/opus-mt-en-de` (a Marian checkpoint).
- `ORG/NAME`: any Hub repository holding a Marian checkpoint (installed as `hf--ORG--NAME`).
- `en-de`: the DEFAULT_SOURCE's model for that pair.
The Hub is `https://huggingface.co` unless `HF_ENDPOINT` names another, as for the Hub's own
client; `HF_TOKEN`, where set, is sent to it. A Hub model's files are listed with their sizes and
the SHA-256 of each large one (the Hub's model API with `blobs=true`); an Argos index gives neither,
so a package is checked by its length and its zip's CRCs.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from attn.export.install.download import TIMEOUT, DownloadError, Remote, request_failed

ARGOS_INDEX = "https://raw.githubusercontent.com/argosopentech/argospm-index/main/index.json"
ARGOS_INDEX_VARIABLE = "ATTN_ARGOS_INDEX"
HUB = "https://huggingface.co"
OPUS_MT = "Helsinki-NLP"  # the Hub organization of the OPUS-MT models
DEFAULT_SOURCE = "opus-mt"  # `attn models install en-de`: the best of the two on general text (docs/import.md)
SOURCES = ("opus-mt", "argos")
PAIR = re.compile(r"([a-z]{2,3}(?:_[a-zA-Z]+)?)-([a-z]{2,3}(?:_[a-zA-Z]+)?)")
REPO = re.compile(r"[A-Za-z0-9][\w.-]{0,95}/[A-Za-z0-9][\w.-]{0,95}")
# A Marian checkpoint's files (export/importers/marian.py), and the weights, the first one listed.
MARIAN_FILES = ("config.json", "source.spm", "target.spm", "vocab.json")
MARIAN_OPTIONAL = ("tokenizer_config.json",)
MARIAN_WEIGHTS = ("model.safetensors", "pytorch_model.bin")
NEAREST = 5  # names suggested for one that does not exist
MOST_PAGES = 100  # of the Hub's model list (1,000 models a page)
COMMIT = re.compile(r"[0-9a-f]{40}")
SHA256 = re.compile(r"[0-9a-fA-F]{64}")


@dataclass(frozen=True)
class Package:
    """A public model to install: its name (`opus-mt:en-de`), the importer that converts it
    (`marian` or `argos`), the folder it installs as, its languages where the source names them,
    its version, the files to download, its licence and its page."""

    name: str
    importer: str
    folder: str
    source_lang: str | None
    target_lang: str | None
    version: str
    files: list[Remote] = field(default_factory=list)
    licence: str | None = None
    page: str | None = None


def hub_endpoint() -> str:
    return os.environ.get("HF_ENDPOINT", HUB).rstrip("/")


def hub_session():
    """A requests session for the Hub and Argos's links; HF_TOKEN, where set, goes only to the Hub."""
    import requests

    session = requests.Session()
    session.headers["User-Agent"] = "attn (models install)"
    token = os.environ.get("HF_TOKEN")
    if token:
        session.auth = HubToken(token)
    return session


class HubToken:
    """requests' auth hook: `Authorization: Bearer TOKEN` on requests to the Hub's host only (an
    Argos index may name any host; requests drops the header itself on a redirect elsewhere)."""

    def __init__(self, token: str):
        self.token = token

    def __call__(self, request):
        if urlsplit(request.url).netloc == urlsplit(hub_endpoint()).netloc:
            request.headers["Authorization"] = f"Bearer {self.token}"
        return request


@dataclass(frozen=True)
class Wanted:
    """What a name asks for, known without the network: the source (`opus-mt`, `argos`, or `hub`
    for a repository id), the pair or the repository, and the folder it installs as."""

    name: str
    kind: str
    folder: str
    source_lang: str | None = None
    target_lang: str | None = None
    repo: str | None = None


def wanted(name: str) -> Wanted:
    """Read `name` (`opus-mt:en-de`, `argos:en-de`, `en-de`, `ORG/NAME`); a DownloadError if it is
    none of them. Helsinki-NLP's repository of a pair is that pair's `opus-mt` name."""
    kind, _, rest = name.partition(":") if ":" in name else ("", "", name)
    opus_mt_repo = PAIR.fullmatch(rest.removeprefix(f"{OPUS_MT}/opus-mt-")) if rest.startswith(f"{OPUS_MT}/") else None
    if not kind and opus_mt_repo:
        kind, rest = "opus-mt", opus_mt_repo.group(0)
    if not kind and REPO.fullmatch(rest):
        organization, repository = rest.split("/")
        return Wanted(rest, "hub", f"hf--{organization}--{repository}", repo=rest)
    kind = kind or DEFAULT_SOURCE
    pair = PAIR.fullmatch(rest)
    if kind not in SOURCES or not pair:
        raise DownloadError(
            f"{name!r} is not a model name: give SOURCE:FROM-TO (sources: {', '.join(SOURCES)}; e.g. "
            f"opus-mt:en-de), FROM-TO (from {DEFAULT_SOURCE}) or a Hugging Face repository ORG/NAME"
        )
    source, target = pair.groups()
    repo = f"{OPUS_MT}/opus-mt-{source}-{target}" if kind == "opus-mt" else None
    return Wanted(f"{kind}:{source}-{target}", kind, f"{kind}-{source}-{target}", source, target, repo)


def find(name: str, session, index: str | None = None) -> Package:
    """The package `name` stands for (`index`: Argos's index, argos_index's default when None); a
    DownloadError naming the nearest names when none does."""
    asked = wanted(name)
    if asked.kind == "argos":
        return argos_package(asked, session, index)
    return hub_package(asked, session)


def available(session, sources=SOURCES, index: str | None = None, notify=lambda note: None) -> list[Package]:
    """Every package of the `sources`, without their files: Argos's index, and the OPUS-MT models
    the Hub lists. A source that cannot be read is a note to `notify` when another can; when none
    can, a DownloadError naming each."""
    listings = {
        "argos": lambda: [argos_entry(entry) for entry in argos_index(session, index)],
        "opus-mt": lambda: [opus_mt_entry(repo) for repo in opus_mt_repos(session)],
    }
    packages, failures = [], []
    for source in sources:
        try:
            packages += listings[source]()
        except DownloadError as error:
            failures.append(f"{source}: {error}")
    if failures and len(failures) == len(sources):
        advice = [f"; {OFFLINE_ADVICE}"] if any(failure.endswith(OFFLINE_ADVICE) for failure in failures) else []
        raise DownloadError(
            "; ".join(failure.removesuffix(f"; {OFFLINE_ADVICE}") for failure in failures) + "".join(advice)
        )
    for failure in failures:
        notify(f"listed without {failure}")
    return [package for package in packages if package is not None]


# Argos Translate's index


def argos_index(session, where: str | None = None) -> list[dict]:
    """The translation packages of Argos's index at `where`, a URL or a file (default: the
    ATTN_ARGOS_INDEX variable's, else ARGOS_INDEX)."""
    where = where or os.environ.get(ARGOS_INDEX_VARIABLE) or ARGOS_INDEX
    if not where.startswith(("http://", "https://")):
        try:
            text = Path(where).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise DownloadError(f"{where}: cannot read Argos's index ({error})") from None
    else:
        text = get(session, where).text
    try:
        entries = json.loads(text)
    except json.JSONDecodeError as error:
        raise DownloadError(f"{where}: not an Argos package index (not JSON: {error})") from None
    if not isinstance(entries, list):
        raise DownloadError(f"{where}: not an Argos package index (not a JSON list)")
    return [
        entry
        for entry in entries
        if isinstance(entry, dict) and entry.get("type", "translate") == "translate" and entry.get("from_code")
    ]


def argos_entry(entry: dict) -> Package | None:
    """A package of the index as a Package (its first http(s) link as the file to download); None
    for an entry that is not a well-formed package of one pair."""
    source, target, links = entry.get("from_code"), entry.get("to_code"), entry.get("links")
    if not isinstance(source, str) or not isinstance(target, str) or not isinstance(links, list):
        return None
    links = [link for link in links if isinstance(link, str) and link.startswith(("http://", "https://"))]
    if not links or not PAIR.fullmatch(f"{source}-{target}"):
        return None
    licence = entry.get("license")
    return Package(
        name=f"argos:{source}-{target}",
        importer="argos",
        folder=f"argos-{source}-{target}",
        source_lang=source,
        target_lang=target,
        version=str(entry.get("package_version", ""))[:40],
        files=[Remote(links[0], "package.argosmodel")],
        licence=licence if isinstance(licence, str) else None,
        page="https://github.com/argosopentech/argospm-index",
    )


def argos_package(asked: Wanted, session, index: str | None) -> Package:
    packages = [package for package in map(argos_entry, argos_index(session, index)) if package is not None]
    found = [package for package in packages if package.name == asked.name]
    if not found:
        raise not_found(asked.name, [package.name for package in packages])
    return max(found, key=lambda package: version_key(package.version))


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) if part.isdigit() else -1 for part in version.split("."))


# The Hugging Face Hub


def hub_package(asked: Wanted, session) -> Package:
    """A Marian checkpoint in the Hub repository `asked.repo`: its files with the sizes and
    SHA-256s the Hub declares, at the repository's current commit."""
    answer = get(session, f"{hub_endpoint()}/api/models/{asked.repo}?blobs=true", missing_ok=True)
    if answer is None:
        raise not_found(asked.name, opus_mt_names(session) if asked.kind == "opus-mt" else [])
    info = json_of(answer)
    listed = info.get("siblings") if isinstance(info, dict) else None
    if not isinstance(listed, list):
        raise DownloadError(f"{answer.url}: not the Hub's description of a model")
    siblings = {
        sibling["rfilename"]: sibling
        for sibling in listed
        if isinstance(sibling, dict) and isinstance(sibling.get("rfilename"), str)
    }
    weights = next((name for name in MARIAN_WEIGHTS if name in siblings), None)
    missing = [name for name in MARIAN_FILES if name not in siblings]
    if weights is None or missing:
        raise DownloadError(
            f"{hub_endpoint()}/{asked.repo}: not a Marian checkpoint (it lacks "
            f"{', '.join(missing + ([] if weights else [' or '.join(MARIAN_WEIGHTS)]))})"
        )
    commit = info.get("sha") if isinstance(info.get("sha"), str) and COMMIT.fullmatch(info["sha"]) else "main"
    wanted_files = [*MARIAN_FILES, *(name for name in MARIAN_OPTIONAL if name in siblings), weights]
    card = info.get("cardData") if isinstance(info.get("cardData"), dict) else {}
    licence = card.get("license")
    return Package(
        name=asked.name,
        importer="marian",
        folder=asked.folder,
        source_lang=asked.source_lang,
        target_lang=asked.target_lang,
        version=commit[:12],
        files=[hub_remote(asked.repo, commit, siblings[name]) for name in wanted_files],
        licence=licence if isinstance(licence, str) else None,
        page=f"{hub_endpoint()}/{asked.repo}",
    )


def hub_remote(repo: str, commit: str, sibling: dict) -> Remote:
    """One file of a Hub repository at `commit`, with the size and (a large file's) SHA-256 the
    Hub declares, where they are well-formed."""
    name = sibling["rfilename"]
    lfs = sibling.get("lfs") if isinstance(sibling.get("lfs"), dict) else {}
    size = lfs.get("size", sibling.get("size"))
    digest = lfs.get("sha256")
    return Remote(
        f"{hub_endpoint()}/{repo}/resolve/{commit}/{name}",
        name,
        size if isinstance(size, int) and not isinstance(size, bool) and size >= 0 else None,
        digest.lower() if isinstance(digest, str) and SHA256.fullmatch(digest) else None,
    )


def opus_mt_repos(session) -> list[str]:
    """The ids of the Hub's OPUS-MT repositories (the model list, page by page, each page once)."""
    url, seen, repos = f"{hub_endpoint()}/api/models?author={OPUS_MT}&search=opus-mt-&limit=1000", set(), []
    while url and url not in seen and len(seen) < MOST_PAGES:
        seen.add(url)
        answer = get(session, url)
        listed = json_of(answer)
        if not isinstance(listed, list):
            raise DownloadError(f"{answer.url}: not the Hub's list of models")
        repos += [model.get("id") for model in listed if isinstance(model, dict)]
        url = answer.links.get("next", {}).get("url")
    return [repo for repo in repos if isinstance(repo, str)]


def opus_mt_names(session) -> list[str]:
    """The `opus-mt:` names of the Hub's list, or none when the list cannot be had (the names
    only help a message)."""
    try:
        return [package.name for package in map(opus_mt_entry, opus_mt_repos(session)) if package]
    except DownloadError:
        return []


def opus_mt_entry(repo: str) -> Package | None:
    """An OPUS-MT repository of one pair as a Package (without its files); None for the others
    (multilingual groups, Tatoeba-challenge names)."""
    pair = PAIR.fullmatch(repo.removeprefix(f"{OPUS_MT}/opus-mt-"))
    if not repo.startswith(f"{OPUS_MT}/opus-mt-") or not pair:
        return None
    source, target = pair.groups()
    return Package(f"opus-mt:{source}-{target}", "marian", f"opus-mt-{source}-{target}", source, target, "")


# HTTP

OFFLINE_ADVICE = (
    "without a network, download the model elsewhere and convert it with `attn import marian FOLDER` "
    "or `attn import argos FILE`"
)


def get(session, url: str, missing_ok: bool = False):
    """The answer to a GET of `url` (None for a 404 or 401 when `missing_ok`); a DownloadError
    naming the URL when there is no network or the server refuses."""
    import requests

    try:
        answer = session.get(url, timeout=TIMEOUT)
    except (requests.ConnectionError, requests.Timeout) as error:
        raise DownloadError(f"{url}: cannot be reached ({type(error).__name__}); {OFFLINE_ADVICE}") from None
    except requests.RequestException as error:
        raise request_failed(url, error) from None
    if missing_ok and answer.status_code in (401, 404):
        return None
    if answer.status_code != 200:
        raise DownloadError(f"{url}: the server answered HTTP {answer.status_code} {answer.reason}")
    return answer


def json_of(answer):
    try:
        return answer.json()
    except ValueError:
        raise DownloadError(f"{answer.url}: the answer is not JSON") from None


def not_found(name: str, known: list[str]) -> DownloadError:
    nearest = difflib.get_close_matches(name, known, n=NEAREST, cutoff=0.6)
    hint = f"; the nearest: {', '.join(nearest)}" if nearest else "; `attn models available` lists them"
    return DownloadError(f"no model {name!r}{hint}")
