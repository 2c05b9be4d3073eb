"""The docs a family and a maintainer read: every link and picture in them points at a file that
is there, inside the repository, and every #anchor at a heading of that file; every script they
tell you to run is in the repository; nothing outside it is named; and every guide gives the
same answer to "which Raspberry Pi OS"."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted(doc for doc in {*ROOT.glob("*.md"), *ROOT.glob("*/*.md")}
              if not doc.relative_to(ROOT).parts[0].startswith("."))     # not .pytest_cache
LINK = re.compile(r"\]\(([^)\s]+)\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*<?([^>\s]+)>?", re.M)   # [name]: target
HTML = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"", re.I)


def links(text: str) -> list[str]:
    """Where a Markdown text's links and pictures point: inline, by reference, or in HTML."""
    return [*LINK.findall(text), *REFERENCE.findall(text), *HTML.findall(text)]


def test_links_finds_every_kind_of_link() -> None:
    text = ('[a](x.md#h) ![b](docs/screens/p.png)\n[ref]: y.md#top\n'
            '<img src="z.png" alt="z"> <a href="w.md">w</a>\n')
    assert links(text) == ["x.md#h", "docs/screens/p.png", "y.md#top", "z.png", "w.md"]


FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1", re.M | re.S)
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$", re.M)


def slug(heading: str) -> str:
    """A heading's anchor by GitHub's rules: the text as shown (a link's words, no tags),
    lower case, every character but letters, digits, `_`, `-` and spaces dropped, spaces made
    `-`."""
    shown = re.sub(r"<[^>]+>", "", re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading))
    return re.sub(r"[^\w\- ]", "", shown.strip().lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors GitHub makes of a Markdown file's headings: not of a `#` line inside a
    fenced code block; a heading met again gets -1, -2... in order."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCE.sub("", text)):
        base = slug(heading)
        anchor = base if base not in seen else f"{base}-{seen[base]}"
        seen[base] = seen.get(base, 0) + 1
        found.add(anchor)
    return found


def test_anchors_follow_githubs_rules() -> None:
    text = ("# Cobra (Normandy 1944)\n## A, b\n### A, b\n## `x` y ##\n"
            "## See [the README](../README.md)\n```sh\n# not a heading\n```\n#no space\n")
    assert anchors(text) == {"cobra-normandy-1944", "a-b", "a-b-1", "x-y", "see-the-readme"}


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_and_picture_is_there(doc: Path) -> None:
    broken = []
    for target in links(doc.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):                  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        dest = (doc.parent / file).resolve() if file else doc
        if not dest.is_relative_to(ROOT):
            broken.append(f"{target}: outside the repository")
        elif not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest.read_text()):
            broken.append(f"{target}: no such heading")
    assert not broken, f"{doc.relative_to(ROOT)}: {broken}"


# --- what a doc tells you to run ---

CODE_BLOCK = re.compile(r"^(?: {4,}|\t)(.+)$", re.M)      # an indented block's line
INLINE = re.compile(r"`([^`\n]+)`")
COMMAND_SEPARATOR = re.compile(r"&&|\|\||[;|]|\$ ")
# Words before the program a command runs (`sudo -u cobi env X=1 python3 -X importtime ...`).
RUNNERS = {"sudo", "env", "python3", "python", "bash", "sh", "exec", "time", "nice", "runuser"}
TAKES_A_VALUE = {"-u", "-g", "-C"}
SCRIPT = re.compile(r"(?:\.{1,2}/)+\S+|[\w.-]+(?:/[\w.-]+)*\.(?:sh|py)")


def programs(snippet: str) -> list[tuple[str, bool]]:
    """The program each command of a line of code runs, and whether a runner came before it
    (`sudo`, `python3`, `.venv/bin/python`...)."""
    found = []
    for command in COMMAND_SEPARATOR.split(snippet):
        skip_value = run = False
        for word in command.split():
            if skip_value:
                skip_value = False
            elif word in TAKES_A_VALUE:
                skip_value = True
            elif word in RUNNERS or word.endswith(("/python", "/python3")):
                run = True
            elif not (word.startswith("-") or "=" in word):
                found.append((word, run))
                break
    return found


