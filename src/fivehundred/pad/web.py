"""The browser score pad: a FastAPI ``router`` with the ``/pad`` page, its static files,
the web-app manifest and service worker, the scoring endpoints and the live view.

Include it in any FastAPI app (``app.include_router(router)``); it needs nothing else
of the server. Paths:

=====================================  ==================================================
``GET /pad``                           the pad (one page; ``/pad?live=ID`` the live view)
``GET /pad/static/NAME``               its script, style sheet and icon
``GET /pad/manifest.webmanifest``      the installable web app's manifest
``GET /pad/sw.js``                     the service worker (scope ``/pad``)
``GET /pad/brython/engine.js``         the engine's scoring modules as a Brython package,
                                       run in the browser when the server cannot be reached
``GET /pad/brython/stdlib.js``         the part of Brython's standard library those
                                       modules and ``pad.py`` import
``GET /pad/brython/brython.js``        Brython itself (from the ``brython`` package)
``GET /api/pad/rules``                 presets, and each preset's scoring variants
``POST /api/pad/describe``             ``{"rules"}`` → seats, sides, contracts, bid table
``POST /api/pad/score``                ``{"pad"}`` → every hand's points, totals, reasons,
                                       dealer, winner, and what each side needs to win
``POST /api/pad/csv``                  ``{"pad"}`` → the pad as CSV
``POST /api/pad/share``                ``{"pad"}`` → ``{"id", "token"}``: a live view
``PUT /api/pad/share/ID``              ``{"pad", "token"}`` → the new version
``GET /api/pad/share/ID``              ``{"pad", "result", "version"}`` (read only)
=====================================  ==================================================

Bad input gets status 400 and ``{"error": "one line"}``: the words a person reads, and
with a pad that cannot be scored ``"path"`` too, where in the pad (``hands[1].defenders``).
The page's files, the rules and the service worker are gzipped for a client that
accepts it.
"""

from __future__ import annotations

import ast
import functools
import gzip
import hashlib
import json
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from fivehundred.errors import FiveHundredError
from fivehundred.pad import model

STATIC = Path(__file__).parent / "static"
ENGINE_DIR = Path(model.__file__).parent.parent


def _module_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            # ``from fivehundred import words``: the submodule too (a name that is not a
            # module has no file and is skipped by browser_modules).
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def browser_modules(start: str = "fivehundred.pad.model") -> dict[str, Path | None]:
    """The engine modules the page runs in the browser (Brython) when offline: the pad
    model and every ``fivehundred`` module it imports, followed to the end, so that a new
    import in the engine is carried along. Packages' ``__init__`` are served empty (None),
    so the browser loads nothing else of the package."""
    found: dict[str, Path | None] = {}
    todo = [start]
    while todo:
        name = todo.pop()
        parts = name.split(".")
        key = "/".join(parts) + ".py"
        path = ENGINE_DIR.parent.joinpath(*parts).with_suffix(".py")
        if key in found or not path.is_file():
            continue
        for depth in range(1, len(parts)):
            found.setdefault("/".join(parts[:depth]) + "/__init__.py", None)
        found[key] = path
        todo += sorted(m for m in _module_imports(path) if m.split(".")[0] == "fivehundred")
    return dict(sorted(found.items()))


BROWSER_MODULES = browser_modules()

# Brython's standard library uses ``lazy import`` (loaded on first use: followed all the
# same, as the engine may use them) and syntax newer than this Python's parser (t-strings):
# for a module ``ast`` cannot read, its imports are found line by line.
_LAZY = re.compile(r"^(\s*)lazy (?=import\b|from\b)", re.MULTILINE)
_IMPORT_LINE = re.compile(
    r"^\s*(?:lazy\s+)?(?:import\s+([\w., ]+)|from\s+(\.*)([\w.]*)\s+import\b\s*([\w, ]*))"
)
_DEF_LINE = re.compile(r"^\s*(?:async\s+)?def\s")


def _absolute(module: str, level: int, package: str) -> str:
    if not level:
        return module
    parts = package.split(".")[: len(package.split(".")) - level + 1]
    return ".".join([*parts, module] if module else parts)


