"""The play protocol: msgpack frames over one WebSocket, error codes and size limits.

Every frame is a msgpack map with a ``t`` (type) field.  A request from the client must carry
an ``id`` (an integer or a short string) that the server echoes in its reply, errors included
(an error about a frame echoes its ``id`` whenever the ``id`` can be read); a push from the
server (``update``, ``msg``, ``channel``, ``seats``) has ``id`` nil.  Integer fields that
index something (``after``, ``msg``, ``seq``) and page sizes (``limit``) out of their range
are refused with ``bad_request`` (:func:`index`), never clamped.  ``docs/protocol.md`` is the
reference; the tables here are the single source the docs were written from.
"""

from __future__ import annotations

import json
import time
from typing import Any

import msgpack

#: Largest frame the server reads and answers with a typed error (bytes).
MAX_FRAME = 64 * 1024
#: Beyond this the WebSocket layer itself closes the connection (code 1009).
WS_HARD_LIMIT = 1024 * 1024
#: Longest chat message text (characters) and proposal map (packed bytes).
MAX_TEXT = 2000
MAX_PROPOSAL = 2048
#: Longest request id (characters) when it is a string.
MAX_ID = 64
#: Largest index a request may name (``after``, ``msg``, ``seq``): 2**53 - 1, the largest
#: integer every client (JavaScript included) holds exactly.
MAX_INDEX = (1 << 53) - 1
#: Largest page of chat messages (``history``) and of actions' events (``events``).
MAX_HISTORY = 500
MAX_EVENTS = 1000

#: Client -> server frame types.
CLIENT_TYPES = ("hello", "act", "view", "chat", "history", "channels", "open_channel",
                "accept", "decline", "leave", "ping", "events", "query",
                "sheet", "reports", "pause", "reclaim", "notify", "seen")

#: Server -> client frame types (replies and pushes).
SERVER_TYPES = ("welcome", "ok", "view", "history", "channels", "pong", "error",
                "update", "msg", "channel", "seats", "events", "answer", "reports", "deadline", "presence", "notify")

#: Every error code the server sends, with what it means.  HTTP lobby errors use the same codes.
ERRORS: dict[str, str] = {
    "bad_frame": "the frame is not a msgpack map with a string 't' and a valid 'id' (or it was a text frame)",
    "frame_too_large": f"the frame is longer than {MAX_FRAME} bytes",
    "unknown_type": "the frame type is not one the server knows",
    "bad_request": "a field is missing or has the wrong type or value (or the engine refused a query)",
    "not_joined": "send 'hello' first (or 'hello' was sent twice)",
    "unknown_game": "no game with this id",
    "bad_token": "the seat token is not valid for this game (never was, or the seat was left)",
    "not_your_seat": "the action names another seat, or the connection is a spectator",
    "not_started": "the game still has open seats; actions wait until every seat is filled",
    "stale": "the request named a game position ('seq') that is no longer current",
    "illegal_action": "the engine refused the action; 'rule' names the rule case and 'engine_code' the reason",
    "unknown_channel": "no chat channel with this name in this game",
    "not_member": "the seat is not a member of the channel (spectators may only read 'public')",
    "message_too_large": f"chat text longer than {MAX_TEXT} characters or proposal larger than {MAX_PROPOSAL} bytes",
    "rate_limited": "too many chat messages, frames, games created, costly requests (events, a past view, a "
                    "record) or open connections from this seat, address or token; wait 'retry_after' seconds and retry",
    "unknown_message": "no chat message with this id in this channel",
    "not_a_proposal": "the chat message carries no proposal",
    "not_addressed": "the proposal is not addressed to this seat",
    "proposal_closed": "the proposal no longer stands (a Central Committee its proposer no longer consents to, a "
                       "trade by post whose phase is adjudicated); nothing was applied or posted",
    "engine_seat": "the proposal is addressed to a seat the game's engine plays (the SPI solitaire's non-Red "
                   "Player), which answers no proposal",
    "seat_taken": "the seat is not open",
    "game_full": "no open seat left",
    "forbidden": "the admin token is needed for this",
    "not_found": "(HTTP) no such path",
    "method_not_allowed": "(HTTP) the path does not take this method",
    "body_too_large": "(HTTP) the request body is longer than the limit",
    "busy": "the server is at a cap (live games, bot games, past views being rebuilt) or the game changed "
            "under the request too many times; retry later",
    "not_postal": "the frame is for postal games (sheets, reports) and this game is not one",
    "pause_refused": "no pause now: no deadline is running, or the seat's pause allowance (the creator's 'pause') "
                     "is spent; 'left' says how many seconds it has left",
    "bad_email": "the e-mail address is not one",
    "no_email": "this server sends no e-mail (started without --smtp)",
    "bad_webhook": "the webhook is not an http(s) URL, or its host is a loopback or private address the operator "
                   "does not allow",
    "unavailable": "the game store (Redis) cannot be reached just now; the request may not have been applied: "
                   "retry later",
    "damaged_game": "the game's stored action log does not replay (a logged step the rules of the edition it was "
                    "played under refuse, or one that leaves the game broken, or a game of a newer edition than "
                    "the server's): the game cannot be opened; the server's log names the step",
    "internal": "a server error (logged); nothing was changed",
}


