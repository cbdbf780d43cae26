"""Every table of the web server's database, in one place (one :data:`metadata`, of
:mod:`.base`; the tournaments', leagues' and nights' tables are defined in
:mod:`.event_tables` and named here too).

The game's tables (:mod:`fivehundred.web.store`), the accounts' and ratings'
(:mod:`fivehundred.web.accounts`) and the game reviews' (:mod:`fivehundred.web.reviews`) are
all defined here; the database is created and upgraded only by the Alembic migrations in
:mod:`fivehundred.web.migrations` (``fivehundred serve`` runs them at its start, under one
PostgreSQL advisory lock: servers started together take turns). A change of a table here
comes with a new migration there (docs/deploy.md, "Upgrading the database").
"""

from __future__ import annotations

import sqlalchemy as sa

from fivehundred.web.schema.base import metadata as metadata

# the events' tables (web/events/): defined beside, on the same metadata
from fivehundred.web.schema.event_tables import event_games as event_games
from fivehundred.web.schema.event_tables import event_pairs as event_pairs
from fivehundred.web.schema.event_tables import event_players as event_players
from fivehundred.web.schema.event_tables import event_rounds as event_rounds
from fivehundred.web.schema.event_tables import events as events
from fivehundred.web.schema.event_tables import hall_nights as hall_nights
from fivehundred.web.schema.event_tables import hall_tables as hall_tables
from fivehundred.web.schema.event_tables import league_games as league_games
from fivehundred.web.schema.event_tables import league_pairs as league_pairs
from fivehundred.web.schema.event_tables import league_seasons as league_seasons
from fivehundred.web.schema.event_tables import night_games as night_games
from fivehundred.web.schema.event_tables import night_pairs as night_pairs
from fivehundred.web.schema.event_tables import night_pars as night_pars
from fivehundred.web.schema.event_tables import nights as nights
from fivehundred.web.schema.event_tables import par_claims as par_claims

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(12), nullable=False, unique=True),
    sa.Column("name", sa.String(80), nullable=False),
    sa.Column("rules", sa.Text, nullable=False),  # JSON {"preset", "variants"}
    sa.Column("options", sa.Text, nullable=False),  # JSON
    sa.Column("seed", sa.BigInteger, nullable=False),  # secret until the game is over
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("scores", sa.Text, nullable=False, default="[]"),
    sa.Column("hands_played", sa.Integer, nullable=False, default=0),
    # the finished table this one is the rematch of: one rematch per game, whichever
    # server is asked and whether or not the finished table is still in its memory
    sa.Column("rematch_of", sa.Integer, nullable=True),
    # a seal's key: the record is shown once it is lifted (web/seals.py)
    sa.Column("sealed", sa.String(40), nullable=True),
    sa.Index("ix_tables_finished", "finished"),
    sa.Index("ux_tables_rematch_of", "rematch_of", unique=True),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(10), nullable=False),  # open / person / computer
    sa.Column("player", sa.String(60), nullable=True),  # the computer player's name
    sa.Column("name", sa.String(60), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Index("ix_seats_name", "name"),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),  # 1, 2, ... per table
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(20), nullable=False),  # record notation
    sa.Column(
        "by", sa.String(10), nullable=False
    ),  # person / computer / stand_in / timer / overtime
    sa.Column("at", sa.Float, nullable=False),
)

hands = sa.Table(
    "hands",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),  # 1-based
    sa.Column("contract", sa.String(20), nullable=True),
    sa.Column("contractor", sa.Integer, nullable=True),  # the seat (player) who bid it
    sa.Column("made", sa.Boolean, nullable=True),
    sa.Column("points", sa.Text, nullable=False),
    sa.Column("scores", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

#: Unfinished tables closed by the expiry (nobody joined, everyone left): they are not
#: resumed; their finished hands stay.
closures = sa.Table(
    "closures",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
)

#: What must happen at a time, whichever server is running then (web/deadlines.py): the stand-in's
#: first move for a person away past the grace (``grace``), for a seat nobody took (``open``), and
#: for a person whose turn clock ran out (``turn``, at the table's ``version``). The one scheduler
#: of the servers marks each row ``fired`` when it is due; the table's owner acts on it.
deadlines = sa.Table(
    "deadlines",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("kind", sa.String(12), primary_key=True),  # grace / open / turn
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("due", sa.Float, nullable=False),  # wall clock: seconds since the epoch (UTC)
    sa.Column("version", sa.Integer, nullable=False),  # the table's version when it was set
    sa.Column("fired", sa.Boolean, nullable=False, default=False),
    sa.Index("ix_deadlines_due", "fired", "due"),
)

#: Clients' actions a server that does not own a table passes to the one that does (several servers
#: on one PostgreSQL: :mod:`fivehundred.web.cluster`); the owner deletes each as it takes it.
inbox = sa.Table(
    "inbox",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),  # the version it was chosen on
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(20), nullable=False),  # record notation, or "undo"
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_inbox_table", "table_id"),
)

