"""Print lgpio's state as the running Python sees it: "real|placeholder|broken venv|system
PATH", or "missing". PyPI's lgpio 0.0.0.2 is an empty module: it imports, and has none of
lgpio's functions. Run with a venv's python by systemd/actions.sh (install.sh) and run.py."""
import importlib.util
import os
import sys

spec = importlib.util.find_spec("lgpio")
if spec is None or not spec.origin:
    print("missing")
    sys.exit()
origin = os.path.realpath(spec.origin)
where = "venv" if origin.startswith(os.path.realpath(sys.prefix) + os.sep) else "system"
try:
    import lgpio
except Exception:
    print("broken", where, origin)
    sys.exit()
real = hasattr(lgpio, "gpio_claim_input") or hasattr(lgpio, "LGPIO_PY_VERSION")
print("real" if real else "placeholder", where, origin)
