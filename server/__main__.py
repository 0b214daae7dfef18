"""``python -m rcw.server serve ...``: the same as ``rcw serve ...``."""

import sys

from rcw.server.cli import main

sys.exit(main())
