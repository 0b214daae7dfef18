// The play protocol: msgpack maps over one WebSocket (docs/protocol.md), plus the HTTP lobby.
// Requests carry an integer `id` that the server echoes; pushes (update, msg, channel, seats)
// have none.  The connection re-opens by itself after a drop and says `hello` again with the
// same seat token, so a lost connection resumes the seat.

const MP = globalThis.MessagePack;

export class ServerError extends Error {
  constructor(frame) {
    super(frame.message || frame.code || "error");
    this.code = frame.code;
    this.rule = frame.rule || null;
    this.frame = frame;
  }
}

export async function api(method, path, body = null, token = null) {
  const headers = {};
  if (body !== null) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const r = await fetch(path, { method, headers, body: body !== null ? JSON.stringify(body) : undefined });
  let data = null;
  try {
    data = await r.json();
  } catch {
    data = null;
  }
  if (!r.ok) {
    const err = (data && data.error) || { code: `http_${r.status}`, message: r.statusText };
    throw new ServerError(err);
  }
  return data;
}

function wsUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws`;
}

/** The requests by which a page acts for its seat (an action; a chat proposal or answer, which
 *  may apply one; a postal sheet). */
const ACTING = new Set(["act", "accept", "decline", "chat", "sheet"]);

/**
 * One game connection.  Callbacks: onWelcome(frame), onPush(frame), onStatus("open"|"closed"|"connecting"),
 * onError(err) for errors that answer no request.
 */
export class GameConnection {
  constructor(gid, token, handlers) {
    this.gid = gid;
    this.token = token || null;
    this.h = handlers;
    this.ws = null;
    this.nextId = 1;
    this.waiting = new Map();
    this.closing = false;
    this.retry = 0;
    this.state = "connecting";
    this.welcomed = false;
    // what this page itself sends that may act for its seat: those under way, and the seqs the
    // server gave them (an update of the seat's that is neither came from another tab or window)
    this.acting = 0;
    this.ownSeqs = new Set();
  }

  open() {
    this.closing = false;
    this._connect();
  }

  _setState(st) {
    this.state = st;
    if (this.h.onStatus) this.h.onStatus(st);
  }

  _connect() {
    this.nextTry = null;                 // (trying now)
    this._setState("connecting");
    let ws;
    try {
      ws = new WebSocket(wsUrl());
    } catch (e) {
      this._later();
      return;
    }
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = async () => {
      this.retry = 0;
      this.attempts = 0;
      this.nextTry = null;
      try {
        const f = { game: this.gid };
        if (this.token) f.token = this.token;
        const w = await this.request("hello", f);
        this.welcomed = true;
        this._setState("open");
        if (this.h.onWelcome) await this.h.onWelcome(w);
      } catch (e) {
        if (this.h.onHelloError) this.h.onHelloError(e);
        else if (this.h.onError) this.h.onError(e);
      }
    };
    ws.onmessage = (ev) => {
      let f;
      try {
        f = MP.decode(new Uint8Array(ev.data));
      } catch (e) {
        console.warn("undecodable frame", e);
        return;
      }
      if (f === null || typeof f !== "object") return;
      const rid = f.id;
      if (rid !== null && rid !== undefined && this.waiting.has(rid)) {
        const { resolve, reject } = this.waiting.get(rid);
        this.waiting.delete(rid);
        if (f.t === "error") reject(new ServerError(f));
        else resolve(f);
        return;
      }
      if (f.t === "error") {
        if (this.h.onError) this.h.onError(new ServerError(f));
        return;
      }
      if (this.h.onPush) this.h.onPush(f);
    };
    ws.onclose = () => {
      for (const { reject } of this.waiting.values()) reject(new ServerError({ code: "closed", message: "connection lost" }));
      this.waiting.clear();
      if (this.ws === ws) this.ws = null;
      if (this.closing) {
        this._setState("closed");
        return;
      }
      this._later();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  _later() {
    const delay = Math.min(5000, 300 * 2 ** this.retry) + Math.random() * 200;
    this.attempts = (this.attempts || 0) + 1;      // (tries since the connection was lost, for the banner)
    this.nextTry = Date.now() + delay;              // (when the next one starts)
    this._setState("connecting");
    this.retry = Math.min(this.retry + 1, 6);
    clearTimeout(this._timer);
    this._timer = setTimeout(() => {
      if (!this.closing) this._connect();
    }, delay);
  }

  close() {
    this.closing = true;
    clearTimeout(this._timer);
    if (this.ws) this.ws.close();
  }

  /** Try to reconnect now instead of at the next retry (the "Reconnect now" button). */
  retryNow() {
    if (this.closing || this.state === "open" || (this.ws && this.ws.readyState === WebSocket.CONNECTING)) return;
    clearTimeout(this._timer);
    this.retry = 0;
    this._connect();
  }

  /** Drop the socket as if the network failed (the page reconnects by itself). */
  drop() {
    if (this.ws) this.ws.close();
  }

  request(t, fields = {}, timeout = 30000) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new ServerError({ code: "closed", message: "not connected; reconnecting…" }));
        return;
      }
      const id = this.nextId++;
      const acting = ACTING.has(t);
      if (acting) this.acting++;
      const done = (f) => {
        clearTimeout(timer);
        if (!acting) return;
        this.acting--;
        const seq = f && (f.seq ?? (f.msg && f.msg.reply && f.msg.reply.seq));
        if (Number.isInteger(seq)) {
          this.ownSeqs.add(seq);
          if (this.ownSeqs.size > 200) this.ownSeqs.delete(this.ownSeqs.values().next().value);
        }
      };
      const timer = setTimeout(() => {
        if (this.waiting.has(id)) {
          this.waiting.delete(id);
          done(null);
          // (in words a player reads: QA got "no answer to 'sheet'", and did not know whether it was sent)
          reject(new ServerError({ code: "timeout", message: `The server did not answer in ${Math.round(timeout / 1000)} s: ` +
            "what you sent may or may not have been taken. The page shows the game as the server has it once it answers again." }));
        }
      }, timeout);
      this.waiting.set(id, {
        resolve: (f) => { done(f); resolve(f); },
        reject: (e) => { done(null); reject(e); },
      });
      this.ws.send(MP.encode({ t, id, ...fields }));
    });
  }

  act(action) {
    return this.request("act", { action });
  }
}
