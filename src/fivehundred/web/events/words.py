"""Every word the events' pages and answers say, in one place."""

from __future__ import annotations

KIND_LABELS = {
    "swiss": "Swiss",
    "round_robin": "Round robin",
    "knockout": "Knockout",
}
STATE_LABELS = {
    "registering": "Registering",
    "running": "Playing",
    "finished": "Finished",
}
#: a pair's result in one round of the crosstable
RESULT_WORDS = {
    "win": "won",
    "loss": "lost",
    "draw": "drew",
    "bye": "bye",
    "absent": "absent",
    "playing": "playing",
}
SEAT_SIDES = {"ns": "North-South", "ew": "East-West"}

TITLE = "Tournaments"
INDEX_HEADING = "Tournaments"
NONE_YET = "No tournaments yet."
CREATE_HEADING = "Start a tournament"
LOGIN_FIRST = "Log in to start a tournament or to enter one."
FIELD_NAME = "Name"
FIELD_KIND = "Kind"
FIELD_ROUNDS = "Rounds (Swiss)"
FIELD_TARGET = "Points to win a game"
FIELD_FIRST_TO_TARGET = "The first side to reach them wins (short games)"
FIELD_GRACE = "Seconds before an absent player's seat is played by the computer"
FIELD_MAX_PAIRS = "Most pairs"
FIELD_TURN_TIMER = "Seconds a move (leave empty for no clock)"
TIME_CONTROL = "{seconds} s a move"
FIELD_MOVE_HOURS = "Turn-based: hours a move (leave empty for a live tournament)"
FIELD_ROUND_DAYS = "Turn-based: days a round (the games not over then are finished by the computer)"
#: the units of a time control: seconds, one, more
SPANS = ((86_400, "day", "days"), (3600, "hour", "hours"), (60, "minute", "minutes"))
TURN_BASED = "Turn-based: {clock} a move, {round} a round"
ROUND_DUE = "Round {round} ends by {when} (UTC): games not over then are finished by the computer"
OVERTIME = "finished by the computer at the round's deadline"
TURN_BASED_BOTH = "a turn-based event needs both move_clock and round_time"
TURN_BASED_NO_TIMER = "a turn-based event has a clock per move (move_clock), not turn_timer"
MOVE_CLOCK_LEAST = "move_clock: at least {seconds} s on this server"
ROUND_TIME_LEAST = "round_time: at least one move's clock (move_clock)"
FIELD_DUPLICATE = (
    "Duplicate: every table of a round is dealt the same cards (each game shown when the "
    "round is over)"
)
DUPLICATE = "Duplicate: every table of a round plays the same cards"
FIELD_STARTS = "Starts by itself at (leave empty to start it yourself)"
FIELD_CLUB = "For the club (its short name; leave empty for none)"
FIELD_PARTNER = "Your partner's account name"
CREATE_BUTTON = "Start the tournament"
REGISTER_BUTTON = "Enter with my partner"
CHECK_IN_BUTTON = "Check in"
WITHDRAW_BUTTON = "Withdraw"
START_BUTTON = "Start round 1 now"

PAIRS_HEADING = "Pairs"
STANDINGS_HEADING = "Standings"
CROSSTABLE_HEADING = "Crosstable"
ROUNDS_HEADING = "Rounds"
CHECKED_IN = "checked in"
NOT_CHECKED_IN = "not checked in"
WITHDRAWN = "withdrawn"
YOUR_GAME = "Your game in round {round}: {ns} (North-South) against {ew} (East-West)"
PLAY_LINK = "Go to the table"
GAME_LINK = "the game"
BYE_LINE = "Bye: {pairs}"
TIE_BREAKS = (
    "Ranked by match points (a win 2, a draw 1, a bye 2), then Buchholz (the match points "
    "of the pairs met), then the points difference. A pair absent from its game scores nothing."
)
#: the standings' column heads: what a phone shows, and the whole word (said by a screen
#: reader, shown on hover and in the key under the table)
STANDING_COLUMNS = (
    ("#", "Place"),
    ("Pair", "Pair"),
    ("Pts", "Match points"),
    ("Bu", "Buchholz"),
    ("+/−", "Points difference"),
    ("Pl", "Games played"),
)
ROUND_STARTS = "Round {round} of {event} starts: your table is ready."
STARTS_AT = "Starts at {when} (UTC)"
STARTED_BY_ORGANISER = "Starts when its organiser starts it"
ORGANISED_BY = "Organised by {who}"
ROUND_OF = "Round {round} of {rounds}"
WINNER = "Winners: {pair}"

# refusals
NO_SUCH_EVENT = "no such tournament"
NOT_REGISTERING = "the tournament has started: entries are closed"
NO_WITHDRAWING = "only a Swiss under way lets a pair withdraw: here every drawn game is played"
FULL = "the tournament has {count} pairs, as many as it takes"
ALREADY_IN = "{name} is already entered in this tournament"
NO_SUCH_PARTNER = "no account is named {name}"
OWN_PARTNER = "your partner is someone else"
NOT_ENTERED = "you are not entered in this tournament"
ONLY_ORGANISER = "only the tournament's organiser may do that"
TOO_FEW = "a tournament needs two pairs checked in"
NOT_FINISHED = "the tournament is not over yet: its standings are final at the end"
NOT_CLUB_ADMIN = "only a club's admins make its tournaments"
NO_SUCH_CLUB = "no such club"
TOO_MANY = "you run {count} tournaments not yet over, as many as one may"
LOG_IN = "log in first (an account is needed for tournaments)"
BAD_NAME = "name: 3 to 60 printable characters"
BAD_START = "starts_at: a time within the next 90 days"
TOO_MANY_CHANGES = "too many changes: try again in {seconds} s"

# leagues
LEAGUES_TITLE = "Leagues"
LEAGUES_HEADING = "Leagues"
NO_LEAGUES_YET = "No leagues yet."
LEAGUE_CREATE_HEADING = "Start a league season"
LEAGUE_LOGIN_FIRST = "Log in to start a league or to enter one."
FIELD_WEEKS = "Weeks"
FIELD_DIVISION_SIZE = "Pairs a division"
FIELD_PER_WEEK = "Games a week"
FIELD_MOVES = "Pairs promoted and relegated"
FIELD_LEAGUE_STARTS = "Starts at"
LEAGUE_CREATE_BUTTON = "Start the season"
DIVISION = "Division {number}"
#: a division's column heads, as :data:`STANDING_COLUMNS`
LEAGUE_COLUMNS = (
    ("#", "Place"),
    ("Pair", "Pair"),
    ("Pts", "Points"),
    ("Pl", "Games played"),
    ("W", "Games won"),
    ("+/−", "Points difference"),
)
LEAGUE_FACTS = "Weeks: {weeks} · games a week: {per_week} · up and down: {moves}"
LEAGUE_WEEK = "Week {week} of {weeks}"
LEAGUE_HOW = (
    "Each week the league pairs your division, each pair against each other pair in turn "
    "(games a week: {per_week}). A game counts when you meet your opponents of the week at "
    "any table, one pair North-South and the other East-West, all four players at their "
    "seats to the end."
)
WEEK_GAMES = "The games of week {week}"
TO_PLAY = "to play"
NEXT_SEASON_BUTTON = "Start the next season"
NO_SUCH_LEAGUE = "no such league season"
TOO_MANY_SEASONS = "you run {count} league seasons not yet over, as many as one may"
NOT_OVER = "that season is not over yet"
FOLLOWED_ALREADY = "that season has its next season already"
ALREADY_ENTERED = "one of you is entered in this season already"
