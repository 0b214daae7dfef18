"""``python -m rcw ...``: the same as ``rcw ...`` (rcw.cli)."""

import sys

from rcw.cli import main

sys.exit(main())
