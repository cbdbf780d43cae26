"""The FastAPI application: pages, REST endpoints and the tables' WebSockets."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from fivehundred.web import history

STATIC_DIR = Path(__file__).with_name("static")


def create_app(db_url: str | None = None) -> FastAPI:
    """The server's application on the database ``db_url`` (default: SQLite in the data
    directory)."""
    app = FastAPI(title="Five Hundred", docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html")

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return FileResponse(STATIC_DIR / "table.html")

    app.include_router(history.router)
    return app
