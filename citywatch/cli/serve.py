"""``citywatch serve``: the web game, tables for people and bots, with its limits, database
and record-signing key."""

from __future__ import annotations

import argparse
import errno
import sys
from pathlib import Path

from citywatch.cli.arguments import (
    amount,
    delay,
    header_timeout,
    positive,
    proxy,
    rate,
    time_limit,
)

LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
"""The host names a server on loopback answers to unless ``--allowed-host`` is given."""


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` subcommand to ``subparsers``."""
    serve = subparsers.add_parser("serve",
                                  help="serve the web game: tables for people and bots")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    serve.add_argument("--db", help="database URL, sqlite:///PATH or postgresql://... "
                                    "(default: citywatch.db in the data directory)")
    serve.add_argument("--bot-delay", type=delay, default=None,
                       help="seconds a bot waits before its turn; its further decisions "
                            "follow at once (default 1)")
    serve.add_argument("--round-pause", type=delay, default=None, metavar="S",
                       help="the most seconds the bots wait in all between two decisions "
                            "of people, the first wait aside (default 3)")
    serve.add_argument("--bot-workers", type=positive, default=None,
                       help="processes for bots' thinking (default: the cores but one)")
    serve.add_argument("--bot-time-limit", type=time_limit, default=20.0,
                       help="seconds one bot decision may take (default 20)")
    serve.add_argument("--allowed-host", action="append", default=None, metavar="NAME",
                       help="a host name the server answers to (repeat; default: the "
                            "loopback names when listening on loopback, else any)")
    serve.add_argument("--table-rate", type=rate, default=None, metavar="RATE",
                       help="tables one address may create (default '20/10 minutes')")
    serve.add_argument("--max-open-tables", type=positive, default=None, metavar="N",
                       help="unfinished tables of the last week the server keeps "
                            "(default 2000)")
    serve.add_argument("--origin", action="append", default=[], metavar="URL",
                       help="another origin whose pages may use the server, e.g. a proxy's "
                            "https://games.example.org (repeat)")
    serve.add_argument("--idle-seconds", type=float, default=600.0, metavar="S",
                       help="a table nobody used for S seconds leaves memory until needed "
                            "again (default 600)")
    serve.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                       type=proxy,
                       help="a reverse proxy's address or network (e.g. 127.0.0.1) whose "
                            "X-Forwarded-For and X-Forwarded-Proto are believed (repeat; "
                            "default: none, the headers are ignored)")
    serve.add_argument("--max-sockets-per-address", type=positive, default=None, metavar="N",
                       help="WebSockets one client address may hold open (default 32)")
    serve.add_argument("--max-connections-per-address", type=positive, default=None,
                       metavar="N",
                       help="TCP connections (HTTP and WebSocket) one client address may hold "
                            "open; a trusted proxy is not capped (default 128)")
    serve.add_argument("--max-connections", type=positive, default=None, metavar="N",
                       help="TCP connections open at once in the process (default 10000, or "
                            "the open-file limit less 256 if that is lower)")
    serve.add_argument("--header-timeout", type=header_timeout, default=None, metavar="S",
                       help="seconds a client has to send a request's headers, from the "
                            "connection's start or the previous answer (default 10)")
    serve.add_argument("--setup-time-limit", type=time_limit, default=10.0, metavar="S",
                       help="seconds checking a new table's options and setting it up may "
                            "take (default 10)")
    serve.add_argument("--tables-per-address", type=positive, default=None, metavar="N",
                       help="unfinished tables of the last week one address may keep "
                            "(default 20)")
    serve.add_argument("--abandon-hours", type=amount(False), default=None, metavar="H",
                       help="an unfinished table with no move for H hours is closed as "
                            "abandoned (default 72)")
    serve.add_argument("--unstarted-hours", type=amount(False), default=None, metavar="H",
                       help="a table with no move at all H hours after it was made is "
                            "closed as abandoned (default 24)")
    serve.add_argument("--delete-days", type=amount(True), default=None, metavar="D",
                       help="a table closed as abandoned is deleted D days later; 0: never "
                            "(default 30)")
    serve.add_argument("--bot-table-steps", type=positive, default=None, metavar="N",
                       help="the most decisions of a table of bots only (default 20000)")
    serve.add_argument("--bot-table-hours", type=amount(False), default=None, metavar="H",
                       help="the longest a table of bots only may play (default 2)")
    serve.add_argument("--no-webhooks", action="store_true",
                       help="send no webhooks: seats of turn-based tables cannot give one")
    serve.add_argument("--webhooks-private", action="store_true",
                       help="let webhooks reach loopback and private addresses (default: "
                            "public addresses only)")
    serve.add_argument("--signing-key", type=Path, default=None, metavar="PATH",
                       help="the Ed25519 private key (PEM) that signs the records the server "
                            "issues, created if missing (default: record-signing-key.pem in "
                            "the data directory); processes serving one database share it")


def port_taken(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host`` and ``port`` (e.g. another program uses
    the port), or None if it can."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        return f"unknown address ({exc})"
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return "the port is in use by another program"
            return exc.strerror or str(exc)
    return None


def run(args: argparse.Namespace) -> int:
    """Run ``citywatch serve``; return the exit status (0 once the server stops)."""
    busy = port_taken(args.host, args.port)
    if busy:
        print(f"citywatch serve: error: cannot listen on {args.host} port {args.port}: {busy}; "
              "choose another port with --port N (with make: make play PORT=N)",
              file=sys.stderr)
        return 2
    from dataclasses import replace

    import uvicorn
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from citywatch.core.signature import KeyFileError
    from citywatch.saves import data_dir
    from citywatch.server import create_app
    from citywatch.server.app import MAX_BODY
    from citywatch.server.connections import (
        ConnectionLimits,
        default_total,
        raise_open_files,
        uvicorn_options,
    )
    from citywatch.server.signing import KEY_FILE, load_signer
    from citywatch.server.storage import StorageError
    from citywatch.server.tables import Limits
    from citywatch.server.webhooks import WebhookRules

    key_path = args.signing_key if args.signing_key is not None else data_dir() / KEY_FILE
    try:
        signer = load_signer(key_path)
    except KeyFileError as exc:
        print(f"citywatch serve: error: {exc}", file=sys.stderr)
        return 2
    if signer.created:
        print(f"citywatch: made a new record-signing key {key_path} (key id {signer.key_id}); "
              "keep it: records signed with it verify only with its public key", flush=True)

    url = args.db
    if url is None:
        folder = data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{folder / 'citywatch.db'}"
    allowed = args.allowed_host
    if allowed is None and args.host in ("127.0.0.1", "localhost", "::1"):
        allowed = LOOPBACK_HOSTS  # a page on another name (DNS rebinding) is refused
    try:
        limits = Limits()
        if args.max_open_tables is not None:
            limits = replace(limits, open_tables=args.max_open_tables)
        if args.table_rate is not None:
            limits = replace(limits, creations=args.table_rate)
        if args.max_sockets_per_address is not None:
            limits = replace(limits, sockets_per_address=args.max_sockets_per_address)
        chosen = {"open_tables_per_address": args.tables_per_address,
                  "abandon_hours": args.abandon_hours, "unstarted_hours": args.unstarted_hours,
                  "delete_days": args.delete_days, "bot_table_steps": args.bot_table_steps,
                  "bot_table_hours": args.bot_table_hours}
        limits = replace(limits, **{k: v for k, v in chosen.items() if v is not None})
        raise_open_files()
        connection_limits = ConnectionLimits()
        connection_limits = replace(
            connection_limits, trusted_proxies=tuple(args.trusted_proxy),
            total=args.max_connections or default_total(),
            per_address=args.max_connections_per_address or connection_limits.per_address,
            header_seconds=args.header_timeout or connection_limits.header_seconds)
        pace = {name: value for name, value in (("bot_delay", args.bot_delay),
                                                 ("round_pause", args.round_pause))
                if value is not None}
        app = create_app(url, **pace, bot_workers=args.bot_workers,
                         bot_time_limit=args.bot_time_limit, allowed_hosts=allowed,
                         origins=args.origin, limits=limits, idle_seconds=args.idle_seconds,
                         setup_time_limit=args.setup_time_limit, signing_key=signer,
                         webhooks=WebhookRules(enabled=not args.no_webhooks,
                                               allow_private=args.webhooks_private))
    except (StorageError, ValueError) as exc:
        print(f"citywatch serve: error: {exc}", file=sys.stderr)
        return 2
    except SQLAlchemyError as exc:
        print(f"citywatch serve: error: cannot open the database: {exc}", file=sys.stderr)
        return 2
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(args.host, args.host)
    host = f"[{host}]" if ":" in host else host
    shown = make_url(url).render_as_string(hide_password=True)
    print(f"citywatch: open http://{host}:{args.port}/ (database {shown})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                ws_max_size=MAX_BODY, **uvicorn_options(connection_limits))
    return 0