class ProtocolError(Exception):
    """A request the server refuses; becomes an ``error`` frame (or an HTTP error body)."""

    def __init__(self, code: str, message: str, *, rule: str | None = None, req_id: Any = None, **extra: Any) -> None:
        assert code in ERRORS, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.rule = rule
        self.extra = extra
        self.req_id: Any = req_id   # the request's id, when the error is raised before it was read

    def __reduce__(self):
        """Pickled whole (raised in a rebuild worker process, :mod:`rcw.server.admission`, and
        answered by the server's)."""
        return _protocol_error, (self.code, self.message, self.rule, self.req_id, self.extra)

    def frame(self, req_id: Any = None) -> dict:
        return error_frame(req_id if req_id is not None else self.req_id, self.code, self.message,
                           rule=self.rule, **self.extra)


def _protocol_error(code: str, message: str, rule: str | None, req_id: Any, extra: dict) -> ProtocolError:
    return ProtocolError(code, message, rule=rule, req_id=req_id, **extra)


def error_frame(req_id: Any, code: str, message: str, *, rule: str | None = None, **extra: Any) -> dict:
    f = {"t": "error", "id": req_id, "code": code, "message": message, "rule": rule}
    f.update(extra)
    return f


def now_ms() -> int:
    """The server clock in milliseconds (``ts`` of log entries and chat messages, ``pong``)."""
    return int(time.time() * 1000)


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def _valid_id(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return -(1 << 63) <= v < (1 << 64)
    return isinstance(v, str) and len(v) <= MAX_ID


def peek_id(data: bytes | str) -> Any:
    """The request id of a frame the server cannot take (too large, undecodable, a text frame),
    if it can be read: a valid ``id`` of the map the frame starts with (msgpack; JSON for a
    text frame), else None.  Reads the map key by key and skips the values it does not need."""
    if isinstance(data, str):
        if len(data) > MAX_FRAME:
            return None
        try:
            obj = json.loads(data)
        except (ValueError, RecursionError):
            return None
        rid = obj.get("id") if isinstance(obj, dict) else None
        return rid if _valid_id(rid) else None
    u = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=max(len(data), 1))
    try:
        u.feed(data)
        for _ in range(u.read_map_header()):
            key = u.unpack()
            if key == "id":
                rid = u.unpack()
                return rid if _valid_id(rid) else None
            u.skip()
    except Exception:  # not a map, truncated, malformed: no id to read
        return None
    return None


def unpack_frame(data: bytes) -> dict:
    """Decode one client frame; raises :class:`ProtocolError` (``req_id`` set when it can be read)."""
    if len(data) > MAX_FRAME:
        raise ProtocolError("frame_too_large", f"frame of {len(data)} bytes; the limit is {MAX_FRAME}",
                            req_id=peek_id(data))
    try:
        frame = unpack(data)
    except Exception as e:  # msgpack raises several types (ExtraData, FormatError, ValueError...)
        raise ProtocolError("bad_frame", f"not msgpack: {type(e).__name__}", req_id=peek_id(data)) from None
    if not isinstance(frame, dict):
        raise ProtocolError("bad_frame", "a frame must be a msgpack map")
    if "id" not in frame or frame["id"] is None:
        raise ProtocolError("bad_frame", "a request needs an 'id' (an integer or a string), echoed in its reply")
    rid = frame["id"]
    if not _valid_id(rid):
        raise ProtocolError("bad_frame", f"'id' must be an integer or a string of at most {MAX_ID} characters")
    t = frame.get("t")
    if not isinstance(t, str):
        raise ProtocolError("bad_frame", "a frame needs a string 't' (its type)", req_id=rid)
    if t not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown frame type {t[:40]!r}", req_id=rid)
    return frame


_MISSING = object()


def field(frame: dict, name: str, typ: type | tuple[type, ...], default: Any = _MISSING) -> Any:
    """Read and type-check one field of a request frame (``bool`` is never an ``int``)."""
    v = frame.get(name, _MISSING)
    if v is _MISSING or (v is None and default is not _MISSING):
        if default is _MISSING:
            raise ProtocolError("bad_request", f"'{frame.get('t')}' needs the field '{name}'")
        return default
    types = typ if isinstance(typ, tuple) else (typ,)
    if isinstance(v, bool) and bool not in types:
        raise ProtocolError("bad_request", f"'{name}' has the wrong type")
    if not isinstance(v, types):
        raise ProtocolError("bad_request", f"'{name}' has the wrong type")
    return v


def index(frame: dict, name: str, default: Any = _MISSING, lo: int = 0, hi: int = MAX_INDEX) -> Any:
    """An integer field that indexes something or sizes a page, in ``lo..hi``; out of range is a
    ``bad_request`` naming the field and its range (the server never clamps)."""
    v = field(frame, name, int, default)
    if v is not None and not lo <= v <= hi:
        raise ProtocolError("bad_request", f"'{name}' must be an integer from {lo} to {hi}")
    return v
