"""The ``duel serve`` command: the web app on a local port (uvicorn)."""
from __future__ import annotations

import ipaddress
import os
import socket
import sys
import threading
from pathlib import Path

import click

from duelpy.cli.common import FloatRange, IntRange

__all__ = ["serve"]


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (one-line ClickException if it cannot be had)."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise click.BadParameter(f"{host}: unknown host ({e.strerror})",
                                 param_hint="--host") from None
    family, _, _, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # answers are written in two parts (head, body): without TCP_NODELAY (inherited by the
    # accepted connections) Nagle's algorithm holds the body ~40 ms on a kept-alive connection
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind(addr)
        sock.listen(128)
    except OSError as e:
        sock.close()
        hint = " (another server is there: try --port 0 for any free port)" \
            if e.errno in (98, 48) else ""
        raise click.ClickException(f"cannot listen on {host}:{port}: "
                                   f"{e.strerror or e}{hint}") from None
    sock.set_inheritable(True)
    return sock


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. The default answers this computer only; "
                   "0.0.0.0 lets anyone on the network play.")
@click.option("--port", type=IntRange(0, 65535), default=8000, show_default=True,
              help="Port (0: any free port; the address is printed).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser.")
@click.option("--study", "study_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Also show this duel study's report and plots.")
@click.option("--max-games", type=IntRange(1, 10_000), default=32, show_default=True,
              help="Games kept at once (the least recently used idle one makes room).")
@click.option("--threads", type=IntRange(1, 256), default=2, show_default=True,
              help="Searches (AI moves and hints) run at once.")
@click.option("--hint-seconds", type=FloatRange(0.01, 60), default=1.0,
              show_default=True, help="Thinking time of a hint.")
@click.option("--max-seconds", type=FloatRange(0.01, 3600), default=60.0,
              show_default=True, help="The most thinking time per move a Duel opponent may get "
                                      "(7 Wonders' AI seats are limited in iterations).")
@click.option("--quiet", "-q", is_flag=True, help="No request log.")
def serve(host, port, open_browser, study_dir, max_games, threads, hint_seconds, max_seconds,
          quiet):
    """Play 7 Wonders Duel, 7 Wonders or 7 Wonders Architects against the AI in a web
    browser (and replay records, show a study).

    Starts a local web server and prints its address; Ctrl-C stops it. The page works on a
    desktop, a tablet or a phone. It has a new-game form (the game; your seat, the opponent
    and its strength, rule options; for 7 Wonders and Architects 2 to 7 players, AI at every
    other seat), the board with card faces, prices and what each move does (a tap or hover
    shows a card's text), the opponent's moves shown, hints (Duel), undo (not in
    Architects), the game record to download, and a replay viewer for every game's records.

    \b
    Examples:
      duel serve --open
      duel serve --port 8080 --study docs/example-study
    """
    import uvicorn

    from duelpy.web.app import LOOPBACK_HOSTS, create_app

    if study_dir is not None and not study_dir.is_dir():
        raise click.BadParameter(f"{study_dir}: no such folder", param_hint="--study")
    try:
        app = create_app(study_dir=study_dir, max_games=max_games, threads=threads,
                         hint_seconds=hint_seconds, max_seconds=max_seconds,
                         allowed_hosts=LOOPBACK_HOSTS if _is_loopback(host) else ["*"])
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--study") from None
    sock = _listen(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host.strip("[]") else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{bound}/"
    click.echo(f"duel serve: {url} (Ctrl-C to stop)", err=False)
    if not _is_loopback(host):
        click.echo(f"warning: listening on {host}: anyone who can reach this computer can "
                   f"play and load records here", err=True)
    sys.stdout.flush()
    config = uvicorn.Config(app, log_level="warning" if quiet else "info",
                            access_log=not quiet, timeout_graceful_shutdown=1,
                            timeout_keep_alive=5, lifespan="on")
    server = _make_server(config, app.state.games)
    if open_browser:
        import webbrowser
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    # Nothing is left to save (records live in the browser's downloads), so end the process
    # now: the interpreter's teardown (pandas, numpy ...) and a search thread still running
    # would otherwise take up to seconds on a busy machine after Ctrl-C.
    try:
        click.echo("duel serve: stopped")
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:                  # the terminal or the pipe that read our output is gone
        pass
    os._exit(0)


def _make_server(config, games):
    """uvicorn's server, told at the first Ctrl-C to end the requests waiting for a game."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            games.closing = True              # a plain flag: waiting requests see it in 0.2 s
            super().handle_exit(sig, frame)

    return Server(config)
