"""Five Hundred in the browser: the game server (``fivehundred serve``).

:func:`fivehundred.web.server.create_app` builds the FastAPI application: REST endpoints
to create and join tables, a WebSocket per seat for play, and the pages in ``static/``.
See docs/web-protocol.md.
"""
