"""The web app of ``duel serve``: a JSON API and the page that uses it (Starlette).

Endpoints (every error is JSON ``{"error": "one line"}`` with a 4xx status, never a 500 for
bad input; request bodies are JSON objects sent as ``application/json``):

====== =================================== ================================================
GET    ``/``                               the page (static files under ``/static``)
GET    ``/api/meta``                       agents, strengths, rule options, the card texts
POST   ``/api/games``                      new game ``{game?, seat, opponent, seed?, replaces?,
                                           ...}``: Duel ``first_game_wonders?, centred_pawn?,
                                           start_coins?``; 7 Wonders (``game: "seven"``)
                                           ``players, sides?``; 7 Wonders Architects
                                           (``game: "architects"``) ``players, wonder?,
                                           free_order?, ...`` (A-OPT) -> the view.  ``seed``
                                           is an integer or its decimal string (0..2^64-1);
                                           ``replaces`` abandons that game for this one
GET    ``/api/games/{id}``                 the view; ``?version=V&wait=S`` waits up to S s
                                           (at most 30) for a change from version V
POST   ``/api/games/{id}/move``            ``{"action": id}`` or ``{"move": "build Altar"}``,
                                           ``version?`` (409 "the game has moved on" if it
                                           is not the game's), ``seat?`` (7 Wonders);
                                           Architects: ``{"move": "take left"}``
POST   ``/api/games/{id}/undo``            back to your previous decision (``{version?}``)
POST   ``/api/games/{id}/hint``            the strongest agent's visit shares
GET    ``/api/games/{id}/record``          the game record (JSON file, as ``duel play`` writes)
DELETE ``/api/games/{id}``                 abandon the game
POST   ``/api/replays``                    load a record (the record's JSON as the body)
GET    ``/api/replays/{id}/positions/{k}`` the position after move k
GET    ``/api/server``                     searches under way, games kept
GET    ``/api/study``                      the study shown with ``--study`` (404 without)
GET    ``/study/{file}``                   its report.html, report.md and plots/*.png
====== =================================== ================================================
"""
from __future__ import annotations

import contextlib
import json
import logging
import math
import re
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from duelpy.duel import agents
from duelpy.duel.agents import STRONGEST
from duelpy.duel.notation import NUM_DECISION_ACTIONS
from duelpy.architects.agents import AGENT_KINDS as ARCH_AGENTS
from duelpy.seven.agents import AGENT_KINDS as SEVEN_AGENTS
from duelpy.web import architects as arch
from duelpy.web.games import GameManager, WebError, agent_label, with_budget
from duelpy.web.seven import MAX_ITERATIONS, SevenReplay, make_game, seven_catalogue
from duelpy.web.view import catalogue

__all__ = ["create_app", "STATIC", "LOOPBACK_HOSTS"]

STATIC = Path(__file__).parent / "static"
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
MAX_BODY = 2_000_000            # bytes: a record of a whole game is about 10 kB
MAX_WAIT = 30.0                 # seconds a GET may wait for a change
_INT = re.compile(r"-?[0-9]{1,20}")       # ASCII digits only: isdigit() takes '²' and '٣'
_log = logging.getLogger("duel.serve")

_SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
     b"frame-ancestors 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class _SecurityHeaders:
    """ASGI middleware: a strict Content-Security-Policy (no script but ours) on every answer."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + _SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


# ---------------------------------------------------------------- validation
async def _body(request: Request) -> dict:
    """The request's JSON object (415/413/400 otherwise)."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise WebError(415, "send the request body as JSON (Content-Type: application/json)")
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise WebError(413, f"request body too large (at most {MAX_BODY:,} bytes)")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise WebError(413, f"request body too large (at most {MAX_BODY:,} bytes)")
    try:
        data = json.loads(raw.decode("utf-8")) if raw.strip() else None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise WebError(400, f"the request body is not valid JSON: {e}") from None
    except RecursionError:
        raise WebError(400, "the request body is nested too deeply") from None
    if not isinstance(data, dict):
        raise WebError(400, "the request body must be a JSON object")
    return data


def _only(body: dict, allowed, where: str):
    extra = sorted(set(body) - set(allowed))
    if extra:
        raise WebError(400, f"{where}: unknown field {extra[0]!r} (fields: "
                            f"{', '.join(sorted(allowed))})")