def runs_in(text: str) -> set[str]:
    """The scripts of the repository a doc's code runs: `systemd/install.sh`, `./x`,
    `bench/device.py` after python3, `../x/y.sh`; at the start of a command in a code block, or
    after a runner (or as ./x) in inline code, where a bare `ports/pages.py` names a file."""
    found = set()
    for snippets, inline in ((CODE_BLOCK.findall(text), False), (INLINE.findall(text), True)):
        for snippet in snippets:
            for program, run in programs(snippet):
                if SCRIPT.fullmatch(program) and (not inline or run
                                                  or program.startswith(".")):
                    found.add(program)
    return found


def test_runs_finds_the_scripts_of_a_command_line() -> None:
    text = ("    sudo systemd/install.sh --uart\n    git pull && sudo ../x/y.sh\n"
            "`.venv/bin/python bench/device.py --quick`, `sudo -u cobi env A=1 ./z.sh`, "
            "`python3 -m pytest tests/a.py`, `/opt/cobi/venv/bin/cobi-companion`, "
            "`ports/pages.py`, `install.sh`, `python3 run.py test`\n    2477/side 4/4\n")
    assert runs_in(text) == {"systemd/install.sh", "../x/y.sh", "bench/device.py", "./z.sh",
                             "run.py"}


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_script_a_doc_runs_is_in_the_repository(doc: Path) -> None:
    """Commands are run from the project's root (the docs say so, or `cd` into it first)."""
    missing = []
    for program in runs_in(doc.read_text(encoding="utf-8")):
        path = (ROOT / program).resolve()
        if not path.is_relative_to(ROOT) or not path.is_file():
            missing.append(program)
    assert not missing, f"{doc.relative_to(ROOT)} runs what the repository lacks: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_doc_names_a_place_outside_the_repository(doc: Path) -> None:
    """The project's own working folders (the rules texts, the notes) are not a reader's."""
    text = doc.read_text(encoding="utf-8")
    named = re.findall(r"(?:\.\./)+shared\S*|/work/\S*|\bshared/(?:tools|notes|seeds)\S*", text)
    assert not named, f"{doc.relative_to(ROOT)}: {named}"


# --- the Raspberry Pi install, as every guide tells it ---

ANSWER = "Raspberry Pi OS Bookworm or Trixie (Lite is enough), 64-bit recommended, 32-bit works"
INSTALL_GUIDES = ("README.md", "docs/pi.md", "systemd/README.md", "hardware/README.md")
CLONE = "git clone https://github.com/<owner>/cobi-companion.git"
OTHER_RELEASE = re.compile(r"\b(?:raspbian|jessie|stretch|buster|bullseye|forky|duke)\b", re.I)
# "Bookworm or later", "from Bookworm on", "Trixie only": not the answer.
LOOSER = re.compile(r"\b(?:bookworm|trixie)\W+(?:or|and) (?:later|newer|above|up)\b"
                    r"|\bfrom (?:bookworm|trixie) on\b|\b(?:bookworm|trixie) (?:onwards?|only)\b",
                    re.I)


def prose(doc: Path) -> str:
    """A doc's text with its lines joined and emphasis dropped, as a reader reads it."""
    return " ".join(doc.read_text(encoding="utf-8").replace("**", "").split())


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_guide_gives_one_answer_to_which_raspberry_pi_os(doc: Path) -> None:
    text = prose(doc)
    assert not OTHER_RELEASE.findall(text), f"{doc.relative_to(ROOT)} names another release"
    assert not LOOSER.findall(text), f"{doc.relative_to(ROOT)}: not the answer: {ANSWER}"
    if str(doc.relative_to(ROOT)) in INSTALL_GUIDES:
        assert ANSWER in text, f"{doc.relative_to(ROOT)} does not say which: {ANSWER}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_clone_installs_git_first_and_names_the_address_as_a_placeholder(
        doc: Path) -> None:
    lines = [line.strip() for line in doc.read_text(encoding="utf-8").splitlines()]
    clones = [n for n, line in enumerate(lines) if "git clone" in line]
    assert bool(clones) == (str(doc.relative_to(ROOT)) in INSTALL_GUIDES)
    for n in clones:
        assert lines[n].startswith(CLONE), lines[n]
        assert "sudo apt install -y git" in lines[:n], f"{doc.relative_to(ROOT)}: no git first"