def stdlib_imports(name: str, entry: list[Any]) -> set[str]:
    """The modules a module of Brython's standard library (``name``, its entry in
    ``brython_stdlib.js``) imports when it is loaded: every import outside a function's
    body, lazy ones included. A function's imports run only if it is called; one the
    engine does call would show in the browser tests, which run the engine in the page."""
    if entry[0] != ".py":
        return set()
    package = name if len(entry) > 3 else name.rpartition(".")[0]
    source: str = entry[1]
    found: set[str] = set()
    try:
        tree = ast.parse(_LAZY.sub(r"\1", source))
    except SyntaxError:
        functions: list[int] = []  # the indents of the functions the line is in
        for line in source.splitlines():
            indent = len(line) - len(line.lstrip())
            if not line.strip():
                continue
            while functions and indent <= functions[-1]:
                functions.pop()
            if _DEF_LINE.match(line):
                functions.append(indent)
            elif not functions and (match := _IMPORT_LINE.match(line)):
                modules, dots, module, names = match.groups()
                if modules is not None:
                    found.update(m.split()[0] for m in modules.split(",") if m.strip())
                else:
                    base = _absolute(module, len(dots), package)
                    found.add(base)
                    found.update(f"{base}.{n.split()[0]}" for n in names.split(",") if n.strip())
        return found

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = _absolute(child.module or "", child.level, package)
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in child.names)
            visit(child)

    visit(tree)
    return found


def _brython_data(name: str) -> bytes:
    return (resources.files("brython") / "data" / name).read_bytes()


@functools.cache
def stdlib_modules() -> dict[str, Any]:
    """The part of Brython's standard library (``brython_stdlib.js``, 5 MB) the page
    needs: the modules that ``pad.py`` and the engine modules it runs import, followed
    through the standard library to the end (what ``brython-cli make_modules`` does for
    an application). Entries as in ``brython_stdlib.js``, its ``$timestamp`` kept."""
    text = _brython_data("brython_stdlib.js").decode("utf-8")
    start, end = text.index("{"), text.rindex("__BRYTHON__.update_VFS(")
    vfs: dict[str, Any] = json.loads(text[start:end].strip().rstrip(";"))
    todo = sorted(_module_imports(STATIC / "pad.py"))
    for path in BROWSER_MODULES.values():
        if path is not None:
            todo += sorted(_module_imports(path))
    kept: dict[str, Any] = {"$timestamp": vfs["$timestamp"]}
    while todo:
        name = todo.pop()
        if name in kept or name not in vfs or name == "$timestamp":
            continue
        kept[name] = vfs[name]
        parts = name.split(".")
        todo += [".".join(parts[:depth]) for depth in range(1, len(parts))]
        todo += sorted(stdlib_imports(name, vfs[name]))
    return kept


@functools.cache
def stdlib_bundle() -> bytes:
    """``stdlib_modules`` as a script in the format of ``brython_stdlib.js``."""
    scripts = json.dumps(stdlib_modules(), sort_keys=True)
    text = (
        f"__BRYTHON__.use_VFS = true;\nvar scripts = {scripts}\n__BRYTHON__.update_VFS(scripts)\n"
    )
    return text.encode("utf-8")


STATIC_FILES = {
    "app.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "pad.py": "text/x-python; charset=utf-8",
    "icon.svg": "image/svg+xml",
    "icon-192.png": "image/png",
    "icon-512.png": "image/png",
}
BRYTHON_FILES = ("brython.js", "stdlib.js", "engine.js")
MAX_BODY = 512 * 1024
NO_CACHE = {"Cache-Control": "no-cache"}

router = APIRouter()


class BadRequest(ValueError):
    """Input the pad refuses; the message is the one line sent back."""


