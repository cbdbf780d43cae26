"""Every word the hall nights' page and answers say, in one place (the pad's own words
for joining a night are in pad/static/app.js, beside the rest of the pad's)."""

from __future__ import annotations

STATE_LABELS = {"open": "Playing", "finished": "Finished"}

TITLE = "Club night at the tables"
FACTS = "Tables: {tables} · {state}"
JOIN = "Tables join with the code {code} in the score pad: {link}"
QR_TITLE = "QR code of the join link"
QR_CAPTION = "Scan with a table's phone to open its score pad on this night"
TABLES_HEADING = "Tables"
TABLE_CAPTION = "Table {number}"
GAME = "Game"
GAME_LABEL = "Game {number}"
GAME_WON = "won"
NO_TABLES = "No table has joined yet."
STANDINGS_HEADING = "Standings"
PLACE, PLAYER, TABLE, GAMES_WON, POINTS, HANDS = (
    "Place",
    "Player",
    "Table",
    "Won",
    "Points",
    "Hands",
)
CLUB_HEADING = "Nights at the club's own tables"
FIELD_NAME = "Its name"
FIELD_PRESET = "Usual game (each table's pad may choose another)"
OPEN_BUTTON = "Open a night at the tables"
RESULTS_CSV = "The results (CSV)"
END_BUTTON = "End the night"

FIELD_PROGRESSIVE = "Progressive: after each round the winners move up a table, partners change"
FIELD_ROUND_HANDS = "Hands a round (or leave empty)"
FIELD_ROUND_MINUTES = "Minutes a round (or leave empty)"
ROUND_FACTS = "Round {round} · {length}"
ROUND_HANDS = "{hands} hands a round"
ROUND_MINUTES = "{minutes} minutes a round: {left}"
MINUTES_LEFT = "{minutes} min left"
TIME_UP = "time is up: the round ends with the next hand a table sends"
MOVES_HEADING = "Moves for round {round}: from table, to table and seat"
MOVES_HEADS = ("Player", "From", "To", "Seat")
MOVED_UP, MOVED_DOWN = "won", "lost"
FREE_BUTTON = "Free table {number} (its phone is lost)"
TABLE_FREE = "free: the next phone to join as table {number} takes it over"
CLOSE_ROUND_BUTTON = "End round {round} now"

LOG_IN = "log in first"
NO_SUCH_NIGHT = "no such club night (check the code)"
NO_SUCH_CLUB = "no such club"
NOT_CLUB_ADMIN = "only the club's owner and admins run its nights"
TOO_MANY = "a club has at most {count} nights at the tables not yet over"
BAD_NAME = "a name of 3 to 60 letters, please"
BAD_PRESET = "no such preset"
FINISHED = "the night is over: its results are final"
NOT_FINISHED = "the night is not over yet: its results are given at the end"
TABLE_TAKEN = "table {number} has joined already: choose its own number"
FULL = "a night has at most {count} tables"
BAD_TABLE = "a table number from 1 to {count}, please"
TABLE_FREED = "the organiser gave this table to another phone (this one was taken for lost)"
BAD_TOKEN = "this pad is not the one that joined this table"
NO_SUCH_TABLE = "no such table at this night"
TOO_LARGE = "the pad is larger than {size} KiB"
BAD_STATE = "'pads' must be a list of 1 to {count} pads, and 'version' a whole number from 1"
TOO_MANY_HANDS = "a table holds at most {count} hands in a night"
BAD_PAD = "game {number}: {error}"
BAD_ROUND = "a progressive night's round: 1 to 50 hands, or 5 to 180 minutes (one of the two)"
BAD_ROUNDS = "'rounds' must give each game's round, from 1 to the night's, in order"
PROGRESSIVE_FOUR = "a progressive night seats four at each table, in two pairs"
NOT_PROGRESSIVE = "this night is not progressive: it has no rounds"
ROUND_GONE = "round {round} is over already"
BAD_SEATS = "a table at a night seats 3 to 6 players"
