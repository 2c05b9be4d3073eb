"""gettext's two file formats, read and written by the project itself (no GNU gettext on a
fresh machine): the `.po` catalogue a translator edits, and the `.mo` file the box reads.

A message is found by its context (`msgctxt`, the key the code asks for: "resume",
"refusal_no_such_piece") and shows the translator its English (`msgid`). The box's plural forms
and agreements are written inside a template ({n:figurka|figurki|figurek}: docs/translating.md),
so every message has one `msgstr`.

The `.mo` layout is GNU gettext's: a header of seven 32-bit words, two tables of (length,
offset) pairs for the original and translated strings sorted by original, then the strings,
each ending in NUL. An original is "context\\x04msgid"; the header is the empty original's
translation."""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

MAGIC = 0x950412DE
CONTEXT_GLUE = "\x04"


@dataclass
class Entry:
    """One message of a catalogue, with the comments a translator reads above it."""

    context: str
    msgid: str
    msgstr: str
    comments: list[str] = field(default_factory=list)      # "#." lines: what it is, where
    flags: list[str] = field(default_factory=list)         # "#," flags: python-brace-format
    line: int = 0                                          # where it starts in its file


class PoError(ValueError):
    """A catalogue that cannot be read: its file's line and what is wrong there."""


@dataclass
class Catalogue:
    """A `.po` or `.pot` file: its header's fields and its messages, in the file's order."""

    header: dict[str, str]
    entries: list[Entry]

    def by_context(self) -> dict[str, Entry]:
        return {entry.context: entry for entry in self.entries}


def _unquote(text: str, line: int) -> str:
    """A quoted string of a .po line ("a \\"b\\"\\n") as its text."""
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"line {line}: a quoted string is expected, not {text[:40]!r}")
    body, out, i = text[1:-1], [], 0
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
    while i < len(body):
        char = body[i]
        if char == "\\":
            if i + 1 >= len(body) or body[i + 1] not in escapes:
                raise PoError(f"line {line}: an unknown escape in {text[:40]!r}")
            out.append(escapes[body[i + 1]])
            i += 2
        elif char == '"':
            raise PoError(f"line {line}: a quote inside a string must be written \\\"")
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") \
        .replace("\t", "\\t") + '"'


KEYWORDS = ("msgctxt", "msgid", "msgstr")


def parse(text: str) -> Catalogue:
    """A catalogue's text, read: every message with its comments and flags. A message without
    a context is the header (the first, msgid "") or refused: the box finds words by context."""
    entries: list[Entry] = []
    current: dict[str, str] = {}
    comments: list[str] = []
    flags: list[str] = []
    last: str | None = None
    start = 0

    def close() -> None:
        nonlocal current, comments, flags, last
        if current:
            if "msgid" not in current or "msgstr" not in current:
                raise PoError(f"line {start}: a message needs a msgid and a msgstr")
            entries.append(Entry(current.get("msgctxt", ""), current["msgid"],
                                 current["msgstr"], comments, flags, start))
        current, comments, flags, last = {}, [], [], None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            close()
            continue
        if line.startswith("#"):
            if current:
                close()
            if line.startswith("#."):
                comments.append(line[2:].strip())
            elif line.startswith("#,"):
                flags.extend(flag.strip() for flag in line[2:].split(",") if flag.strip())
            continue
        if line.startswith('"'):
            if last is None:
                raise PoError(f"line {number}: a string that continues nothing")
            current[last] += _unquote(line, number)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword not in KEYWORDS:
            raise PoError(f"line {number}: {keyword[:20]!r} is not one of "
                          f"{', '.join(KEYWORDS)} (plural msgid_plural is not used here: "
                          f"docs/translating.md)")
        if keyword in current:
            raise PoError(f"line {number}: a second {keyword} in one message")
        if not current:
            start = number
        current[keyword] = _unquote(rest.strip(), number)
        last = keyword
    close()
    header: dict[str, str] = {}
    if entries and entries[0].context == "" and entries[0].msgid == "":
        for field_line in entries.pop(0).msgstr.splitlines():
            name, _, value = field_line.partition(":")
            header[name.strip()] = value.strip()
    seen: dict[str, int] = {}
    for entry in entries:
        if not entry.context:
            raise PoError(f"line {entry.line}: a message needs a msgctxt, the key the box asks "
                          f"for")
        if entry.context in seen:
            raise PoError(f"line {entry.line}: the msgctxt {entry.context!r} is there already, "
                          f"on line {seen[entry.context]}")
        seen[entry.context] = entry.line
    return Catalogue(header, entries)


