"""``python -m server serve ...``: the same as ``rcw serve ...``."""

import sys

from server.cli import main

sys.exit(main())
