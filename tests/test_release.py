"""What a user checks first about the package itself: its LICENSE travels in the wheel, and
`cobi-companion --version` says the version and, run from a git checkout, the commit. Real
processes: the wheel is built by pip with the project's own build backend (offline: the dev
venv has it), and installed into a folder of its own."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from waiting import HANG_S  # tests/device/waiting.py: a hang guard, never a deadline

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "rules", "words", "cards", "device")
VERSION = re.compile(r"cobi-companion (\d+\.\d+\.\d+\S*)(?: \(git ([0-9a-f]{7,40})(-dirty)?\))?")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel pip builds from a copy of the sources (a build in the checkout would leave
    build/ and an egg-info there)."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
        elif (ROOT / name).exists():
            shutil.copy2(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--no-index", "-q", "-w", str(work / "out"), str(source)],
                   check=True, capture_output=True, timeout=600)
    [built] = (work / "out").glob("cobi_companion-*.whl")
    return built


def test_the_license_file_is_mit_and_travels_in_the_wheel(wheel: Path) -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the COBI Battle Companion authors" in text
    with zipfile.ZipFile(wheel) as archive:
        licenses = [name for name in archive.namelist()
                    if re.fullmatch(r"[^/]+\.dist-info/(licenses/)?LICENSE", name)]
        assert licenses, archive.namelist()
        assert archive.read(licenses[0]).decode() == text
        metadata = archive.read(next(name for name in archive.namelist()
                                     if name.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata


def test_the_reference_glyphs_travel_in_the_wheel(wheel: Path) -> None:
    # Without them a system with another FreeType (32-bit Pi OS) draws other pixels.
    shipped = ROOT / "device" / "ui" / "reference-glyphs.json"
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read("cobi_companion/device/ui/reference-glyphs.json") == \
            shipped.read_bytes()


def test_the_catalogues_travel_in_the_wheel(wheel: Path) -> None:
    # Without them an installed box has no words: every language's .mo, the template and
    # each .po (a translator working on an installed box), and a language's notes.
    locale = ROOT / "words" / "locale"
    shipped = sorted(path for path in locale.rglob("*") if path.is_file())
    assert len(shipped) >= 3 * 2 + 1
    with zipfile.ZipFile(wheel) as archive:
        for path in shipped:
            name = f"cobi_companion/words/locale/{path.relative_to(locale).as_posix()}"
            assert archive.read(name) == path.read_bytes(), name


def version_of(command: list[str], **kwargs: Any) -> re.Match[str]:
    done = subprocess.run([*command, "--version"], capture_output=True, text=True,
                          timeout=HANG_S, **kwargs)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    found = VERSION.fullmatch(done.stdout.strip())
    assert found, done.stdout
    return found


def checkout_head() -> str | None:
    if shutil.which("git") is None:
        return None
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                          text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def test_version_from_the_checkout_names_its_commit(cli_path: str) -> None:
    found = version_of([cli_path])
    assert found[1] == "0.1.0"
    head = checkout_head()
    if head is None:                    # the tests run from an unpacked archive, not a clone
        assert found[2] is None
    else:
        assert found[2] is not None and head.startswith(found[2])


def test_version_without_git_is_the_version_alone(cli_path: str, tmp_path: Path) -> None:
    found = version_of([cli_path], env={**os.environ, "PATH": str(tmp_path)})   # no git on it
    assert found[1] == "0.1.0" and found[2] is None


def test_version_of_an_installed_wheel_is_the_version_alone(wheel: Path,
                                                            tmp_path: Path) -> None:
    """Installed outside any checkout, and inside one that does not track the package (a venv
    in some other project's folder): the version alone, never another project's commit."""
    other = tmp_path / "other-project"
    other.mkdir()
    site = other / "site"
    # --no-compile: pip would compile every module of the package to bytecode, a third of the
    # install's CPU; the few that the version imports compile as they are imported.
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q",
                    "--no-compile", "--target", str(site), str(wheel)], check=True,
                   capture_output=True, timeout=300)
    env = {**os.environ, "PYTHONPATH": str(site)}
    command = [sys.executable, "-m", "cobi_companion.device.cli"]
    found = version_of(command, env=env, cwd=tmp_path)
    assert found[1] == "0.1.0" and found[2] is None
    if shutil.which("git"):
        for step in (["init", "-q"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit",
                                      "-q", "--allow-empty", "-m", "other"]):
            subprocess.run(["git", "-C", str(other), *step], check=True, capture_output=True)
        found = version_of(command, env=env, cwd=other)
        assert found[2] is None


def test_the_changelog_has_the_version_and_what_is_unreleased() -> None:
    """Keep a Changelog's two sections: what is not released yet, and the package's version
    (pyproject.toml's, which --version prints)."""
    version = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert version
    headings = re.findall(r"^## \[([^]]+)\]", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert headings[:2] == ["Unreleased", version[1]]
