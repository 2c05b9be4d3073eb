"""The Soft Targets Table's values learned at the table: the box's own file in its state folder.

When a shot needs a value the owner's table lacks, the players dial the modifier their printed
table shows, and may have the box remember it. Remembered values go to
`<state dir>/learned/soft-targets.toml`, in the format of a table file, each with its `source`.
The card book reads it after every card folder and puts it *under* the owner's table: it fills
only what that table lacks, and a value of the owner's always wins.

The file is the box's: it is written whole each time (a temporary file in the same folder,
flushed and synced, then renamed over it), so a pulled plug leaves the old file or the new one.
An owner may still edit it or delete a value; a broken file is reported like any card file and
the box is then not able to remember more until it is mended.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from cobi_companion.cards.snapshot import write_atomically

# The table and what writes it are imported where they are used: a command finds where the
# learned file is (`learned_file`) without them, and `odds` at a tank reads no table.
if TYPE_CHECKING:
    from cobi_companion.rules.tank.soft_table import Entry, RangeBand, SoftTable

LEARNED = Path("learned") / "soft-targets.toml"   # inside the state directory
SOURCE = "learned at the table"

HEADER = """\
# Soft Targets Table values learned at the table.
#
# The box writes this file when the players dial a value their printed table shows and the
# owner's table (tables/soft-targets.toml in a cards folder) lacks, and say "remember". These
# values fill only what the owner's table lacks: a value there always wins. The format is that
# of the owner's table (see cards/README.md). Edit a value or delete its line (or the whole
# file) to have the box ask again; check the file with `cobi-companion cards check FILE`.
# The box writes the file whole: comments other than this one are not kept.
"""
_BARE_KEY = r"[A-Za-z0-9_-]+"      # compiled when first used (the re module keeps it)


def learned_file(state_dir: Path) -> Path:
    return state_dir / LEARNED


def read_learned(path: Path) -> SoftTable:
    """The learned values (none when the file does not exist yet), or CardFileError."""
    from cobi_companion.rules.tank.soft_table import SoftTable

    if not path.exists():
        return SoftTable().with_source(str(path))
    # Checking the file needs pydantic: imported only when there is a file.
    from .loader import load_table

    return load_table(path)


def toml_text(table: SoftTable) -> str:
    """The table as a file: each weapon's bands, template and To hit, then the situations."""
    parts = [HEADER]
    for name, row in sorted(table.weapons.items()):
        lines = [f"[weapons.{_key(name)}]"]
        if row.ranges:
            lines += ["ranges = [", *(f"  {_band(band)},"
                                      for band in sorted(row.ranges, key=lambda b: b.from_cm)),
                      "]"]
        if row.template is not None:
            lines.append(f"template = {{ {_fields(row.template)} }}")
        if row.to_hit is not None:           # a grenade's To hit: the lowest face that hits
            source = "" if row.to_hit.source is None else \
                f", source = {_string(row.to_hit.source)}"
            lines.append(f"to_hit = {{ needs = {row.to_hit.needs}{source} }}")
        parts.append("\n".join(lines) + "\n")
    for name, entry in sorted(table.situations.items()):
        lines = [f"[situations.{_key(name)}]", f"modifier = {entry.modifier:+d}"]
        if entry.source is not None:
            lines.append(f"source = {_string(entry.source)}")
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def write_learned(path: Path, table: SoftTable) -> None:
    """Replace the file with `table`, whole or not at all; OSError when it cannot."""
    write_atomically(path, toml_text(table).encode("utf-8"))


def _band(band: RangeBand) -> str:
    return (f"{{ from_cm = {_number(band.from_cm)}, to_cm = {_number(band.to_cm)}, "
            f"{_fields(band)} }}")


def _fields(entry: Entry) -> str:
    text = f"modifier = {entry.modifier:+d}"
    return text if entry.source is None else f"{text}, source = {_string(entry.source)}"


def _number(cm: float) -> str:
    return str(int(cm)) if float(cm).is_integer() else repr(float(cm))


def _key(name: str) -> str:
    return name if re.fullmatch(_BARE_KEY, name) else _string(name)


def _string(text: str) -> str:
    # JSON's escapes are TOML's, but for DEL, which TOML wants escaped too.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