def _error(message: str, status: int = 400, path: str = "") -> JSONResponse:
    body = {"error": message.splitlines()[0] if message else "bad request"}
    if path:
        body["path"] = path  # where in the pad (``hands[1].defenders``), for programs
    return JSONResponse(body, status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadRequest(f"the request is larger than {MAX_BODY // 1024} KiB")
    try:
        data = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError):
        raise BadRequest("the request body must be JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def _pad_of(body: Mapping[str, Any]) -> dict[str, Any]:
    pad = body.get("pad")
    if not isinstance(pad, dict):
        raise BadRequest("'pad' must be a pad object")
    return pad


def score_response(pad: Mapping[str, Any]) -> dict[str, Any]:
    """What ``POST /api/pad/score`` answers: the scored pad and what each side needs."""
    answer: dict[str, Any] = model.handle("score", {"pad": pad})
    return answer


# --------------------------------------------------------------------------- the store
@dataclass
class SharedPad:
    pad: dict[str, Any]
    token: str
    version: int
    updated: float


class PadStore:
    """Shared pads for the live view, in memory and bounded.

    Each shared pad has a random id (read access: anyone with the link) and a write
    token (only the phone that shared it may update it); tokens come from ``secrets``
    and are compared in constant time. At most ``capacity`` pads are kept; the least
    recently written goes first. Every method takes and returns plain JSON-able values,
    so a database-backed store can replace this one with the same four methods (a table
    ``shared_pad(id primary key, token, version, updated, pad json)``)."""

    def __init__(self, capacity: int = 500) -> None:
        self.capacity = capacity
        self._pads: OrderedDict[str, SharedPad] = OrderedDict()
        self._lock = threading.Lock()

    def create(self, pad: dict[str, Any]) -> tuple[str, str]:
        """Store a new shared pad; returns ``(id, token)``."""
        with self._lock:
            pad_id = secrets.token_urlsafe(9)
            while pad_id in self._pads:
                pad_id = secrets.token_urlsafe(9)
            token = secrets.token_urlsafe(24)
            self._pads[pad_id] = SharedPad(pad, token, 1, time.time())
            while len(self._pads) > self.capacity:
                self._pads.popitem(last=False)
            return pad_id, token

    def update(self, pad_id: str, token: str, pad: dict[str, Any]) -> int:
        """Replace a shared pad; returns the new version. KeyError: no such pad;
        PermissionError: wrong token."""
        with self._lock:
            shared = self._pads[pad_id]
            if not secrets.compare_digest(shared.token.encode(), token.encode()):
                raise PermissionError("wrong token for this shared pad")
            shared.pad = pad
            shared.version += 1
            shared.updated = time.time()
            self._pads.move_to_end(pad_id)
            return shared.version

    def get(self, pad_id: str) -> tuple[dict[str, Any], int] | None:
        """The pad and its version, or None."""
        with self._lock:
            shared = self._pads.get(pad_id)
            return None if shared is None else (shared.pad, shared.version)

    def __len__(self) -> int:
        return len(self._pads)


store = PadStore()


# --------------------------------------------------------------------------- pages
@functools.lru_cache(maxsize=64)
def _gzipped(raw: bytes) -> bytes:
    return gzip.compress(raw, 9, mtime=0)


def _send(
    raw: bytes, media_type: str, request: Request, headers: Mapping[str, str] | None = None
) -> Response:
    """The bytes, gzipped where the client accepts it (text of more than 1 KiB)."""
    sent = {**NO_CACHE, **(headers or {}), "Vary": "Accept-Encoding"}
    packable = len(raw) > 1024 and not media_type.startswith("image/png")
    if packable and "gzip" in request.headers.get("accept-encoding", ""):
        sent["Content-Encoding"] = "gzip"
        return Response(_gzipped(raw), media_type=media_type, headers=sent)
    return Response(raw, media_type=media_type, headers=sent)


def _file(path: Path, media_type: str, request: Request) -> Response:
    return _send(path.read_bytes(), media_type, request)


@router.get("/pad", include_in_schema=False)
@router.get("/pad/", include_in_schema=False)
def pad_page(request: Request) -> Response:
    return _file(STATIC / "index.html", "text/html; charset=utf-8", request)


@router.get("/pad/static/{name}", include_in_schema=False)
def pad_static(name: str, request: Request) -> Response:
    media_type = STATIC_FILES.get(name)
    if media_type is None:
        return _error(f"no such file: {name}", 404)
    return _file(STATIC / name, media_type, request)


@router.get("/pad/manifest.webmanifest", include_in_schema=False)
def pad_manifest(request: Request) -> Response:
    return _file(STATIC / "manifest.webmanifest", "application/manifest+json", request)


def offline_files() -> list[str]:
    """Every path the service worker keeps for offline use."""
    return [
        "/pad",
        "/pad/manifest.webmanifest",
        *(f"/pad/static/{name}" for name in STATIC_FILES),
        *(f"/pad/brython/{name}" for name in BRYTHON_FILES),
        "/api/pad/rules",
    ]


def offline_version() -> str:
    """Changes whenever a kept file changes, so that the service worker renews them."""
    digest = hashlib.sha256()
    kept = [STATIC / "index.html", STATIC / "manifest.webmanifest"]
    kept += [STATIC / name for name in STATIC_FILES]
    kept += [path for path in BROWSER_MODULES.values() if path is not None]
    for path in kept:
        digest.update(path.read_bytes())
    digest.update(metadata.version("brython").encode())
    digest.update(stdlib_bundle())
    return digest.hexdigest()[:16]


@router.get("/pad/sw.js", include_in_schema=False)
def pad_service_worker(request: Request) -> Response:
    text = (STATIC / "sw.js").read_text(encoding="utf-8")
    text = text.replace("__VERSION__", offline_version())
    text = text.replace("__FILES__", json.dumps(offline_files()))
    headers = {"Service-Worker-Allowed": "/pad"}
    return _send(text.encode("utf-8"), "text/javascript; charset=utf-8", request, headers)


def engine_bundle() -> str:
    """The engine's modules as one Brython package (``__BRYTHON__.loadBrythonPackage``,
    the format of ``brython-cli make_package``), so that the page imports them without
    a request per module."""
    vfs: dict[str, Any] = {"$timestamp": 0}
    for path, source in BROWSER_MODULES.items():
        name = path[: -len(".py")].replace("/", ".")
        if name.endswith(".__init__"):
            vfs[name[: -len(".__init__")]] = [".py", "", [], 1]
            continue
        assert source is not None
        text = source.read_text(encoding="utf-8")
        vfs[name] = [".py", text, sorted(_module_imports(source))]
    return f"__BRYTHON__.loadBrythonPackage({json.dumps(vfs)});\n"


@functools.cache
def _brython_js() -> bytes:
    return _brython_data("brython.js")


@router.get("/pad/brython/{name}", include_in_schema=False)
def pad_brython(name: str, request: Request) -> Response:
    media_type = "text/javascript; charset=utf-8"
    if name == "engine.js":
        return _send(engine_bundle().encode("utf-8"), media_type, request)
    if name == "stdlib.js":
        return _send(stdlib_bundle(), media_type, request)
    if name == "brython.js":
        return _send(_brython_js(), media_type, request, {"Cache-Control": "max-age=86400"})
    return _error(f"no such file: {name}", 404)


# --------------------------------------------------------------------------- the API
def _guard(handler: Any) -> Any:
    """Turn bad input into a one-line 400 error."""
    import functools

    @functools.wraps(handler)
    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return await handler(*args, **kwargs)
        except (BadRequest, FiveHundredError) as error:
            return _error(str(error), path=getattr(error, "path", ""))

    return wrapped


@functools.cache
def _rules_json() -> bytes:
    return json.dumps(model.handle("rules", {}), ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8"
    )


@router.get("/api/pad/rules")
def pad_rules_list(request: Request) -> Response:
    return _send(_rules_json(), "application/json", request)


@router.post("/api/pad/describe")
@_guard
async def pad_describe(request: Request) -> Any:
    body = await _body(request)
    return model.handle("describe", body)


@router.post("/api/pad/score")
@_guard
async def pad_score(request: Request) -> Any:
    return model.handle("score", await _body(request))


@router.post("/api/pad/csv")
@_guard
async def pad_csv(request: Request) -> Any:
    text = model.handle("csv", await _body(request))["csv"]
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="pad.csv"'},
    )