#: The per-address limits shared by several servers on one PostgreSQL (each server's own
#: when alone): who created each table (the unfinished tables an address may have) ...
creators = sa.Table(
    "creators",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("address", sa.String(64), nullable=False),
    sa.Index("ix_creators_address", "address"),
)

#: ... and the token buckets (``what:address``): tokens left at ``at``, full again at
#: ``full_at`` (then the row is as good as none, and is deleted: :meth:`Store.forget_buckets`).
buckets = sa.Table(
    "buckets",
    metadata,
    sa.Column("name", sa.String(120), primary_key=True),
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("full_at", sa.Float, nullable=False),
    sa.Index("ix_buckets_full_at", "full_at"),
)

#: Take a token from a shared bucket (PostgreSQL): one statement, so that two servers
#: taking the last token at once cannot both have it. No row back: there was none.


# ---------------------------------------------------------------- accounts and ratings
accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("name_key", sa.String(60), nullable=False, unique=True),  # casefolded
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("bot", sa.Boolean, nullable=False, default=False),
    sa.Column("created", sa.Float, nullable=False),
    # ids are never used again (SQLite would give a deleted account's id to the next)
    sqlite_autoincrement=True,
)

sessions = sa.Table(
    "account_sessions",
    metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_account_sessions_account", "account_id"),
)

