"""The one :data:`metadata` every table of the web server's database is defined on
(:mod:`fivehundred.web.schema` and :mod:`fivehundred.web.schema.event_tables`)."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()
