"""Log lines for systemd's journal, with its priorities.

Under systemd, stderr is a stream into the journal (systemd then sets $JOURNAL_STREAM), and a
line starting with `<N>` gets syslog priority N: so `journalctl -u cobi-companion -p warning`
shows warnings and errors only. Every line of a record carries the prefix, or the lines of a
traceback after the first would count as notices. In a terminal the lines read as usual.
"""
from __future__ import annotations

import logging
import os
import sys

# syslog priorities: 3 err, 4 warning, 5 notice, 6 info, 7 debug (2 crit for CRITICAL).
PRIORITIES = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4),
              (logging.INFO, 6), (logging.DEBUG, 7))


def priority(level: int) -> int:
    """The syslog priority of a logging level (levels in between round up to the graver)."""
    for threshold, number in PRIORITIES:
        if level >= threshold:
            return number
    return 7


class JournalFormatter(logging.Formatter):
    """`<N>` before each line of a record."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())


def to_journal() -> bool:
    """True when stderr is the journal stream systemd set up ($JOURNAL_STREAM is its
    device:inode); a redirected stderr under systemd is not."""
    stream = os.environ.get("JOURNAL_STREAM", "")
    if not stream:
        return False
    try:
        st = os.fstat(sys.stderr.fileno())
    except (OSError, ValueError):
        return False
    return stream == f"{st.st_dev}:{st.st_ino}"


def start_logging(level: int = logging.INFO) -> None:
    """Log to stderr: with journal priorities under systemd, plain in a terminal."""
    handler = logging.StreamHandler(sys.stderr)
    if to_journal():
        handler.setFormatter(JournalFormatter("%(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
