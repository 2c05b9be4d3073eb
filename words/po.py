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
    flags: list[str] = field(default_factory=list)         # "#," flags: fuzzy
    line: int = 0                                          # where it starts in its file
    notes: list[str] = field(default_factory=list)         # "# " lines: the translator's own
    references: list[str] = field(default_factory=list)    # "#:" lines: where it is used
    previous: list[str] = field(default_factory=list)      # "#|" lines: the English before


class PoError(ValueError):
    """A catalogue that cannot be read: its file's line and what is wrong there."""


@dataclass
class Catalogue:
    """A `.po` or `.pot` file: its header's fields and its messages, in the file's order."""

    header: dict[str, str]
    entries: list[Entry]
    notes: list[str] = field(default_factory=list)         # the translator's, above the header

    def by_context(self) -> dict[str, Entry]:
        return {entry.context: entry for entry in self.entries}


# The escapes of a C string that gettext's files use, and what each stands for.
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
           '"': '"', "\\": "\\"}
_WRITTEN = {text: f"\\{name}" for name, text in ESCAPES.items()}


def _unquote(text: str, line: int) -> str:
    """A quoted string of a .po line ("a \\"b\\"\\n") as its text: C's escapes, octal
    (\\101) and hex (\\x41) included."""
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"line {line}: a quoted string is expected, not {text[:40]!r}")
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        char = body[i]
        if char == '"':
            raise PoError(f"line {line}: a quote inside a string must be written \\\"")
        if char != "\\":
            out.append(char)
            i += 1
            continue
        code, i = _escape(body, i + 1, line)
        out.append(code)
    return "".join(out)


_ALLOWED = " ".join("\\" + name for name in ESCAPES) + ", \\ooo (octal) or \\xhh (hex)"


def _leading(text: str, digits: str) -> str:
    """The first characters of `text` that are among `digits`."""
    return text[:len(text) - len(text.lstrip(digits))]


def _escape(body: str, at: int, line: int) -> tuple[str, int]:
    """The character of the escape after a backslash at `at`, and where the text goes on."""
    name = body[at:at + 1]
    if name in ESCAPES and name:
        return ESCAPES[name], at + 1
    octal = _leading(body[at:at + 3], "01234567")
    if octal:
        return chr(int(octal, 8)), at + len(octal)
    hexa = _leading(body[at + 1:at + 3], "0123456789abcdefABCDEF") if name == "x" else ""
    if hexa:
        return chr(int(hexa, 16)), at + 1 + len(hexa)
    raise PoError(f"line {line}: the escape \\{name or ' at the end'} is not one of {_ALLOWED}")


