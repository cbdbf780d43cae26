"""The shape of the code: no module reaches another's private names, and no file or function
grows past the sizes of ``pyproject.toml`` (``[tool.fivehundred.size]``). (The layers
themselves are import-linter's contracts, run by ``make lint``.)"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "fivehundred"


def modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The module an ``ImportFrom`` names, relative imports resolved."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def allowed(importer: str, owner: str) -> bool:
    """A private name of ``owner`` is the business of ``owner`` and of the modules of the
    package ``owner`` is (its own private submodules, a C kernel)."""
    return importer == owner or importer.startswith(owner + ".")


def private_uses(module: str, path: Path, known: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    aliases: dict[str, str] = {}  # a name bound to another of our modules
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = absolute(module, path, node)
            if not source.startswith("fivehundred"):
                continue
            for alias in node.names:
                bound = alias.asname or alias.name
                if f"{source}.{alias.name}" in known:
                    aliases[bound] = f"{source}.{alias.name}"
                if is_private(alias.name) and not allowed(module, source):
                    found.append(f"{path}:{node.lineno}: {alias.name} from {source}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("fivehundred") and alias.asname:
                    aliases[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and is_private(node.attr)
            and not allowed(module, aliases[node.value.id])
        ):
            found.append(f"{path}:{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_no_module_reaches_another_modules_private_names() -> None:
    known = {name for name, _ in modules()}
    found = [use for name, path in modules() for use in private_uses(name, path, known)]
    assert not found, "private names used across modules:\n" + "\n".join(found)


def test_the_check_of_private_names_sees_both_kinds_of_reach(tmp_path: Path) -> None:
    """It fails on a private name imported and on one reached through a module."""
    path = tmp_path / "accounts.py"
    path.write_text(
        "from fivehundred.web.server import _client\n"
        "from fivehundred.web import history\n"
        "history._pool()\n"
        "from fivehundred.solver import _kernel\n",
        encoding="utf-8",
    )
    known = {"fivehundred.web.history", "fivehundred.solver._kernel"}
    found = private_uses("fivehundred.web.accounts", path, known)
    assert [use.split(": ")[1] for use in found] == [
        "_client from fivehundred.web.server",
        "_kernel from fivehundred.solver",
        "history._pool",
    ]
    assert private_uses("fivehundred.solver.engine", path, known)[1:] == found[2:]


def sizes() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return dict(tomllib.load(file)["tool"]["fivehundred"]["size"])


def function_lengths(path: Path) -> Iterator[tuple[str, int]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name, node.end_lineno - node.lineno + 1  # type: ignore[operator]


def test_no_file_or_function_grows_past_its_size() -> None:
    limits = sizes()
    files: dict[str, int] = limits["files"]  # type: ignore[assignment]
    functions: dict[str, int] = limits["functions"]  # type: ignore[assignment]
    over: list[str] = []
    for _, path in modules():
        name = str(path.relative_to(PACKAGE))
        lines = len(path.read_text(encoding="utf-8").splitlines())
        cap = files.get(name, limits["file_lines"])
        if lines > cap:  # type: ignore[operator]
            over.append(f"{name}: {lines} lines, at most {cap}")
        for function, length in function_lengths(path):
            key = f"{name}:{function}"
            cap = max(functions.get(key, 0), limits["function_lines"])  # type: ignore[type-var]
            if length > cap:  # type: ignore[operator]
                over.append(f"{key}: {length} lines, at most {cap}")
    assert not over, "split these (pyproject.toml, [tool.fivehundred.size]):\n" + "\n".join(over)


def test_the_listed_exceptions_are_still_needed() -> None:
    """An exception that no longer applies leaves the list (the limits only tighten)."""
    limits = sizes()
    files: dict[str, int] = limits["files"]  # type: ignore[assignment]
    functions: dict[str, int] = limits["functions"]  # type: ignore[assignment]
    stale: list[str] = []
    for name, cap in files.items():
        path = PACKAGE / name
        lines = len(path.read_text(encoding="utf-8").splitlines()) if path.exists() else 0
        if lines <= limits["file_lines"] or lines < cap:  # type: ignore[operator]
            stale.append(f"{name}: {lines} lines now (listed: {cap})")
    for key, cap in functions.items():
        name, function = key.rsplit(":", 1)
        path = PACKAGE / name
        lengths = [n for f, n in function_lengths(path) if f == function] if path.exists() else []
        length = max(lengths, default=0)
        if length <= limits["function_lines"] or length < cap:  # type: ignore[operator]
            stale.append(f"{key}: {length} lines now (listed: {cap})")
    assert not stale, "lower or drop these in pyproject.toml:\n" + "\n".join(stale)