def _int(body, key, lo, hi, default=..., what=None):
    if key not in body or body[key] is None:
        if default is ...:
            raise WebError(400, f"missing field {key!r} ({what or f'an integer {lo}..{hi}'})")
        return default
    v = body[key]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise WebError(400, f"{key} must be {what or f'an integer from {lo} to {hi}'}, "
                            f"not {json.dumps(v)[:40]}")
    return v


def _bool(body, key, default=False):
    v = body.get(key, default)
    if not isinstance(v, bool):
        raise WebError(400, f"{key} must be true or false, not {json.dumps(v)[:40]}")
    return v


def _str(body, key, default=..., max_len=200):
    if key not in body:
        if default is ...:
            raise WebError(400, f"missing field {key!r}")
        return default
    v = body[key]
    if not isinstance(v, str) or len(v) > max_len:
        raise WebError(400, f"{key} must be a string of at most {max_len} characters")
    return v


def _query(request, key, default, lo, hi, integer: bool):
    """A query parameter: an integer (ASCII digits only: no '²') or a finite number, from
    ``lo`` to ``hi``; ``default`` if absent.  WebError (400) naming it otherwise."""
    v = request.query_params.get(key)
    if v is None:
        return default
    try:
        if integer and not _INT.fullmatch(v):
            raise ValueError
        x = int(v) if integer else float(v)
    except ValueError:
        x = None
    if x is None or not math.isfinite(x) or not lo <= x <= hi:
        kind, span = ("an integer", f"{lo} to {hi}") if integer else \
            ("a number", f"{lo:g} to {hi:g}")
        raise WebError(400, f"query parameter {key} must be {kind} from {span}, not {v[:40]!r}")
    return x


def _seed(body) -> int | None:
    """The seed: an integer or its decimal string (a page's JavaScript numbers lose digits
    above 2^53), from 0 to 2^64 - 1."""
    if "seed" not in body or body["seed"] is None or body["seed"] == "":
        return None
    v = body["seed"]
    top = 2 ** 64 - 1
    what = f"seed must be a whole number from 0 to {top:,}"
    if isinstance(v, str):
        t = v.strip().replace(",", "").replace("_", "")
        if not re.fullmatch(r"[0-9]{1,100}", t):
            raise WebError(400, f"{what}, not {v[:30]!r}")
        v = int(t)
    if isinstance(v, bool) or not isinstance(v, int):
        raise WebError(400, f"{what}, not {json.dumps(v)[:30]}")
    if not 0 <= v <= top:
        raise WebError(400, f"{what}: {str(v)[:30]} is too large" if v > 0 else
                            f"{what}, not {v}")
    return v


# ---------------------------------------------------------------- the app
def _handlers(web_error, http_error, server_error) -> dict[Any, Any]:
    """Starlette's exception handlers, by exception class."""
    return {WebError: web_error, HTTPException: http_error, Exception: server_error}


