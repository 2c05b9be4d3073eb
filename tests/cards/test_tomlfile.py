"""The one way the box reads a TOML file (cards/tomlfile.py), on real files: only a regular file
of at most 256 KiB, never blocking on a FIFO nor opening a device; UTF-8; valid TOML nested at
most MAX_DEPTH deep with no number too long for Python to write. Anything else is one reason,
never an exception of another kind."""
from __future__ import annotations

import os
import socket
import sys
import tomllib
from pathlib import Path

import pytest
from cobi_companion.cards import tomlfile
from cobi_companion.cards.tomlfile import MAX_BYTES, MAX_DEPTH, FileProblem, read_toml

ALLOWED = "allowed: a regular file of at most 256 KiB"
DIGITS = sys.get_int_max_str_digits()


def problem(path: Path) -> FileProblem:
    with pytest.raises(FileProblem) as caught:
        read_toml(path)
    return caught.value


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


def test_a_regular_file_is_read(tmp_path: Path) -> None:
    path = write(tmp_path / "ok.toml", 'name = "Tiger I"\n[display]\naddress = 0x3C\n')
    assert read_toml(path) == {"name": "Tiger I", "display": {"address": 60}}


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path, make_fifo) -> None:
    path = make_fifo(tmp_path / "x.toml")
    assert str(problem(path)) == f"cannot be read: it is a pipe (FIFO); {ALLOWED}"


def test_a_fifo_swapped_in_after_the_check_is_refused_on_the_open_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_fifo) -> None:
    # The name was a regular file when it was looked at, and is a FIFO when it is opened: the
    # non-blocking open returns at once, and the open descriptor is checked again.
    regular = os.stat(write(tmp_path / "regular.toml", ""))
    path = make_fifo(tmp_path / "x.toml")
    real_stat = os.stat
    monkeypatch.setattr(tomlfile.os, "stat",
                        lambda p, *a, **k: regular if Path(p) == path else real_stat(p))
    assert str(problem(path)) == f"cannot be read: it is a pipe (FIFO); {ALLOWED}"


@pytest.mark.parametrize(("make", "kind"), [
    (lambda p: p.symlink_to("/dev/zero"), "a device"),
    (lambda p: p.symlink_to("/dev/null"), "a device"),
    (lambda p: p.mkdir(), "a folder"),
    (lambda p: p.symlink_to(p.parent), "a folder"),
])
def test_devices_and_folders_are_refused(tmp_path: Path, make, kind: str) -> None:
    path = tmp_path / "x.toml"
    make(path)
    assert str(problem(path)) == f"cannot be read: it is {kind}; {ALLOWED}"


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listening:
        listening.bind(str(path))
        assert str(problem(path)) == f"cannot be read: it is a socket; {ALLOWED}"


def test_the_size_limit_is_256_kib(tmp_path: Path) -> None:
    assert MAX_BYTES == 256 * 1024
    line = "# " + "x" * 1021 + "\n"                  # 1024 bytes
    at_limit = write(tmp_path / "at.toml", line * 255 + "n = 1\n" + " " * 1018)
    assert at_limit.stat().st_size == MAX_BYTES and read_toml(at_limit) == {"n": 1}
    over = write(tmp_path / "over.toml", line * 256 + "n = 1\n")
    assert str(problem(over)) == (f"cannot be read: it is over 256 KiB ({MAX_BYTES + 6} "
                                  f"bytes); {ALLOWED}")


def test_a_file_that_says_it_is_empty_is_still_read_only_to_the_limit(tmp_path: Path) -> None:
    # Files under /proc say they are empty and are read to their end: the reading itself
    # stops one byte over the limit, whatever the size said.
    path = write(tmp_path / "x.toml", b"# " + b"x" * (MAX_BYTES + 10))
    handle = os.open(path, os.O_RDONLY)
    try:
        with pytest.raises(FileProblem, match=f"over 256 KiB \\({MAX_BYTES + 1} bytes\\)"):
            tomlfile._read_at_most(handle)
    finally:
        os.close(handle)


