"""The history pages' endpoints (filled in by the page)."""

from fastapi import APIRouter

router = APIRouter()