def create_app(*, study_dir: Path | None = None, manager: GameManager | None = None,
               allowed_hosts=None, **manager_options) -> Starlette:
    """The ASGI app.

    Parameters
    ----------
    study_dir : Path, optional
        A ``duel study`` output folder to show (its report.html/.md and plots/*.png).
    manager : GameManager, optional
        The games (a new one from ``manager_options`` by default: see :class:`GameManager`).
    allowed_hosts : list of str, optional
        Host names the app answers to (defaults to the loopback names, which protects a
        local server from DNS rebinding); ``["*"]`` for any.

    Raises
    ------
    ValueError
        If ``study_dir`` holds no study report.
    """
    games = manager or GameManager(**manager_options)
    games.replay_makers["seven"] = SevenReplay
    games.replay_makers["architects"] = arch.ArchReplay
    study = _study_files(study_dir) if study_dir is not None else None

    async def index(request):
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def meta(request):
        return JSONResponse({
            "agents": _agent_kinds(),
            "strongest": STRONGEST, "default_opponent": with_budget(STRONGEST, "seconds=2"),
            "max_seconds": games.max_seconds, "max_iterations": games.max_iterations,
            "hint_seconds": games.hint_seconds, "study": study is not None,
            "options": {"centred_pawn": ["chooses", "begins"], "first_game_wonders": False,
                        "start_coins": [7, 7]},
            **catalogue(),
            "games": _web_games(),
        })

    async def new_game(request):
        body = await _body(request)
        kind = body.get("game", "duel")
        if kind not in ("duel", "seven", "architects"):
            raise WebError(400, f"game must be 'duel', 'seven' or 'architects', not "
                                f"{json.dumps(kind)[:30]}")
        common = ("game", "seat", "opponent", "seed", "replaces")
        seed = _seed(body)
        old = None
        if "replaces" in body and body["replaces"] is not None:
            rid = _str(body, "replaces", max_len=100)
            old = games.games.get(rid)
        if kind == "seven":
            _only(body, common + ("players", "sides"), "new 7 Wonders game")
            players = _int(body, "players", 2, 7, 4, "a player count from 2 to 7")
            seat = _int(body, "seat", 1, players, 1, f"a seat from 1 to {players}")
            opponent = _str(body, "opponent", "greedy")
            sides = _str(body, "sides", "random", max_len=10)
            if games.closing:
                raise WebError(503, "the server is stopping")
            game = games.add(make_game(players=players, seat=seat, opponent=opponent,
                                       seed=seed, sides=sides))
        elif kind == "architects":
            _only(body, common + ("players", "wonder") + tuple(arch.RULE_OPTIONS),
                  "new 7 Wonders Architects game")
            players = _int(body, "players", 2, 7, 3, "a player count from 2 to 7")
            seat = _int(body, "seat", 1, players, 1, f"a seat from 1 to {players}")
            opponent = _str(body, "opponent", "greedy")
            wonder = _str(body, "wonder", None, max_len=40)
            if wonder in ("", "random"):
                wonder = None
            options = {k: _bool(body, k, arch.RULE_OPTIONS_DEFAULTS[k])
                       for k in arch.RULE_OPTIONS if k in body}
            if games.closing:
                raise WebError(503, "the server is stopping")
            game = games.add(arch.make_game(players=players, seat=seat, opponent=opponent,
                                            seed=seed, wonder=wonder, options=options))
        else:
            _only(body, common + ("first_game_wonders", "centred_pawn", "start_coins"),
                  "new game")
            seat = _int(body, "seat", 1, 2, 1, "1 (P1, who begins) or 2")
            opponent = _str(body, "opponent", with_budget(STRONGEST, "seconds=2"))
            options = {"first_game_wonders": _bool(body, "first_game_wonders")}
            if "centred_pawn" in body:
                cp = body["centred_pawn"]
                if cp not in ("chooses", "begins"):
                    raise WebError(400, f"centred_pawn must be 'chooses' or 'begins', not "
                                        f"{json.dumps(cp)[:40]}")
                options["centred_pawn"] = cp
            if "start_coins" in body:
                sc = body["start_coins"]
                if not (isinstance(sc, list) and len(sc) == 2 and all(
                        isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 99
                        for x in sc)):
                    raise WebError(400, "start_coins must be two integers from 0 to 99 "
                                        "(P1's and P2's coins)")
                options["start_coins"] = sc
            game = await games.create(seat=seat, opponent=opponent, seed=seed, options=options)
        if old is not None and old is not game:
            games.close_game(old, "a new game was started in its place", replaced_by=game.id)
        return _game_response(game, 201)

    async def get_game(request):
        game = games.get(request.path_params["gid"])
        version = _query(request, "version", None, 0, 2 ** 62, integer=True)
        wait = _query(request, "wait", 0.0, 0.0, MAX_WAIT, integer=False)
        games.resume(game)
        if version is not None and wait > 0:
            await games.wait(game, version, wait, request.is_disconnected)
            game = games.get(request.path_params["gid"])
        return _game_response(game)

    async def move(request):
        game = games.get(request.path_params["gid"])
        body = await _body(request)
        seven = game.game_name == "seven"
        _only(body, ("action", "move", "version", "seat") if seven else
              ("action", "move", "version"), "move")
        if game.game_name == "architects":
            if ("action" in body) == ("move" in body):
                raise WebError(400, "give either 'action' (an action id) or 'move' (its name, "
                                    "e.g. 'take left')")
            version = _int(body, "version", 0, 2 ** 62, None, "the game's version (an integer)")
            if "action" in body:
                game.move(action=_int(body, "action", 0, arch.NUM_ACTIONS - 1,
                                      what=f"an action id from 0 to {arch.NUM_ACTIONS - 1}"),
                          version=version)
            else:
                game.move(text=_str(body, "move"), version=version)
            games.schedule_ai(game)
            return _game_response(game)
        if ("action" in body) == ("move" in body):
            raise WebError(400, "give either 'action' (an action id) or 'move' (its name)")
        version = _int(body, "version", 0, 2 ** 62, None, "the game's version (an integer)")
        if seven:
            seat = _int(body, "seat", 0, 7, None, "a seat from 0 to 7")
            if "action" in body:
                action = _int(body, "action", 0, 10 ** 6, what="an action id")
                game.move(seat=seat, action=action, version=version)
            else:
                game.move(seat=seat, text=_str(body, "move"), version=version)
            games.schedule_ai(game)
        elif "action" in body:
            action = _int(body, "action", 0, NUM_DECISION_ACTIONS - 1,
                          what=f"an action id from 0 to {NUM_DECISION_ACTIONS - 1}")
            await games.move(game, action=action, version=version)
        else:
            await games.move(game, text=_str(body, "move"), version=version)
        return _game_response(game)

    async def undo(request):
        game = games.get(request.path_params["gid"])
        version = None
        if request.headers.get("content-length", "0") not in ("0", ""):
            body = await _body(request)
            _only(body, ("version",), "undo")
            version = _int(body, "version", 0, 2 ** 62, None, "the game's version")
        await games.undo(game, version)
        return _game_response(game)

    async def hint(request):
        game = games.get(request.path_params["gid"])
        return JSONResponse(await games.hint(game))

    async def record(request):
        game = games.get(request.path_params["gid"])
        name, text = game.record_file()
        return Response(text, media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="{name}"'})

    async def server(request):
        return JSONResponse({"searches": games.pool.pending, "games": len(games.games),
                             "thinking": sum(g.thinking for g in games.games.values())})

    async def abandon(request):
        game = games.get(request.path_params["gid"])
        games.close_game(game, "it was deleted")
        return JSONResponse({"closed": game.id})

    async def new_replay(request):
        body = await _body(request)
        rep = games.load_replay(body)
        return JSONResponse(rep.summary(), status_code=201)

    async def get_replay(request):
        return JSONResponse(games.get_replay(request.path_params["rid"]).summary())

    async def replay_position(request):
        rep = games.get_replay(request.path_params["rid"])
        k = request.path_params["k"]
        if not _INT.fullmatch(k) or k.startswith("-") or len(k) > 9:
            raise WebError(404, f"positions are numbered 0 to {len(rep.states) - 1}, "
                                f"not {k[:20]!r}")
        return JSONResponse(rep.position(int(k)))

    async def study_info(request):
        if study is None:
            raise WebError(404, "no study: start the server with duel serve --study DIR")
        return JSONResponse({"title": study["title"], "html": "report.html" in study["files"],
                             "markdown": study["markdown"],
                             "plots": [f for f in study["files"] if f.startswith("plots/")]})

    async def study_file(request):
        name = request.path_params["path"]
        if study is None or name not in study["files"]:
            raise WebError(404, f"no study file {name[:80]!r}")
        path = study["files"][name]
        media = {".png": "image/png", ".html": "text/html", ".md": "text/markdown",
                 ".json": "application/json"}[path.suffix]
        return FileResponse(path, media_type=media)

    async def web_error(request, exc: WebError):
        return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)

    async def http_error(request, exc: HTTPException):
        detail = exc.detail
        if exc.status_code == 404:
            detail = f"no such page or endpoint: {request.url.path[:100]}"
        elif exc.status_code == 405:
            detail = f"{request.method} is not allowed on {request.url.path[:100]}"
        return JSONResponse({"error": detail}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    async def server_error(request, exc: Exception):        # a bug: say so, log it
        _log.exception("internal error on %s %s", request.method, request.url.path)
        return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        games.close()

    routes = [
        Route("/", index),
        Route("/api/meta", meta),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{gid}", get_game, methods=["GET"]),
        Route("/api/games/{gid}", abandon, methods=["DELETE"]),
        Route("/api/games/{gid}/move", move, methods=["POST"]),
        Route("/api/games/{gid}/undo", undo, methods=["POST"]),
        Route("/api/games/{gid}/hint", hint, methods=["POST"]),
        Route("/api/games/{gid}/record", record),
        Route("/api/replays", new_replay, methods=["POST"]),
        Route("/api/replays/{rid}", get_replay),
        Route("/api/replays/{rid}/positions/{k}", replay_position),
        Route("/api/server", server),
        Route("/api/study", study_info),
        Route("/study/{path:path}", study_file),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    hosts = LOOPBACK_HOSTS if allowed_hosts is None else list(allowed_hosts)
    app = Starlette(
        routes=routes,
        middleware=[Middleware(_SecurityHeaders),
                    Middleware(TrustedHostMiddleware, allowed_hosts=hosts)],
        exception_handlers=_handlers(web_error, http_error, server_error),
        lifespan=lifespan,
    )
    app.state.games = games
    return app


def _game_response(game, status: int = 200) -> Response:
    return Response(game.view_json(), status_code=status, media_type="application/json")


def _web_games() -> list[dict]:
    """The games of the page: each with its view module (``static/games/NAME.js``), player
    counts, agents and what its view needs (a new game plugs in here and there)."""
    seven_agents = [
        {"name": "random", "label": agent_label("random"), "spec": "random",
         "text": SEVEN_AGENTS["random"].help},
        {"name": "greedy", "label": agent_label("greedy"), "spec": "greedy",
         "text": SEVEN_AGENTS["greedy"].help},
        {"name": "mcts", "label": agent_label("mcts:1000"), "spec": "mcts:1000",
         "text": SEVEN_AGENTS["mcts"].help},
    ]
    arch_agents = [
        {"name": "random", "label": agent_label("random"), "spec": "random",
         "text": ARCH_AGENTS["random"].help},
        {"name": "greedy", "label": agent_label("greedy"), "spec": "greedy",
         "text": ARCH_AGENTS["greedy"].help},
        {"name": "mcts", "label": agent_label("mcts:1000"), "spec": "mcts:1000",
         "text": ARCH_AGENTS["mcts"].help},
    ]
    return [
        {"name": "duel", "title": "7 Wonders Duel", "script": "/static/games/duel.js",
         "players": [2], "default_players": 2},
        {"name": "seven", "title": "7 Wonders", "script": "/static/games/seven.js",
         "players": list(range(2, 8)), "default_players": 4, "agents": seven_agents,
         "default_opponent": "greedy", "max_iterations": MAX_ITERATIONS,
         **seven_catalogue()},
        {"name": "architects", "title": "7 Wonders Architects",
         "script": "/static/games/architects.js", "players": list(range(2, 8)),
         "default_players": 3, "agents": arch_agents, "default_opponent": "greedy",
         "max_iterations": arch.MAX_ITERATIONS, **arch.arch_catalogue()},
    ]


def _agent_kinds() -> list[dict]:
    """The built-in agents (those ``duel agents`` lists), the strongest marked, with whether
    they take a thinking time."""
    strongest = STRONGEST.split(":")[0]
    kinds = getattr(agents, "AGENT_KINDS", None)
    if kinds:
        out = [{"name": k.name, "text": k.help,
                "budget": "seconds" if "seconds" in k.option_names else None}
               for k in kinds.values()]
    else:                                   # an agents module without the kinds table
        out = [{"name": "random", "text": "uniform among the legal actions", "budget": None},
               {"name": "greedy", "text": "one ply: the move that looks best right now",
                "budget": None},
               {"name": "mcts", "text": "Monte Carlo tree search", "budget": "seconds"}]
    for a in out:
        a["strongest"] = a["name"] == strongest
        a["label"] = agent_label(a["name"]).split(" (")[0] + f" ({a['name']})"
    return out


def _study_files(folder: Path) -> dict:
    """The files of a study folder the app may serve (a fixed list: nothing else is reachable)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder}: no such folder")
    files = {}
    for name in ("report.html", "report.md", "study.json"):
        if (folder / name).is_file():
            files[name] = folder / name
    if "report.html" not in files and "report.md" not in files:
        raise ValueError(f"{folder}: no study report here (report.html or report.md); run "
                         f"duel study ... --out {folder} first")
    plots = folder / "plots"
    if plots.is_dir():
        for p in sorted(plots.glob("*.png")):
            files[f"plots/{p.name}"] = p
    title = folder.name
    markdown = ""
    if "report.md" in files:
        markdown = files["report.md"].read_text(encoding="utf-8", errors="replace")
        first = markdown.lstrip().splitlines()[0] if markdown.strip() else ""
        if first.startswith("#"):
            title = first.lstrip("#").strip()
    return {"files": files, "title": title, "markdown": markdown}