def _quote(text: str) -> str:
    """`text` as a quoted string: C's escapes for the characters that have one, octal for
    any other control character."""
    out = []
    for char in text:
        if char in _WRITTEN:
            out.append(_WRITTEN[char])
        elif ord(char) < 32 or ord(char) == 127:
            out.append(f"\\{ord(char):03o}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


KEYWORDS = ("msgctxt", "msgid", "msgstr")


# The kinds of comment line a message may have above it: the translator's own ("# "), the
# extracted ones for translators ("#."), references ("#:"), flags ("#,") and the English
# before a change ("#|"). "#~" is a message no longer used, which is dropped.
COMMENT_MARKS = ("#", "#.", "#:", "#,", "#|")


@dataclass
class _Reading:
    """What `parse` has read of the message it is in."""

    fields: dict[str, str] = field(default_factory=dict)
    comments: dict[str, list[str]] = field(default_factory=lambda: {
        mark: [] for mark in COMMENT_MARKS})
    last: str | None = None
    start: int = 0

    def entry(self) -> Entry:
        if "msgid" not in self.fields or "msgstr" not in self.fields:
            raise PoError(f"line {self.start}: a message needs a msgid and a msgstr")
        flags = [flag.strip() for line in self.comments["#,"] for flag in line.split(",")
                 if flag.strip()]
        return Entry(self.fields.get("msgctxt", ""), self.fields["msgid"],
                     self.fields["msgstr"], self.comments["#."], flags, self.start,
                     self.comments["#"], self.comments["#:"], self.comments["#|"])


def _comment(line: str) -> tuple[str, str]:
    mark = line[:2] if line[1:2] in ".:,|~" else "#"
    return mark, line[len(mark):].removeprefix(" ").rstrip()


def parse(text: str) -> Catalogue:
    """A catalogue's text, read: every message with its comments and flags, in one pass. A
    message without a context is the header (the first, msgid "") or refused: the box finds
    words by context."""
    entries: list[Entry] = []
    reading = _Reading()

    def close() -> None:
        nonlocal reading
        if reading.fields:
            entries.append(reading.entry())
            reading = _Reading()

    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if reading.fields:
                close()
            mark, said = _comment(line)
            if mark != "#~":
                reading.comments[mark].append(said)
            continue
        if line.startswith('"'):
            if reading.last is None:
                raise PoError(f"line {number}: a string that continues nothing")
            reading.fields[reading.last] += _unquote(line, number)
            continue
        keyword, *rest = line.split(None, 1)
        if keyword not in KEYWORDS:
            raise PoError(f"line {number}: {keyword[:20]!r} is not one of "
                          f"{', '.join(KEYWORDS)} (plural msgid_plural is not used here: "
                          f"docs/translating.md)")
        if keyword in reading.fields or (keyword == "msgctxt" and reading.fields):
            close()
        if not reading.fields:
            reading.start = number
        reading.fields[keyword] = _unquote(rest[0].strip() if rest else "", number)
        reading.last = keyword
    close()
    return _catalogue(entries)


def _catalogue(entries: list[Entry]) -> Catalogue:
    """The messages read, with the header (the first, msgid "") taken out of them."""
    header: dict[str, str] = {}
    notes: list[str] = []
    if entries and entries[0].context == "" and entries[0].msgid == "":
        first = entries.pop(0)
        notes = first.notes
        for field_line in first.msgstr.split("\n"):
            name, _, value = field_line.partition(":")
            if name.strip():
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
    return Catalogue(header, entries, notes)


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


def quoted_lines(text: str) -> list[str]:
    """`text` quoted on one line, as a "#|" comment keeps a message's English before."""
    return [_quote(text)]


def _comments(mark: str, lines: list[str]) -> list[str]:
    return [f"{mark} {line}" if line else mark for line in lines]


def write(catalogue: Catalogue) -> str:
    """The catalogue as a .po file's text."""
    lines = [*_comments("#", catalogue.notes), 'msgid ""', 'msgstr ""']
    lines += [_quote(f"{name}: {value}\n") for name, value in catalogue.header.items()]
    out = ["\n".join(lines)]
    for entry in catalogue.entries:
        block = [*_comments("#", entry.notes), *_comments("#.", entry.comments),
                 *_comments("#:", entry.references)]
        if entry.flags:
            block.append("#, " + ", ".join(entry.flags))
        block += _comments("#|", entry.previous)
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
    msgid); a file that is not one, or is cut short or damaged, is refused (PoError)."""
    try:
        return _read_mo(data)
    except (struct.error, UnicodeDecodeError, IndexError) as error:
        raise PoError(f"not a whole gettext .mo file: {error}") from None


def _read_mo(data: bytes) -> tuple[dict[str, str], dict[str, str]]:
    magic, _, count, keys_at, values_at = struct.unpack_from("<5I", data)
    if magic != MAGIC:
        raise PoError("not a little-endian gettext .mo file")
    header: dict[str, str] = {}
    messages: dict[str, str] = {}
    for i in range(count):
        key = _mo_string(data, keys_at + 8 * i)
        text = _mo_string(data, values_at + 8 * i)
        if not key:
            for line in text.split("\n"):
                name, _, value = line.partition(":")
                if name.strip():
                    header[name.strip()] = value.strip()
            continue
        context, glue, msgid = key.partition(CONTEXT_GLUE)
        messages[context if glue else msgid] = text
    return header, messages


def _mo_string(data: bytes, at: int) -> str:
    """The string a .mo table's (length, offset) pair at `at` points to."""
    length, offset = struct.unpack_from("<2I", data, at)
    if offset + length > len(data):
        raise PoError(f"a string at {offset} runs past the file's end ({len(data)} bytes)")
    return data[offset:offset + length].decode()
