"""The repository stands on its own: every relative link in the README and docs/ resolves
inside it (anchors too), every rule id the code cites has its place in docs/rules.md, and
no file points outside the repository or speaks of anything but the project."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {
    ".git",
    ".venv",
    "build",
    "dist",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    "node_modules",
}
TEXT_SUFFIXES = {".py", ".md", ".toml", ".cfg", ".txt", ".json", ".yml", ".yaml", ".svg", ""}
#: The directory beside the repository that nothing may lean on (spelled in pieces, so
#: that this file does not name it).
OUTSIDE = "/".join(["..", "shared"])

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def _files() -> list[Path]:
    found = []
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if parts & SKIP_DIRS or any(p.endswith(".egg-info") for p in parts):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES:
            found.append(path)
    return found


def _markdown() -> list[Path]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return pages + sorted((ROOT / "tests" / "data").glob("*.md"))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    found = set(HTML_ANCHOR.findall(text))
    for line in text.splitlines():
        if line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found


def links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)  # code spans are not links
    return [a or b for a, b in LINK.findall(text)]


@pytest.mark.parametrize("page", _markdown(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    assert page.exists()
    for target in links(page):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        destination = (page.parent / path_part).resolve() if path_part else page
        assert destination.exists(), f"{page.name}: broken link {target}"
        assert ROOT in destination.parents or destination == ROOT, f"{page.name}: {target}"
        if anchor and destination.suffix == ".md":
            assert anchor in anchors(destination), f"{page.name}: no anchor #{anchor}"


def test_slug_follows_github() -> None:
    assert slug("1. The packs (R-PACK)") == "1-the-packs-r-pack"
    assert slug("Hand record: `fivehundred-hand/1`") == "hand-record-fivehundred-hand1"


def test_every_rule_id_in_the_code_has_its_place_in_the_rule_book() -> None:
    cited: set[str] = set()
    for path in (ROOT / "src").rglob("*.py"):
        cited |= set(re.findall(r"\bR-[A-Z0-9]+\b", path.read_text(encoding="utf-8")))
    assert {"R-PLAY", "R-JOKER", "R-DEAL", "R-BID"} <= cited
    book = anchors(ROOT / "docs" / "rules.md")
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in sorted(cited):
        assert rule in book, f"{rule} has no anchor in docs/rules.md"
        assert re.search(rf"^#+ .*\({rule}\)", text, re.M), f"{rule} has no heading"


def test_the_rule_book_has_every_section() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^## (\d+)\. ", text, re.M)]
    assert numbers == list(range(1, 13))
    for variant in (
        "pack45",
        "two_jokers",
        "deal_3_4_3",
        "raise_after_passes",
        "inkle",
        "misere_anytime",
        "open_misere_520",
        "blind_misere",
        "eldest_leads",
        "allpass_play_nt",
        "joker_lead_not_renounced",
        "misere_defenders_score",
        "point_spread",
        "partner_announces",
        "half_each",
        "teams_of_two",
        "dead_hand",
        "open_eight",
        "draw_pack",
        "j5_no_trumps",
        "hi_lo",
        "double_misere",
        "shields_double",
        "patastrophe",
        "wilkinson_misere",
        "slam_call",
        "split_colours",
        "ralphing",
        "no_defender_points",
        "failed_to_opponents",
        "exact_target",
        "highest_wins",
        "minus_500_needs_other_positive",
        "claim",
        "french_canadian",
    ):
        assert f"`{variant}`" in text, variant


def test_nothing_leans_on_files_outside_the_repository() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in _files()
        if OUTSIDE in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert offenders == []


def test_texts_speak_of_the_project() -> None:
    pattern = re.compile(r"\bissues? #?\d+|\bCEO\b|\bthe brief\b", re.I)
    offenders = []
    for path in _files():
        if path.suffix == ".json" or path == Path(__file__):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def test_the_restore_stops_every_server_of_the_database() -> None:
    """The guide runs several servers as ``fivehundred@PORT`` units: a restore that stops
    only ``fivehundred`` leaves them writing into the database being restored."""
    guide = (ROOT / "docs" / "deploy.md").read_text()
    restore = guide.split("## Backups and restore", 1)[1].split("\n## ", 1)[0]
    stops = [line for line in restore.splitlines() if "systemctl stop" in line]
    assert "fivehundred@" in guide and stops
    assert all("'fivehundred@*'" in line for line in stops), stops
    assert restore.index("systemctl stop") < restore.index("dropdb")
