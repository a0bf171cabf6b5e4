"""``duel serve``: play the AI in a browser, replay records, look at a study.

:func:`duelpy.web.app.create_app` makes the ASGI app (Starlette); :mod:`duelpy.web.command`
is the ``duel serve`` command (uvicorn).  The page is plain HTML, CSS and JavaScript shipped
in ``static/`` (no CDN, no build step).
"""