# --- the README a family reads, and the pages behind it ---

README = ROOT / "README.md"
MOST_README_LINES = 400
# The two commands, as a family types them (.ci/run runs the second), each with its comment.
TWO_COMMANDS = ["python3 run.py", "python3 run.py test"]
README_SECTIONS = ("Two commands", "Your first battle", "Playing the games", "The Easy level",
                   "The Tank Game", "Cobra", "On a Raspberry Pi", "Where the rest is")


def test_the_readme_is_short_enough_to_read_to_the_end() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MOST_README_LINES, f"README.md: {lines} lines, at most {MOST_README_LINES}"


def section(text: str, heading: str) -> str:
    """A `## heading` section of a Markdown text, to the next `## ` heading."""
    return re.split(r"^## ", re.split(rf"^## {re.escape(heading)}$", text, flags=re.M)[1],
                    flags=re.M)[0]


def test_the_readme_gives_the_two_commands_as_they_are() -> None:
    block = CODE_BLOCK.findall(section(README.read_text(encoding="utf-8"), "Two commands"))
    assert [line.partition("#")[0].strip() for line in block] == TWO_COMMANDS
    assert "python3 run.py test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_the_readme_has_its_sections_and_points_at_every_page() -> None:
    text = README.read_text(encoding="utf-8")
    headings = [heading for heading in HEADING.findall(FENCE.sub("", text))]
    missing = [name for name in README_SECTIONS if name not in headings]
    assert not missing, f"README.md has no section {missing}"
    pages = {f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md")}
    unlinked = sorted(page for page in pages if f"]({page}" not in text)
    assert not unlinked, f"README.md does not say where these are: {unlinked}"


def test_the_readme_shows_each_games_frames() -> None:
    text = README.read_text(encoding="utf-8")
    shown = set(re.findall(r"!\[[^\]]*\]\(docs/screens/([\w-]+)/", text))
    assert {"first", "battle", "tank", "cobra", "trouble"} <= shown, shown


# --- the code map ---

ARCHITECTURE = ROOT / "docs" / "architecture.md"
MAPPED = ("rules", "words", "cards", "device")
MAP_LINE = re.compile(r"^- `((?:rules|words|cards|device)/[\w/]+\.py)`: \S", re.M)


def code_map(text: str) -> list[str]:
    """The modules the code map lists: its `## Code map` section's `- `path`: what` lines."""
    return MAP_LINE.findall(section(text, "Code map"))


def modules() -> set[str]:
    return {path.relative_to(ROOT).as_posix() for folder in MAPPED
            for path in (ROOT / folder).rglob("*.py")}


def code_map_gaps(listed: list[str], there: set[str]) -> list[str]:
    """What keeps a code map from being complete, one line each."""
    counts = Counter(listed)
    return [*(f"{module}: a module the code map lacks" for module in sorted(there - set(counts))),
            *(f"{module}: in the code map but not a module"
              for module in sorted(set(counts) - there)),
            *(f"{module}: in the code map twice" for module in sorted(counts)
              if counts[module] > 1)]


def test_the_code_map_names_every_module_once() -> None:
    gaps = code_map_gaps(code_map(ARCHITECTURE.read_text(encoding="utf-8")), modules())
    assert not gaps, ("docs/architecture.md#code-map: add or remove a line "
                      "`- `path`: what it is.` for each:\n" + "\n".join(gaps))


def test_the_code_map_check_names_the_missing_and_the_extra() -> None:
    text = ("## Code map\n\n- `rules/a.py`: one.\n- `rules/b.py`: two.\n- `rules/b.py`: again.\n"
            "\n## Next\n\n- `rules/c.py`: not in the map.\n")
    assert code_map(text) == ["rules/a.py", "rules/b.py", "rules/b.py"]
    assert code_map_gaps(code_map(text), {"rules/b.py", "cards/d.py"}) == [
        "cards/d.py: a module the code map lacks", "rules/a.py: in the code map but not a module",
        "rules/b.py: in the code map twice"]
