"""The tables of the tournaments, leagues, club nights and hall nights (web/events/): part of
the one schema of :mod:`fivehundred.web.schema` (its :data:`metadata`; the package re-exports these
names)."""

from __future__ import annotations

import sqlalchemy as sa

from fivehundred.web.schema.base import metadata

# ---------------------------------------------------------------- events (web/events/)
#: A tournament (``kind``: swiss / round_robin / knockout) made by an account, for a club
#: when ``club_id``; ``state``: registering / running / finished; ``round``: the last round
#: started (0 before the first); ``starts_at``: when the first round starts by itself (None:
#: when its organiser starts it); each game to ``target`` points of ``preset`` with
#: ``variants``, a seat whose person is away ``grace`` s played by the computer.
events = sa.Table(
    "events",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("kind", sa.String(12), nullable=False),
    sa.Column("organiser_id", sa.Integer, nullable=False),
    sa.Column("club_id", sa.Integer, nullable=True),
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("variants", sa.Text, nullable=False),  # JSON: the games' other rules
    sa.Column("target", sa.Integer, nullable=False),
    sa.Column("rounds", sa.Integer, nullable=False),
    sa.Column("grace", sa.Float, nullable=False),
    sa.Column("turn_timer", sa.Float, nullable=True),  # seconds a move (None: no clock)
    sa.Column("max_pairs", sa.Integer, nullable=False),
    sa.Column("starts_at", sa.Float, nullable=True),
    sa.Column("state", sa.String(12), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    # a duplicate event's secret seed (never sent): each round's tables are dealt from one
    # seed made from it and the round's number; None: every table is dealt its own
    sa.Column("duplicate_seed", sa.BigInteger, nullable=True),
    # a turn-based event: its tables' clock per move (seconds) and the seconds each round
    # has (its unfinished games are finished by the stand-ins at its deadline); None: live
    sa.Column("move_clock", sa.Float, nullable=True),
    sa.Column("round_time", sa.Float, nullable=True),
    sa.Index("ix_events_state", "state", "starts_at"),
    sqlite_autoincrement=True,
)

#: the pairs of an event (``seed``: the order they registered in; ``withdrawn``: not
#: checked in when the first round started, or withdrawn since)
event_pairs = sa.Table(
    "event_pairs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=False),
    sa.Column("first_id", sa.Integer, nullable=False),
    sa.Column("second_id", sa.Integer, nullable=False),
    sa.Column("seed", sa.Integer, nullable=False),
    sa.Column("checked_in", sa.Boolean, nullable=False),
    sa.Column("withdrawn", sa.Boolean, nullable=False),
    sa.Index("ix_event_pairs_event", "event_id", "seed"),
)

#: each account in an event once (the key that keeps two registrations at once apart)
event_players = sa.Table(
    "event_players",
    metadata,
    sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), primary_key=True),
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("pair_id", sa.Integer, nullable=False),
    sa.Index("ix_event_players_account", "account_id"),
)

#: each round of an event, written once (its key: the round starts exactly once whichever
#: servers try); ``byes``: JSON list of pair ids; ``slots``: a knockout's bracket (JSON)
event_rounds = sa.Table(
    "event_rounds",
    metadata,
    sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("byes", sa.Text, nullable=False),
    sa.Column("slots", sa.Text, nullable=True),
    # a turn-based event's round: when its games are finished by the stand-ins (wall clock)
    sa.Column("due", sa.Float, nullable=True),
)

#: each game of a round: its table (``code``, made by the server holding ``lease_until``)
#: and, once over, its result (``winner``: 0 North-South, 1 East-West, None a draw;
#: ``absent``: JSON list of the pairs scored as absent)
event_games = sa.Table(
    "event_games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("ns_pair", sa.Integer, nullable=False),
    sa.Column("ew_pair", sa.Integer, nullable=False),
    sa.Column("code", sa.String(12), nullable=True),
    sa.Column("lease_until", sa.Float, nullable=True),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("ns_points", sa.Integer, nullable=True),
    sa.Column("ew_points", sa.Integer, nullable=True),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("absent", sa.Text, nullable=False),
    # finished by the stand-ins after its round's deadline (a turn-based event)
    sa.Column("overtime", sa.Boolean, nullable=True),
    sa.Index("ux_event_games_number", "event_id", "round", "number", unique=True),
    sa.Index("ux_event_games_code", "code", unique=True),
)

