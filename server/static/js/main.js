// Routes: #/ the lobby; #/g/<game> a game (watching, or the seat this browser holds);
// #/g/<game>/<seat> a game as that seat (when this browser holds its token; A-F, or R in the SPI
// solitaire); #/login/<code> an e-mail's one-time login link (server/notify.py): exchanged for a
// device token of its seat, kept like any seat token, then the game.

import { colourStyle } from "./data.js";
import { h, replace, holdSeat } from "./util.js";
import { api } from "./net.js";

document.head.append(h("style", { id: "unit-colours" }, colourStyle()));

let current = null;

async function route() {
  const root = document.getElementById("app");
  const login = /^#\/login\/([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
  if (login) {
    try {
      const r = await api("POST", "/api/login", { code: login[1] });
      holdSeat(r.game, r.seat, r.token, "");
      location.replace(`#/g/${r.game}/${r.seat}`);   // (the code leaves the address bar and the history)
    } catch (e) {
      replace(root, h("div.notfound", h("h1", "This link has been used"), h("p", String(e && e.message ? e.message : e)),
        h("a.btn.primary", { href: "#/" }, "To the lobby")));
    }
    return;
  }
  // a game's id is what the server makes them of (server/lobby.py GAME_ID): an address with any
  // other character is no game's, and says so (it once opened the game named by its first letters)
  const m = /^#\/g\/([A-Za-z0-9_-]{1,40})(?:\/([A-FRa-fr]))?\/?$/.exec(location.hash);    // (a seat in either case)
  const bad = !m && /^#\/g\//.test(location.hash);
  const seat = m && m[2] ? m[2].toUpperCase() : null;
  const key = m ? `g:${m[1]}:${seat || ""}` : bad ? `bad:${location.hash}` : "lobby";
  if (key === current) return;
  const was = current;
  current = key;
  if (was && was.startsWith("g:")) {
    // leaving a game page: the simplest clean slate is a fresh document
    location.reload();
    return;
  }
  if (bad) {
    replace(root, h("div.notfound", h("h1", "Not a game's address"),
      h("p", `“${shown(location.hash.slice(4))}” is not a game's address: a game id has only letters, digits, - and _, `
        + "and a seat after it is one letter, A to F (R in the SPI solitaire)."),
      h("a.btn.primary", { href: "#/" }, "To the lobby")));
    return;
  }
  try {
    if (m) {
      const { startGame } = await import("./game.js");
      await startGame(root, m[1], seat);
    } else {
      // (the address may change while the lobby loads, to a game's whose page is then built:
      // the lobby, coming later, must not clear it; a test saw it so under load)
      const { startLobby } = await import("./lobby.js");
      await startLobby(root, () => current === key);
    }
  } catch (e) {
    console.error(e);
    replace(root, h("div.notfound", h("h1", "Something went wrong"), h("p", String(e && e.message ? e.message : e)),
      h("a.btn.primary", { href: "#/" }, "Back to the lobby")));
  }
}

/** A part of the address as typed (%-escapes decoded where they can be). */
function shown(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

window.addEventListener("hashchange", route);
route();
