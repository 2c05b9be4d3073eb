"""The box: its daemon, screens, hardware adapters, simulator and command line."""
import sys

# The box hashes nothing, yet pydantic imports `secrets`, whose `hmac` would load OpenSSL's
# libcrypto (3.4 MB resident, over 5% of the box's memory). With `_hashlib` blocked, `hashlib`
# and `hmac` use CPython's own hash modules instead.
sys.modules.setdefault("_hashlib", None)  # type: ignore[arg-type]
