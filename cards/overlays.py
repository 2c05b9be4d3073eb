"""The overlay folders: the folders a parent can edit from any computer.

Read over the system files in this order: the FAT boot partition, then a USB stick labelled
COBI (mounted read-only). Each may hold a config.toml (the box's, device/boot.py) and a cards/
folder (CARDS_NAME, read after the other card folders: book.default_folders); missing ones are
skipped. They are named here, below the box, because the cards are read from them as well as
the config: the cards need not know the box to find them. The standard library only.
"""
from __future__ import annotations

import os
from pathlib import Path

OVERLAYS_ENV = "COBI_COMPANION_OVERLAYS"     # os.pathsep-separated; empty: no overlay folders
OVERLAY_FOLDERS = (Path("/boot/firmware/cobi"), Path("/media/cobi"))
# $COBI_COMPANION_STICK names the stick's folder (read after the overlay folders unless it is one
# of them; empty: no stick); else an overlay folder that is /media/cobi is the stick.
STICK_ENV = "COBI_COMPANION_STICK"
STICK_FOLDER = OVERLAY_FOLDERS[-1]
CARDS_NAME = "cards"


def overlay_folders() -> list[Path]:
    """The overlay folders in the order they are read: $COBI_COMPANION_OVERLAYS if it is set
    (an empty value: none), else OVERLAY_FOLDERS; then the stick's folder that
    $COBI_COMPANION_STICK names, if it is not one of them. They need not exist."""
    given = os.environ.get(OVERLAYS_ENV)
    folders = list(OVERLAY_FOLDERS) if given is None else [
        Path(part) for part in given.split(os.pathsep) if part]
    stick = stick_folder()
    if os.environ.get(STICK_ENV) and stick is not None and stick not in folders:
        folders.append(stick)
    return folders


def stick_folder() -> Path | None:
    """The USB stick's folder: $COBI_COMPANION_STICK if it is set (an empty value: none), else
    STICK_FOLDER (/media/cobi)."""
    given = os.environ.get(STICK_ENV)
    if given is None:
        return STICK_FOLDER
    return Path(given) if given else None


def overlay_card_folders() -> list[Path]:
    """The overlay folders' existing cards/ subfolders (CARDS_NAME), in order."""
    return [folder / CARDS_NAME for folder in overlay_folders() if (folder / CARDS_NAME).is_dir()]
