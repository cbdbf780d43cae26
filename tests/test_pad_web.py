"""The browser pad's endpoints, served by uvicorn on 127.0.0.1: scoring by the engine,
one-line errors, the live-view store and its write token, the offline files."""

from __future__ import annotations

import gzip
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from fivehundred.pad import model
from fivehundred.pad.local import local_server as pad_server
from fivehundred.pad.web import (
    BROWSER_MODULES,
    PadStore,
    offline_files,
    stdlib_bundle,
    stdlib_imports,
    stdlib_modules,
)
from fivehundred.rules import VARIANTS


def call(
    base: str, method: str, path: str, body: Any = None, raw: bytes | None = None
) -> tuple[int, Any, Any]:
    """One request; returns (status, parsed JSON or text, headers)."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            status, payload, headers = response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        status, payload, headers = error.code, error.read(), error.headers
    try:
        text = payload.decode()
    except UnicodeDecodeError:
        return status, payload, headers
    try:
        return status, json.loads(text), headers
    except ValueError:
        return status, text, headers


HANDS: list[dict[str, Any]] = [
    {"kind": "hand", "contract": "8H", "contractor": 1, "tricks": 8},
    {"kind": "hand", "contract": "misere", "contractor": 0, "tricks": 1},
    {"kind": "misdeal"},
    {"kind": "hand", "contract": "7NT", "contractor": 3, "tricks": 10, "revoke": "contractor"},
]


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with pad_server() as url:
        yield url


def a_pad(hands: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    pad = model.new_pad(["Ann", "Bob", "Cat", "Dan"])
    pad["hands"] = list(hands if hands is not None else HANDS)
    return pad


def test_score_is_the_engines(base: str) -> None:
    pad = a_pad()
    status, answer, _ = call(base, "POST", "/api/pad/score", {"pad": pad})
    assert status == 200
    assert answer["result"] == model.score_pad(pad).to_json()
    assert answer["result"]["totals"] == [-230, 80]
    assert (
        answer["result"]["lines"][3]["reasons"][0] == "revoke by the contractor: the contract fails"
    )
    assert answer["needed"] == model.needed_to_win(pad)
    assert [need["contract"] for need in answer["needed"]] == [None, "9NT"]


def test_rules_list_comes_from_the_registry(base: str) -> None:
    status, answer, _ = call(base, "GET", "/api/pad/rules")
    assert status == 200
    presets = {p["name"]: p for p in answer["presets"]}
    names = {v["name"] for v in presets["australian"]["variants"]}
    assert names <= set(VARIANTS)
    assert names == {v["name"] for v in model.scoring_variants("australian")}
    assert presets["five_handed"]["players"] == 5
    status, info, _ = call(
        base,
        "POST",
        "/api/pad/describe",
        {"rules": {"preset": "australian", "variants": {"original_1904": True}}},
    )
    assert status == 200 and info["table"]["rows"][0]["values"] == [40, 80, 120, 160, 200]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"{not json", "must be JSON"),
        (b"[1, 2]", "JSON object"),
        (json.dumps({"pad": 3}).encode(), "'pad' must be a pad object"),
        (json.dumps({"pad": {**a_pad(), "players": ["A"]}}).encode(), "players"),
        (
            json.dumps(
                {"pad": a_pad([{"kind": "hand", "contract": "6S", "contractor": 9, "tricks": 6}])}
            ).encode(),
            "hand 1: the contractor must be one of the 4 players",
        ),
    ],
)
def test_bad_input_gets_a_one_line_error(base: str, body: bytes, message: str) -> None:
    status, answer, _ = call(base, "POST", "/api/pad/score", raw=body)
    assert status == 400
    assert message in answer["error"] and "\n" not in answer["error"]


def test_a_pad_error_says_words_and_gives_the_path_as_data(base: str) -> None:
    hand = {"kind": "hand", "contract": "6S", "contractor": 1, "tricks": 6, "defenders": [4]}
    status, answer, _ = call(base, "POST", "/api/pad/score", {"pad": a_pad([hand])})
    assert status == 400
    assert answer == {
        "error": "hand 1: one side defends: give only the contracting side's tricks",
        "path": "hands[0].defenders",
    }


def test_csv(base: str) -> None:
    status, text, headers = call(base, "POST", "/api/pad/csv", {"pad": a_pad()})
    assert status == 200 and headers["content-type"].startswith("text/csv")
    assert text.splitlines()[1].startswith("1,Ann,hand,8H,Bob,8,,20,300,20,300,")


def test_live_view_needs_the_write_token(base: str) -> None:
    status, shared, _ = call(base, "POST", "/api/pad/share", {"pad": a_pad(HANDS[:1])})
    assert status == 200 and shared["url"] == f"/pad?live={shared['id']}"
    status, view, _ = call(base, "GET", f"/api/pad/share/{shared['id']}")
    assert status == 200 and view["version"] == 1 and view["result"]["totals"] == [20, 300]
    assert "token" not in json.dumps(view)
    status, answer, _ = call(
        base, "PUT", f"/api/pad/share/{shared['id']}", {"pad": a_pad(), "token": "guess"}
    )
    assert status == 403 and "token" in answer["error"]
    status, answer, _ = call(
        base, "PUT", f"/api/pad/share/{shared['id']}", {"pad": a_pad(), "token": shared["token"]}
    )
    assert status == 200 and answer["version"] == 2
    status, view, _ = call(base, "GET", f"/api/pad/share/{shared['id']}")
    assert view["result"]["totals"] == [-230, 80]
    status, answer, _ = call(
        base,
        "PUT",
        f"/api/pad/share/{shared['id']}",
        {"pad": a_pad([{"kind": "nonsense"}]), "token": shared["token"]},
    )
    assert status == 400 and call(base, "GET", f"/api/pad/share/{shared['id']}")[1]["version"] == 2
    assert call(base, "GET", "/api/pad/share/nope")[0] == 404


def test_store_is_bounded() -> None:
    store = PadStore(capacity=3)
    ids = [store.create({"n": n})[0] for n in range(5)]
    assert len(store) == 3
    assert store.get(ids[0]) is None and store.get(ids[4]) == ({"n": 4}, 1)
    pad_id, token = store.create({})
    with pytest.raises(PermissionError):
        store.update(pad_id, token + "x", {})
    assert store.update(pad_id, token, {"n": 9}) == 2


def test_offline_files(base: str) -> None:
    status, text, headers = call(base, "GET", "/pad/sw.js")
    assert status == 200 and headers["Service-Worker-Allowed"] == "/pad"
    assert json.dumps(offline_files()) in text and "__VERSION__" not in text
    for path in offline_files():
        assert call(base, "GET", path)[0] == 200, path
    status, bundle, _ = call(base, "GET", "/pad/brython/engine.js")
    assert bundle.startswith("__BRYTHON__.loadBrythonPackage(")
    for path in BROWSER_MODULES:
        assert json.dumps(path[:-3].replace("/", ".").removesuffix(".__init__")) in bundle
    status, page, _ = call(base, "GET", "/pad")
    assert status == 200 and '<link rel="manifest" href="/pad/manifest.webmanifest">' in page
    status, manifest, _ = call(base, "GET", "/pad/manifest.webmanifest")
    assert manifest["start_url"] == "/pad" and manifest["display"] == "standalone"
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert icon["src"] in offline_files() and call(base, "GET", icon["src"])[0] == 200
    assert call(base, "GET", "/pad/static/../web.py")[0] == 404


def test_the_standard_library_is_cut_to_what_the_engine_imports(base: str) -> None:
    modules = stdlib_modules()
    # what the engine and pad.py import, and what those import when loaded
    for needed in ["json", "json.encoder", "dataclasses", "enum", "functools", "csv", "re"]:
        assert needed in modules, needed
    assert {"bisect", "copy", "random", "typing", "browser", "inspect"} <= set(modules)
    # what only a function's body imports, or nothing of the engine's imports at all
    for unused in ["unittest", "pdb", "email", "asyncio", "_pyrepl", "tarfile", "zipfile"]:
        assert unused not in modules, unused
    assert len(modules) < 120
    status, text, _ = call(base, "GET", "/pad/brython/stdlib.js")
    assert status == 200 and text.encode() == stdlib_bundle()
    scripts = json.loads(text[text.index("{") : text.rindex("__BRYTHON__.update_VFS(")])
    assert scripts == modules
    assert call(base, "GET", "/pad/brython/brython_stdlib.js")[0] == 404


def teststdlib_imports_follow_loading_not_calling() -> None:
    source = (
        "import a,b as c\nlazy import d\nfrom .e import(f,\n g)\ntry:\n import h\n"
        "except ImportError:\n pass\nclass K:\n import i\n def m(self):\n  import j\n"
        "def n():\n import k\nimport l\n"
    )
    found = stdlib_imports("p.q", [".py", source, []])
    assert {"a", "b", "d", "p.e", "p.e.f", "h", "i", "l"} <= found
    assert not {"j", "k", "c"} & found
    # syntax this Python cannot parse (a t-string): read line by line, to the same end
    newer = source + 'x=t"{1}"\n'
    assert stdlib_imports("p.q", [".py", newer, []]) >= {"a", "b", "d", "p.e", "h", "i", "l"}
    assert not {"j", "k"} & stdlib_imports("p.q", [".py", newer, []])
    assert stdlib_imports("array", [".js", "import x"]) == set()


def test_text_is_gzipped_when_accepted(base: str) -> None:
    for path in ["/pad", "/pad/static/app.js", "/pad/brython/engine.js", "/api/pad/rules"]:
        plain = urllib.request.urlopen(base + path, timeout=20)
        body = plain.read()
        assert plain.headers.get("Content-Encoding") is None
        request = urllib.request.Request(base + path, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=20) as packed:
            assert packed.headers["Content-Encoding"] == "gzip", path
            squeezed = packed.read()
        assert gzip.decompress(squeezed) == body and len(squeezed) < len(body) / 2, path
    assert call(base, "GET", "/api/pad/rules")[1] == model.handle("rules", {})