@router.post("/api/pad/share")
@_guard
async def pad_share(request: Request) -> Any:
    pad = _pad_of(await _body(request))
    model.score_pad(pad)
    pad_id, token = store.create(pad)
    return {"id": pad_id, "token": token, "version": 1, "url": f"/pad?live={pad_id}"}


@router.put("/api/pad/share/{pad_id}")
@_guard
async def pad_share_update(pad_id: str, request: Request) -> Any:
    body = await _body(request)
    pad = _pad_of(body)
    token = body.get("token")
    if not isinstance(token, str):
        raise BadRequest("'token' must be the shared pad's write token")
    model.score_pad(pad)
    try:
        version = store.update(pad_id, token, pad)
    except KeyError:
        return _error("no such shared pad (the server may have restarted: share again)", 404)
    except PermissionError as error:
        return _error(str(error), 403)
    return {"id": pad_id, "version": version}


@router.get("/api/pad/share/{pad_id}")
def pad_share_get(pad_id: str) -> Any:
    found = store.get(pad_id)
    if found is None:
        return _error("no such shared pad", 404)
    pad, version = found
    try:
        scored = score_response(pad)
    except FiveHundredError as error:
        return _error(str(error), path=getattr(error, "path", ""))
    return {"id": pad_id, "version": version, "pad": pad, **scored}