#: A league's season (web/events/leagues.py): ``weeks`` from ``starts_at``, its pairs cut into
#: divisions of ``division_size`` at the start, each pair's first ``per_week`` games a week against
#: a pair of its division counted, ``moves`` pairs promoted and relegated between divisions into
#: the season that ``follows`` it; ``state``: registering / running / finished.
league_seasons = sa.Table(
    "league_seasons",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("organiser_id", sa.Integer, nullable=False),
    sa.Column("follows", sa.Integer, nullable=True),
    sa.Column("weeks", sa.Integer, nullable=False),
    sa.Column("division_size", sa.Integer, nullable=False),
    sa.Column("per_week", sa.Integer, nullable=False),
    sa.Column("moves", sa.Integer, nullable=False),
    sa.Column("starts_at", sa.Float, nullable=False),
    sa.Column("state", sa.String(12), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_league_seasons_state", "state", "starts_at"),
    sa.Index("ux_league_seasons_follows", "follows", unique=True),
    sqlite_autoincrement=True,
)

#: a season's pairs (``place``: the order they start in; ``division``: 0 the top, set at the start)
league_pairs = sa.Table(
    "league_pairs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("season_id", sa.Integer, sa.ForeignKey("league_seasons.id"), nullable=False),
    sa.Column("first_id", sa.Integer, nullable=False),
    sa.Column("second_id", sa.Integer, nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("division", sa.Integer, nullable=True),
    sa.Index("ux_league_pairs_first", "season_id", "first_id", unique=True),
    sa.Index("ux_league_pairs_second", "season_id", "second_id", unique=True),
)

#: each finished game between two pairs of one division of a running season (by its table's
#: code, once): North-South's pair ``a``, East-West's ``b``, their points and the winner
#: (``a``, ``b`` or None)
league_games = sa.Table(
    "league_games",
    metadata,
    sa.Column("season_id", sa.Integer, sa.ForeignKey("league_seasons.id"), primary_key=True),
    sa.Column("code", sa.String(12), primary_key=True),
    sa.Column("week", sa.Integer, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("a_pair", sa.Integer, nullable=False),
    sa.Column("b_pair", sa.Integer, nullable=False),
    sa.Column("a_points", sa.Integer, nullable=False),
    sa.Column("b_points", sa.Integer, nullable=False),
    sa.Column("winner", sa.String(1), nullable=True),
)


# ---------------------------------------------------------------- club nights (web/events/nights*)
#: A club's duplicate night: ``rounds`` of ``per_round`` boards each, the pairs seated by a
#: ``movement`` (mitchell / howell) at the start, or single players by an individual or a
#: progressive movement (``movement`` set at the scheduling); its boards dealt from
#: ``seed`` (secret: a board's cards are never sent before it is played); ``state``:
#: registering / running / finished.
nights = sa.Table(
    "nights",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("club_id", sa.Integer, nullable=False),
    sa.Column("organiser_id", sa.Integer, nullable=False),
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("movement", sa.String(12), nullable=True),
    sa.Column("per_round", sa.Integer, nullable=False),
    sa.Column("rounds", sa.Integer, nullable=False),
    sa.Column("grace", sa.Float, nullable=False),
    sa.Column("starts_at", sa.Float, nullable=True),
    sa.Column("state", sa.String(12), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    # the computer level of its empty seats and stand-ins (none: the default level), and
    # the scoring of its standings (none: matchpoints)
    sa.Column("level", sa.String(20), nullable=True),
    sa.Column("scoring", sa.String(12), nullable=True),
    # whether only the entrants who checked in are seated (web/events/nights_checkin.py)
    sa.Column("check_in", sa.Boolean, nullable=True),
    sa.Index("ix_nights_club", "club_id", "created"),
    sqlite_autoincrement=True,
)

#: a night's pairs, ``number`` in the order they entered (a computer pair, added to an odd
#: field at the start, has no accounts); in a night of single players each row is one
#: player (``first_id`` only; a computer's has none)
night_pairs = sa.Table(
    "night_pairs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("night_id", sa.Integer, sa.ForeignKey("nights.id"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("first_id", sa.Integer, nullable=True),
    sa.Column("second_id", sa.Integer, nullable=True),
    sa.Column("present", sa.Float, nullable=True),  # when it checked in
    sa.Index("ux_night_pairs_number", "night_id", "number", unique=True),
)

#: one board played at one table of a night (a table of the hub, one hand): the pairs by
#: number, ``seq`` its place among the round's boards; ``result``: JSON of the hand's
#: record and the board's result once played
night_games = sa.Table(
    "night_games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("night_id", sa.Integer, sa.ForeignKey("nights.id"), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("table_no", sa.Integer, nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("board", sa.Integer, nullable=False),
    sa.Column("ns_pair", sa.Integer, nullable=False),
    sa.Column("ew_pair", sa.Integer, nullable=False),
    sa.Column("code", sa.String(12), nullable=True),
    sa.Column("lease_until", sa.Float, nullable=True),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("result", sa.Text, nullable=True),
    #: a night of single players' game (individual, progressive): JSON of its four
    #: players' numbers, South, West, North, East (``ns_pair``, ``ew_pair``: South's and
    #: West's); NULL in a night of pairs
    sa.Column("seats", sa.String(40), nullable=True),
    sa.Index("ux_night_games_place", "night_id", "round", "table_no", "seq", unique=True),
    sa.Index("ux_night_games_code", "code", unique=True),
)

#: the double-dummy par of a night's board (JSON of fivehundred.boards.Par), worked out in
#: the background from the start (by the server that started the night)
night_pars = sa.Table(
    "night_pars",
    metadata,
    sa.Column("night_id", sa.Integer, sa.ForeignKey("nights.id"), primary_key=True),
    sa.Column("board", sa.Integer, primary_key=True),
    sa.Column("par", sa.Text, nullable=False),
)

#: A server's claim of a par it works out (web/par_work.py): one holder per board, until
#: its lease ends (then another server may take it over); gone once the par is written.
par_claims = sa.Table(
    "par_claims",
    metadata,
    sa.Column("key", sa.String(80), primary_key=True),
    sa.Column("holder", sa.String(32), nullable=False),
    sa.Column("until", sa.Float, nullable=False),
)

#: A club's night at real tables (web/events/hall.py): its tables' score pads join by
#: ``code`` (six letters and digits); ``state``: open / finished.
hall_nights = sa.Table(
    "hall_nights",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(6), nullable=False),
    sa.Column("club_id", sa.Integer, nullable=False),
    sa.Column("organiser_id", sa.Integer, nullable=False),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("state", sa.String(12), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("ended", sa.Float, nullable=True),
    # a progressive night's rounds (JSON, web/events/hall_rounds.py); NULL: not progressive
    sa.Column("progress", sa.Text, nullable=True),
    sa.Index("ux_hall_nights_code", "code", unique=True),
    sa.Index("ix_hall_nights_club", "club_id", "created"),
    sqlite_autoincrement=True,
)

#: one real table of a hall night: its pad's whole state (JSON ``{"pads": [...]}``) at
#: the highest ``version`` the pad sent; ``token_hash``: SHA-256 of its write token
hall_tables = sa.Table(
    "hall_tables",
    metadata,
    sa.Column("night_id", sa.Integer, sa.ForeignKey("hall_nights.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("state", sa.Text, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)
