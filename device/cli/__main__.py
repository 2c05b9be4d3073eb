"""`python -m cobi_companion.device.cli`: the same as the `cobi-companion` command."""
from __future__ import annotations

import sys

from cobi_companion.device.cli import main

sys.exit(main())
