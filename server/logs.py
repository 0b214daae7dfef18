"""Logging for ``rcw serve``: plain text lines (the default) or one JSON object per line
(``--log-format json``), for log shippers that index fields.

A JSON line holds ``ts`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``, ``msg`` (the
formatted message), ``pid``, and, when there are, ``exc`` (the formatted traceback), ``stack``,
``game`` and ``seat`` (the game and the seat the message names: "game <id>", "seat <letter>",
for a shipper to index; QA as an operator found them only inside ``msg``) and any ``extra={...}``
fields given to the logging call (values that are not JSON become strings).
"""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import IO

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
FORMATS = ("text", "json")

# The attributes every LogRecord has: anything else on a record came from ``extra``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}
# A game's id (rcw.server.lobby: 12 characters of URL-safe base64) and a seat's letter, as the
# server's messages name them.
_GAME = re.compile(r"\bgame ([A-Za-z0-9_-]{12})\b")
_SEAT = re.compile(r"\bseat ([A-Z])\b")


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
               "level": record.levelname, "logger": record.name, "msg": record.getMessage(), "pid": record.process}
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exc"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        for name, pattern in (("game", _GAME), ("seat", _SEAT)):
            m = pattern.search(out["msg"])
            if m:
                out[name] = m.group(1)
        for k, v in vars(record).items():
            if k not in _STANDARD and k not in out:
                out[k] = v
        return json.dumps(out, default=str, ensure_ascii=False)


def configure(level: str = "INFO", fmt: str = "text", stream: IO[str] | None = None) -> None:
    """Log to ``stream`` (stderr) at ``level`` in ``fmt`` (``text`` or ``json``), replacing any
    handler the root logger had; aiohttp's access log is kept to warnings."""
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}")
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=getattr(logging, level), handlers=[handler], force=True)
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
