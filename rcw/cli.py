"""The ``rcw`` command line: ``rcw data check``, ``rcw map``, ``rcw options``, ``rcw verify``, ``rcw report``,
``rcw simulate``, ``rcw serve``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys

from rcw import __version__


def _data_check(args: argparse.Namespace) -> int:
    from rcw import data

    try:
        d = data.load(args.data_dir)
    except data.DataError as e:
        print(f"data check failed: {e}", file=sys.stderr)
        return 1
    s = data.summary(d)
    if args.json:
        print(json.dumps(s, indent=2))
        return 0
    c = s["counters"]
    print(f"data OK: {s['provinces']} provinces, {s['rail_links']} rail links, {len(s['ports'])} ports")
    for region, n in s["regions"].items():
        print(f"  {region:<20} {n:>3} provinces")
    print(f"  ports: {' '.join(s['ports'])}")
    for k in ("red_leaders", "white_leaders"):
        print(f"  {k.replace('_', ' '):<14} {c[k]['count']:>3} counters, value {c[k]['value']}")
    for k in ("red_units", "white_units", "blue_units", "green_units"):
        print(f"  {k.replace('_', ' '):<14} {c[k]['count']:>3} counters, strength {c[k]['strength']}")
    print("  markers: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in s["markers"].items()))
    t = s["tables"]
    print(f"  CRT columns {' '.join(t['crt_columns'])}; Purge columns {' '.join(t['purge_columns'])}; "
          f"{t['random_events_cells']} Random Events cells")
    for o, n in s["optional_counters"].items():
        print(f"  optional ({o}): {n['count']} counters, strength {n['strength']} (001, not in the printed mix)")
    return 0


def _verify(args: argparse.Namespace) -> int:
    """``rcw verify RECORD``: check a finished game's record against its seed commitment and
    replay it to the recorded final state (:mod:`rcw.verify`)."""
    from rcw import verify

    src = args.record
    try:
        record = _read_json(src)
    except (OSError, ValueError) as e:
        print(f"verify failed: cannot read the record {src}: {e}", file=sys.stderr)
        return 2
    try:
        v = verify.check(record, args.commitment)
    except verify.VerifyError as e:
        if args.json:
            print(json.dumps({"verified": False, "problem": str(e)}))
        print(f"verify failed: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"verified": True, "actions": v.actions, "hash": v.hash, "over": v.over, "result": v.result}))
    else:
        print(v.text())
    return 0


def _read_json(src: str):
    if src == "-":
        raw = sys.stdin.read()
    elif src.startswith(("http://", "https://")):
        import urllib.error
        import urllib.request

        try:
            with urllib.request.urlopen(src, timeout=30) as r:    # noqa: S310 (http(s) only, checked above)
                raw = r.read().decode()
        except urllib.error.HTTPError as e:     # (the server's own words: QA read only "HTTP Error 403: Forbidden")
            try:
                said = json.loads(e.read().decode())["error"]["message"]
            except (ValueError, KeyError, TypeError, OSError):
                said = ""
            raise OSError(f"HTTP {e.code}: {said}" if said else str(e)) from None
    else:
        with open(src, encoding="utf-8") as f:
            raw = f.read()
    return json.loads(raw)


def _report(args: argparse.Namespace) -> int:
    """``rcw report RECORD``: replay a postal game and print the Gamesmaster's report of a phase
    (004 [17.0]; :mod:`rcw.postal.report`)."""
    from rcw.actions import IllegalAction
    from rcw.data import default
    from rcw.postal import render, reports

    try:
        record = _read_json(args.record)
    except (OSError, ValueError) as e:
        print(f"report failed: cannot read {args.record}: {e}", file=sys.stderr)
        return 2
    try:
        got = reports(record)
    except IllegalAction as e:
        print(f"report failed: {e.rule}: {e.message}", file=sys.stderr)
        return 1
    if args.turn is not None or args.phase is not None:
        got = [r for r in got if (args.turn is None or r["turn"] == args.turn)
               and (args.phase is None or r["phase"] == args.phase)]
    elif not args.all:
        got = got[-1:]
    if not got:
        print("report failed: no such report (the game has not reached that phase)", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(got if args.all else got[-1], indent=2))
    else:
        d = default()
        print("\n".join(render(r, d) for r in (got if args.all else got[-1:])), end="")
    return 0


def _options(args: argparse.Namespace) -> int:
    """``rcw options``: every game option of the registry (:mod:`rcw.options`), by group."""
    from rcw import options

    if args.json:
        print(json.dumps({"groups": options.GROUPS, "options": options.describe()}, indent=2))
        return 0
    for group, heading in options.GROUPS.items():
        opts = [o for o in options.OPTIONS.values() if o.group == group]
        if not opts:
            continue
        print(f"{heading} [{group}]")
        for o in opts:
            kind = "on/off" if o.type is bool else (f"{o.minimum}-{o.maximum}" if o.minimum is not None else o.type.__name__)
            default = ("on" if o.default else "off") if o.type is bool else o.default
            needs = f"; needs {o.requires}" if o.requires else ""
            print(f"  {o.name} ({kind}, default {default}{needs}): {o.help}")
            print(f"      source: {o.source}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rcw", description="SPI's Russian Civil War: rules engine, bots and server.")
    p.add_argument("--version", action="version", version=f"rcw {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    pd = sub.add_parser("data", help="inspect the game data (map, counters, tables)")
    dsub = pd.add_subparsers(dest="data_command", metavar="SUBCOMMAND")
    pc = dsub.add_parser("check", help="validate data/ and print a summary")
    pc.add_argument("--json", action="store_true", help="print the summary as JSON")
    pc.add_argument("--data-dir", default=None, help="read data files from this folder (default: the shipped data/)")
    pc.set_defaults(func=_data_check)

    pv = sub.add_parser("verify", help="check a finished game's record: its seed commitment and a replay to its final state",
                        description="Check a game record (as /api/games/<id>/record serves it when the game is over): "
                                    "the revealed seed and nonce must give the SHA-256 commitment published when the "
                                    "game was created, and the action log must replay legally to the recorded final "
                                    "state hash. Exit 0 when it verifies, 1 when it does not, 2 when the record cannot be read.")
    pv.add_argument("record", help="a record file, - for standard input, or an http(s) URL of a game's record")
    pv.add_argument("--commitment", default=None,
                    help="the commitment you saw published when the game was created (checked against the record's)")
    pv.add_argument("--json", action="store_true", help="print the verdict as JSON")
    pv.set_defaults(func=_verify)

    pr = sub.add_parser("report", help="print the Gamesmaster's report of a phase of a postal game (004 [17.0])",
                        description="Replay a postal game and print the report of one of its phases, as The Bell "
                                    "printed them: what happened, the orders not carried out and why, every player's "
                                    "stacks top to bottom, the unaligned units and the Victory Point boxes. RECORD is "
                                    "a game's record ({seed, players, options, actions}) or, to try sheets out, "
                                    "{seed, players, sheets: [{seat, turn, phase, orders}, ...]} (sent in that order). "
                                    "Default: the last phase adjudicated. Exit 1 if an action is refused or the phase "
                                    "was not reached, 2 if the file cannot be read.")
    pr.add_argument("record", help="a record or sheets file (JSON), - for standard input, or an http(s) URL")
    pr.add_argument("--turn", type=int, default=None, metavar="T", help="the Game-Turn of the report")
    pr.add_argument("--phase", choices=["deal", "trading", "first", "second"], default=None,
                    help="the phase: deal (the Initial Forces dealt), trading (the pre-season trades), first or second")
    pr.add_argument("--all", action="store_true", help="every report of the game, in order")
    pr.add_argument("--json", action="store_true", help="print the report as data (a list with --all)")
    pr.set_defaults(func=_report)

    po = sub.add_parser("options", help="list the game options (optional rules, variants, readings)",
                        description="List every game option: name, type, default, group, one-line description "
                                    "and source. Set them with 'rcw simulate --option NAME=VALUE', in the lobby's "
                                    "Options panel or in POST /api/games {\"options\": {...}}.")
    po.add_argument("--json", action="store_true", help="print {groups, options} as JSON")
    po.set_defaults(func=_options)

    from rcw import mapdraw

    mapdraw.add_parser(sub)
    # The console script also fronts the bots and the server (the engine never imports them).
    from rcw.bots import simulate, solo
    from rcw.server import cli as server_cli

    simulate.add_parser(sub)
    solo.add_parser(sub)
    server_cli.add_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except BrokenPipeError:                 # (the reader went away: `rcw options | head`)
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - (no flush error at exit)
        return 0


if __name__ == "__main__":
    sys.exit(main())