def _wrapped(keyword: str, text: str) -> list[str]:
    """A field as gettext's tools write it: one line, or "" and then a line for each piece
    up to a newline or ~76 characters."""
    if len(text) <= 70 and "\n" not in text:
        return [f"{keyword} {_quote(text)}"]
    pieces: list[str] = []
    for part in text.splitlines(keepends=True):
        while len(part) > 76:
            cut = part.rfind(" ", 0, 76) + 1 or 76
            pieces.append(part[:cut])
            part = part[cut:]
        pieces.append(part)
    return [f'{keyword} ""', *(_quote(piece) for piece in pieces if piece)]


def write(catalogue: Catalogue) -> str:
    """The catalogue as a .po file's text."""
    lines = ['msgid ""', 'msgstr ""'] + [_quote(f"{name}: {value}\n")
                                         for name, value in catalogue.header.items()]
    out = ["\n".join(lines)]
    for entry in catalogue.entries:
        block = [f"#. {comment}" if comment else "#." for comment in entry.comments]
        if entry.flags:
            block.append("#, " + ", ".join(entry.flags))
        block += _wrapped("msgctxt", entry.context)
        block += _wrapped("msgid", entry.msgid)
        block += _wrapped("msgstr", entry.msgstr)
        out.append("\n".join(block))
    return "\n\n".join(out) + "\n"


def compile_mo(header: dict[str, str], messages: dict[str, str],
               originals: dict[str, str] | None = None) -> bytes:
    """A .mo file of `messages` (context: translation), each keyed in the file by
    "context\\x04msgid" with its English from `originals` (the context alone without it)."""
    header_text = "".join(f"{name}: {value}\n" for name, value in header.items())
    pairs = [("", header_text)] + [
        (f"{context}{CONTEXT_GLUE}{(originals or {}).get(context, '')}", text)
        for context, text in messages.items()]
    encoded = sorted((key.encode(), text.encode()) for key, text in pairs)
    count = len(encoded)
    keys_at = 28
    values_at = keys_at + 8 * count
    data_at = values_at + 8 * count
    key_table, value_table, data = [], [], bytearray()
    for key, _ in encoded:
        key_table.append((len(key), data_at + len(data)))
        data += key + b"\0"
    for _, text in encoded:
        value_table.append((len(text), data_at + len(data)))
        data += text + b"\0"
    out = bytearray(struct.pack("<7I", MAGIC, 0, count, keys_at, values_at, 0, 0))
    for length, offset in key_table + value_table:
        out += struct.pack("<2I", length, offset)
    return bytes(out + data)


def read_mo(data: bytes) -> tuple[dict[str, str], dict[str, str]]:
    """A .mo file's header fields and its messages by context (a message without one by its
    msgid)."""
    magic, _, count, keys_at, values_at = struct.unpack_from("<5I", data)
    if magic != MAGIC:
        raise PoError("not a little-endian gettext .mo file")
    header: dict[str, str] = {}
    messages: dict[str, str] = {}
    for i in range(count):
        key_len, key_off = struct.unpack_from("<2I", data, keys_at + 8 * i)
        text_len, text_off = struct.unpack_from("<2I", data, values_at + 8 * i)
        key = data[key_off:key_off + key_len].decode()
        text = data[text_off:text_off + text_len].decode()
        if not key:
            for line in text.splitlines():
                name, _, value = line.partition(":")
                header[name.strip()] = value.strip()
            continue
        context, glue, msgid = key.partition(CONTEXT_GLUE)
        messages[context if glue else msgid] = text
    return header, messages