#: which account holds which seat (by the table's code)
account_seats = sa.Table(
    "account_seats",
    metadata,
    sa.Column("code", sa.String(12), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Index("ix_account_seats_account", "account_id"),
)

#: the lifted seals of sealed tables (web/seals.py)
seals = sa.Table(
    "seals",
    metadata,
    sa.Column("key", sa.String(40), primary_key=True),
    sa.Column("lifted", sa.Float, nullable=False),
)

#: two accounts rated together as partners (the lower id first)
partnerships = sa.Table(
    "partnerships",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("first_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("second_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.UniqueConstraint("first_id", "second_id", name="uq_partnerships_pair"),
    sa.Index("ix_partnerships_second", "second_id"),
)

ratings = sa.Table(
    "ratings",
    metadata,
    # whose: an account or a partnership, by id (web/ratings.py); ``key`` is the string
    # earlier versions wrote ("a:ID", "p:ID1,ID2"), kept during their rolling restart
    sa.Column("key", sa.String(40), primary_key=True),
    sa.Column("preset", sa.String(40), primary_key=True),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("partnership_id", sa.Integer, nullable=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Index("ix_ratings_account", "account_id", "preset"),
    sa.Index("ix_ratings_partnership", "partnership_id", "preset"),
)

rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(40), nullable=False),
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("partnership_id", sa.Integer, nullable=True),
    sa.Column("code", sa.String(12), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("outcome", sa.String(10), nullable=False),  # win / loss / absent
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_rating_history_key", "key", "preset"),
    sa.Index("ix_rating_history_partnership", "partnership_id"),
)

#: tables whose ratings were applied (each game counts once)
rated_games = sa.Table(
    "rated_games",
    metadata,
    sa.Column("code", sa.String(12), primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
)

#: the address and the device (its long-lived cookie) each account's seat was taken from
#: (their SHA-256 keyed by the table: neither itself is kept): accounts of one address or
#: one device are not rated against each other
seat_addresses = sa.Table(
    "account_seat_addresses",
    metadata,
    sa.Column("code", sa.String(12), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("address_hash", sa.String(64), nullable=False),
    sa.Column("device_hash", sa.String(64), nullable=True),
)


# ---------------------------------------------------------------- game reviews
game_reviews = sa.Table(
    "game_reviews",
    metadata,
    # the seat's name is the table's (an account deleted renames it there)
    sa.Column("code", sa.String(12), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("hands", sa.Integer, nullable=False),
    sa.Column("calls", sa.Float, nullable=True),  # the share agreed with; None: none made
    sa.Column("discards", sa.Float, nullable=True),
    sa.Column("cards", sa.Float, nullable=True),
    sa.Column("tricks_lost", sa.Integer, nullable=False),
)


# ---------------------------------------------------------------- play now and the outbox
#: The play-now queue (web/matchmaking.py), shared by every server of one database: a
#: person waiting, by the SHA-256 of their ticket; ``claim`` is set while a server makes
#: the table of a group (a claim older than its bound is let go), ``seat`` (JSON: table,
#: url, seat, token) once seated.
play_now_queue = sa.Table(
    "play_now_queue",
    metadata,
    sa.Column("ticket_hash", sa.String(64), primary_key=True),
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("level", sa.String(30), nullable=False),
    sa.Column("wait", sa.Float, nullable=False),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("client", sa.String(64), nullable=False),
    sa.Column("since", sa.Float, nullable=False),
    sa.Column("arrived", sa.Integer, nullable=False),  # 1, 2, ...: who came first
    sa.Column("last_seen", sa.Float, nullable=False),
    sa.Column("claim", sa.String(32), nullable=True),
    sa.Column("claimed_at", sa.Float, nullable=True),
    sa.Column("seat", sa.Text, nullable=True),
    sa.Index("ix_play_now_queue_account", "account_id"),
    sa.Index("ix_play_now_queue_client", "client"),
)

#: The work that follows a finished game (web/outbox.py): written in the transaction that
#: finishes it, taken by one server each (``kind``: rate / review); ``taken_until``: the
#: lease of a long piece of work (a review), ``tries``: the failed attempts.
outbox = sa.Table(
    "outbox",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("code", sa.String(12), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("taken_until", sa.Float, nullable=True),
    sa.Column("tries", sa.Integer, nullable=False, default=0),
    sa.Index("ix_outbox_kind", "kind", "id"),
)


# ---------------------------------------------------------------- the daily boards
#: Each day's boards of a preset: the seed they are made from (written by the first server
#: to make the day, read by the others, so that every server of the database and a
#: restarted one deal the same boards) and how many.
daily_days = sa.Table(
    "daily_days",
    metadata,
    sa.Column("day", sa.String(10), primary_key=True),  # YYYY-MM-DD
    sa.Column("preset", sa.String(40), primary_key=True),
    sa.Column("seed", sa.String(64), nullable=False),  # secret: never sent
    sa.Column("boards", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

#: Each entry of a day's boards (web/daily.py), by the SHA-256 of its token: the board in
#: play and the moves made on it so far (JSON, record notation), from which any server of
#: the database rebuilds the hand; ``version`` grows with each move (two servers moving at
#: once: one is refused). One entry per account a day; each entry's name its own.
daily_entries = sa.Table(
    "daily_entries",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("day", sa.String(10), nullable=False),  # YYYY-MM-DD
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("board", sa.Integer, nullable=False),  # 1-based, the board in play
    sa.Column("moves", sa.Text, nullable=False),  # JSON list of the board's moves
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ux_daily_entries_name", "day", "preset", "name", unique=True),
    sa.Index("ux_daily_entries_account", "day", "preset", "account_id", unique=True),
)

#: Each finished board of an entry: its result as a hand on its own, and the hand's record
#: (``fivehundred-hand/1``, JSON), which replays.
daily_results = sa.Table(
    "daily_results",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("board", sa.Integer, primary_key=True),
    sa.Column("day", sa.String(10), nullable=False),
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("contract", sa.String(20), nullable=True),  # record notation; None: passed in
    sa.Column("contractor", sa.Integer, nullable=False),
    sa.Column("tricks", sa.Integer, nullable=False),
    sa.Column("ns", sa.Integer, nullable=False),
    sa.Column("ew", sa.Integer, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_daily_results_day", "day", "preset", "board"),
    sa.Index("ix_daily_results_account", "account_id", "day"),
    # a day's results written since a server last read them (web/daily_field.py)
    sa.Index("ix_daily_results_at", "day", "preset", "at"),
)

#: The pars of a day's boards, written by the first server to work one out (JSON, as
#: :meth:`fivehundred.boards.Par.to_dict`).
daily_pars = sa.Table(
    "daily_pars",
    metadata,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("preset", sa.String(40), primary_key=True),
    sa.Column("board", sa.Integer, primary_key=True),
    sa.Column("par", sa.Text, nullable=False),
)

#: A day's field as a server keeps it (web/daily_field.py: each board's lines and each
#: entrant's line, zlib-compressed JSON), written now and then by the servers reading the
#: day, so that a server's first read of a big day is this row and the results written
#: since (``upto``: the newest result's time in it; ``results``: how many it holds).
daily_fields = sa.Table(
    "daily_fields",
    metadata,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("preset", sa.String(40), primary_key=True),
    sa.Column("results", sa.Integer, nullable=False),
    sa.Column("upto", sa.Float, nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
    sa.Column("written", sa.Float, nullable=False),
)


# ---------------------------------------------------------------- clubs (web/clubs.py)
#: A club: made by an account, its name unique without regard to case, listed on the clubs
#: index when ``public``. The account ids here are plain integers, not foreign keys: an
#: account deleted leaves its rows behind, and every read joins the accounts (it is gone).
clubs = sa.Table(
    "clubs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("slug", sa.String(48), nullable=False, unique=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("name_key", sa.String(40), nullable=False, unique=True),  # casefolded
    sa.Column("description", sa.String(300), nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("owner_id", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_clubs_owner", "owner_id"),
    sqlite_autoincrement=True,
)

#: a club's members and their roles (owner / admin / member)
club_members = sa.Table(
    "club_members",
    metadata,
    sa.Column("club_id", sa.Integer, sa.ForeignKey("clubs.id"), primary_key=True),
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("role", sa.String(10), nullable=False),
    sa.Column("joined", sa.Float, nullable=False),
    sa.Index("ix_club_members_account", "account_id"),
)

#: the invite codes a club's admins made (until revoked)
club_invites = sa.Table(
    "club_invites",
    metadata,
    sa.Column("code", sa.String(24), primary_key=True),
    sa.Column("club_id", sa.Integer, sa.ForeignKey("clubs.id"), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_club_invites_club", "club_id"),
)

#: the accounts asking to join a club (until an admin accepts or declines)
club_requests = sa.Table(
    "club_requests",
    metadata,
    sa.Column("club_id", sa.Integer, sa.ForeignKey("clubs.id"), primary_key=True),
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_club_requests_account", "account_id"),
)

#: what a club's admins post to its members (the newest few are kept)
club_announcements = sa.Table(
    "club_announcements",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("club_id", sa.Integer, sa.ForeignKey("clubs.id"), nullable=False),
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("text", sa.String(1000), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_club_announcements_club", "club_id", "id"),
)

#: the club's own tables (by the table's code): only its members take their seats
#: A renamed club's old addresses (web/club_names.py): each still finds the club.
club_slugs = sa.Table(
    "club_slugs",
    metadata,
    sa.Column("slug", sa.String(48), primary_key=True),
    sa.Column("club_id", sa.Integer, sa.ForeignKey("clubs.id"), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_club_slugs_club", "club_id"),
)

club_tables = sa.Table(
    "club_tables",
    metadata,
    sa.Column("code", sa.String(12), primary_key=True),
    sa.Column("club_id", sa.Integer, sa.ForeignKey("clubs.id"), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_club_tables_club", "club_id", "created"),
)


# ---------------------------------------------------------------- notices
#: What a person is told (web/notices.py): one row per notice and account, made once
#: (``key``: unique per account, ``ended:CODE`` for a game's end); ``app``: shown in the
#: list, ``mail``: 0 none, 1 due, 2 sent, 3 dropped (``mail_until``: the lease of the
#: server sending it, ``mail_tries``: its attempts). A notice carries no card.
notices = sa.Table(
    "notices",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column(
        "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
    ),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("key", sa.String(60), nullable=False),
    sa.Column("code", sa.String(12), nullable=True),
    sa.Column("text", sa.String(300), nullable=False),
    sa.Column("link", sa.String(200), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("app", sa.Boolean, nullable=False, default=True),
    sa.Column("read", sa.Boolean, nullable=False, default=False),
    sa.Column("mail", sa.Integer, nullable=False, default=0),
    sa.Column("mail_until", sa.Float, nullable=True),
    sa.Column("mail_tries", sa.Integer, nullable=False, default=0),
    sa.Index("ux_notices_key", "account_id", "key", unique=True),
    sa.Index("ix_notices_mail", "mail", "id"),
)

#: Each account's choice of notices: its e-mail address (optional), which kinds it wants
#: where (JSON ``{kind: {"app": bool, "mail": bool}}``) and the random key of its
#: unsubscribe links. Both go with a deleted account (``ON DELETE CASCADE``).
notice_settings = sa.Table(
    "notice_settings",
    metadata,
    sa.Column(
        "account_id",
        sa.Integer,
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
    ),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("kinds", sa.Text, nullable=False),
    sa.Column("unsubscribe", sa.String(64), nullable=False, unique=True),
)
