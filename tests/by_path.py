"""A module loaded from its file (the benchmarks' scripts, which are no package) under a name
of its own, registered first: its dataclasses look their module up by that name."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def module_at(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