def test_text_that_is_not_utf8_is_named_with_its_byte(tmp_path: Path) -> None:
    path = write(tmp_path / "x.toml", b'name = "Tygrys\xe9"\n')
    assert str(problem(path)) == ("cannot be read: not UTF-8 text (byte 0xe9 at position 14); "
                                  "allowed: a text file saved as UTF-8")


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    missing = problem(tmp_path / "nope.toml")
    assert str(missing) == "no such file" and missing.missing
    (tmp_path / "x.toml").mkdir()
    assert not problem(tmp_path / "x.toml").missing


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads anything")
def test_a_file_without_read_permission(tmp_path: Path) -> None:
    path = write(tmp_path / "x.toml", "n = 1\n")
    path.chmod(0)
    assert str(problem(path)) == "cannot be read: Permission denied"


def test_bad_toml_says_where(tmp_path: Path) -> None:
    path = write(tmp_path / "x.toml", 'name = "Tiger\n')
    assert str(problem(path)).startswith("not valid TOML: ")
    assert str(problem(path)).endswith("(at line 1, column 14)")


NESTED_TOO_DEEP = f"tables and arrays are nested more than {MAX_DEPTH} deep; allowed: at " \
                  f"most {MAX_DEPTH} levels"


@pytest.mark.parametrize("text", [
    "x = " + "[" * 600 + "]" * 600,                     # the parser's own recursion
    "x = " + "{ a = " * 600 + "1" + " }" * 600,
    "x" + ".a" * 5000 + " = 1",                         # parsed without recursion: checked
    "[x" + ".a" * 5000 + "]\nb = 1",
    "x = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
])
def test_nesting_too_deep_is_refused(tmp_path: Path, text: str) -> None:
    path = write(tmp_path / "x.toml", text + "\n")
    refused = problem(path)
    assert refused.reason == NESTED_TOO_DEEP
    assert refused.place is None or refused.place.startswith("x")


def test_nesting_to_the_limit_is_read(tmp_path: Path) -> None:
    path = write(tmp_path / "x.toml", "x = " + "[" * MAX_DEPTH + "]" * MAX_DEPTH)
    value = read_toml(path)["x"]                        # the outermost array is level 1
    for _ in range(MAX_DEPTH - 1):
        value = value[0]
    assert value == []


NUMBER_TOO_LONG = f"a whole number of more than {DIGITS} digits; allowed: a number of at most " \
                  f"{DIGITS} digits"


@pytest.mark.parametrize("value", ["1" * 5000, "-" + "9" * (DIGITS + 1)])
def test_a_decimal_number_of_thousands_of_digits_is_refused(tmp_path: Path, value: str) -> None:
    path = write(tmp_path / "x.toml", f"[weapons]\ncost = {value}\n")
    assert problem(path).reason == NUMBER_TOO_LONG


@pytest.mark.parametrize("value", ["0x" + "f" * 5000, "0b" + "1" * 20000, "0o" + "7" * 6000])
def test_a_hex_octal_or_binary_number_too_long_to_write_out_is_refused_by_its_place(
        tmp_path: Path, value: str) -> None:
    # These parse (their bases need no decimal conversion); the number could not be shown in
    # any message after.
    path = write(tmp_path / "x.toml", f"[crt]\nrows = [1, {value}]\n")
    refused = problem(path)
    assert (refused.place, refused.reason) == ("crt.rows.1", NUMBER_TOO_LONG)
    assert str(refused) == f"crt.rows.1: {NUMBER_TOO_LONG}"


def test_the_longest_number_python_writes_out_is_read(tmp_path: Path) -> None:
    path = write(tmp_path / "x.toml", f"n = {'9' * DIGITS}\n")
    assert read_toml(path) == {"n": int("9" * DIGITS)}


def test_any_other_parser_failure_is_the_files(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    def broken(text: str) -> dict[str, object]:
        raise MemoryError
    monkeypatch.setattr(tomllib, "loads", broken)
    assert str(problem(write(tmp_path / "x.toml", "n = 1\n"))) == "not valid TOML: MemoryError"
