// Dice anyone can verify (docs/protocol.md section 1.1, rcw/verify.py).  When the page first
// opens a game it notes the game's seed commitment (the SHA-256 the server published when the
// game was created) in this browser's storage.  Once the game is over, "Verify" fetches the
// record with the revealed seed and nonce, hashes them here in the browser and compares the
// result with the commitment noted at the start, then shows the server's replay of the log to
// the record's final state (the same check as `rcw verify`).

import { h, store, modal } from "./util.js";
import { api } from "./net.js";

const PREFIX = "rcw-seed-v1";

/** Remember the commitment this browser first saw for a game (never overwritten). */
export function noteCommitment(gid, info) {
  if (!info || !info.commitment) return;
  const key = "commit:" + gid;
  if (!store.get(key, null)) store.set(key, { commitment: info.commitment, seen: Date.now() });
}

/** The commitment as first noted here, or null. */
export function notedCommitment(gid) {
  const n = store.get("commit:" + gid, null);
  return n ? n.commitment : null;
}

async function sha256hex(text) {
  if (!globalThis.crypto || !crypto.subtle) return null;     // (an insecure http page has no WebCrypto)
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The record's seed as written (a seed may exceed 2**53: JSON.parse would round it). */
function seedText(raw) {
  const m = /"seed"\s*:\s*(\d+)/.exec(raw);
  return m ? m[1] : null;
}

/** Check a finished game: [{label, ok, detail}] for the commitment and the replay. */
export async function verifyGame(gid, token = null) {
  const checks = [];
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const r = await fetch(`/api/games/${gid}/record`, { headers });
  const raw = await r.text();
  if (!r.ok) {
    let msg = r.statusText;
    try { msg = JSON.parse(raw).error.message; } catch { /* keep the status text */ }
    return [{ label: "Record", ok: false, detail: msg }];
  }
  const rec = JSON.parse(raw);
  const seed = seedText(raw);
  if (!rec.commitment || !rec.nonce || seed === null) {
    return [{ label: "Commitment", ok: false, detail: "this game was created before seed commitments" }];
  }
  const noted = notedCommitment(gid);
  if (noted) {
    checks.push({ label: "Published at the start", ok: noted === rec.commitment,
      detail: noted === rec.commitment ? `the record's commitment is the one this browser noted (${noted.slice(0, 16)}…)`
        : `this browser noted ${noted.slice(0, 16)}…, the record says ${rec.commitment.slice(0, 16)}…` });
  } else {
    checks.push({ label: "Published at the start", ok: null, detail: "this browser did not see the game before it ended" });
  }
  const got = await sha256hex(`${PREFIX}:${seed}:${rec.nonce}`);
  if (got === null) {
    checks.push({ label: "Seed", ok: null, detail: "this page cannot hash (not a secure context): use rcw verify" });
  } else {
    checks.push({ label: "Seed", ok: got === rec.commitment,
      detail: got === rec.commitment ? `SHA-256 of the revealed seed ${seed} and nonce is the commitment`
        : `SHA-256 of the revealed seed is ${got.slice(0, 16)}…, not the commitment ${rec.commitment.slice(0, 16)}…` });
  }
  try {
    const v = await api("GET", `/api/games/${gid}/verify`, null, token);
    checks.push({ label: "Replay", ok: v.verified,
      detail: v.verified ? `${v.actions} actions replayed legally to the final state ${v.hash.slice(0, 16)}…` : v.problem });
  } catch (e) {
    checks.push({ label: "Replay", ok: false, detail: e.message });
  }
  return checks;
}

/** The Verify dialog (menu, once the game is over). */
export async function openVerify(gid, token = null) {
  const list = h("ul.verify-list", { "aria-live": "polite" }, h("li", "Checking…"));
  const dlg = modal("Verify the dice", h("div", list,
    h("p.small", "Independent check: download the record and run ", h("code", "rcw verify RECORD"), "."),
    h("a.btn", { href: `/api/games/${gid}/record`, download: `rcw-${gid}.json` }, "Download the record")), []);
  const checks = await verifyGame(gid, token);
  list.replaceChildren(...checks.map((c) => h("li.verify-item", { dataset: { ok: c.ok === null ? "unknown" : c.ok ? "yes" : "no" } },
    h("strong", `${c.ok === null ? "–" : c.ok ? "✓" : "✗"} ${c.label}: `), c.detail)));
  const all = checks.every((c) => c.ok !== false);
  dlg.el.dataset.verified = all ? "yes" : "no";
  return checks;
}
