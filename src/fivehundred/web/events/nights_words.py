"""Every word the club nights' page and answers say, in one place."""

from __future__ import annotations

STATE_LABELS = {
    "registering": "Entering",
    "running": "Playing",
    "finished": "Finished",
}
MOVEMENT_LABELS = {
    "mitchell": "Mitchell",
    "howell": "Howell",
    "individual": "Individual (partners rotate every round)",
    "progressive": "Progressive (each table's winners move up, partners change)",
}
#: the scorings a club chooses from (web/events/nights_scoring.py), and the heads of
#: their columns
SCORING_LABELS = {
    "matchpoints": "Matchpoints",
    "points": "Total points",
    "games": "Games won",
}
SCORE_HEADS = {
    "matchpoints": "Matchpoints %",
    "points": "Total points",
    "games": "Games won",
}
DIRECTION_LABELS = {"NS": "North-South", "EW": "East-West"}

TITLE = "Club night"
COMPUTER_PAIR = "computer pair"
FACTS = "Rounds: {rounds} · boards a round: {per_round} · {state}"
MOVEMENT = "Movement: {movement}"
#: the computer level (its words: fivehundred.words.LEVEL_WORDS)
LEVEL = "Computer players: {level}"
SCORING = "Scored by: {scoring}"
BACK_TO_CLUB = "Back to the club"
PAIRS_HEADING = "Pairs"
NO_PAIRS = "No pairs yet."
PROGRESS = "Boards played: {done} of {total}"
STANDINGS_HEADING = "Standings"
ROUNDS_HEADING = "Round by round ({scoring})"
ROUND = "Round {number}"
#: a round the pair did not play
NOT_PLAYED = "–"
STANDINGS_LATER = "The standings and the travellers are shown when the night is over."
#: the boards on which the computer stood in for one of the pair (late, or dropped)
COMPUTER_BOARDS = "Computer stood in"
PLACE, PAIR, BOARDS, PERCENT = "Place", "Pair", "Boards", "Matchpoints %"
TRAVELLER_HEADING = "Board {number}"
CONTRACT, TRICKS, NS_POINTS, EW_POINTS, MATCHPOINTS = (
    "Contract",
    "Tricks",
    "NS",
    "EW",
    "MP",
)
DIRECTION = "Direction"
PAR = "par {par} (NS {ns}, EW {ew})"
AGAINST_PAR = "vs par"
MY_TABLE = "Your table: {link}"

LOG_IN = "log in first"
NO_SUCH_NIGHT = "no such club night"
NO_SUCH_CLUB = "no such club"
NOT_CLUB_ADMIN = "only the club's owner and admins run its nights"
NOT_MEMBER = "both players of a pair must be members of the club"
TOO_MANY = "a club has at most {count} nights not yet over"
NOT_REGISTERING = "the night is no longer taking pairs"
NO_SUCH_PARTNER = "no account is named {name}"
OWN_PARTNER = "choose a partner other than yourself"
FULL = "the night is full"
ALREADY_IN = "one of you is already in a pair of this night"
TOO_FEW = "a night needs two pairs at least"
BAD_NAME = "a name of 3 to 60 letters, please"
BAD_START = "a start within 90 days, please"
BAD_PRESET = "a club night plays a four-handed preset of pairs"
BAD_SCORING = "the scoring is one of {scorings}"
SCORING_OF_PLAYERS = (
    "a night of single players (individual or progressive) is scored by matchpoints"
)
BAD_LEVEL = "the computer players are one of {levels}"
NIGHTS_TITLE = "Club nights"
NIGHTS_HEADING = "Club nights of {club}"
NO_NIGHTS = "No club nights yet."
SCHEDULE_HEADING = "Schedule a night"
SCHEDULE_BUTTON = "Schedule"
FIELD_NAME = "Name"
FIELD_PER_ROUND = "Boards a round"
FIELD_ROUNDS = "Rounds"
FIELD_GRACE = "Seconds before an absent player's seat is played by the computer"
FIELD_SCORING = "Scoring"
FIELD_LEVEL = "Computer players (empty seats, late and dropped players)"
FIELD_STARTS = "Starts by itself at (leave empty to start it yourself)"
ENTER_HEADING = "Enter with a partner"
FIELD_PARTNER = "Your partner's name"
ENTER_BUTTON = "Enter"
START_BUTTON = "Start the night"
LOG_IN_FIRST = "Log in to enter."
NO_SUCH_PAGE = "no such page"
DOWNLOADS = "Download: {links}"
DOWNLOAD_LABELS = {
    "csv": "results (CSV)",
    "json": "boards and records (JSON)",
    "text": "boards and records (text)",
}
NOT_FINISHED = "the night is not over yet: its results are shown at the end"

# ---------------------------------------------------------------- nights of single players
#: the movements an admin chooses from when scheduling (the night's ``movement``)
MOVEMENT_CHOICES = {
    "pairs": "Fixed pairs (Mitchell or Howell)",
    "individual": "Individual: partners rotate",
    "progressive": "Progressive: winners move up",
}
FIELD_MOVEMENT = "Movement"
#: the seats of a table, in the hub's order
SEAT_LABELS = ("South", "West", "North", "East")
COMPUTER_PLAYER = "computer {n}"
PLAYERS_HEADING = "Players"
NO_PLAYERS = "No players yet."
PLAYER = "Player"
WON = "Rounds won"
ENTER_ALONE_HEADING = "Enter"
ENTER_ALONE_BUTTON = "Enter the night"
SEATING_HEADING = "Where to sit: round {round}"
ROUND_HEAD, TABLE, SEAT = "Round", "Table", "Seat"
SEAT_LATER = "when every table has finished the round"
MY_SEAT = "You sit next: round {round}, table {table}, {seat}."
MY_SEAT_LATER = "You sit next: round {round}; your table is known when every table has finished."
ENTER_ALONE = "players enter this night alone"
ENTER_AS_PAIR = "this night is of fixed pairs: enter with a partner"
NOT_MEMBER_ALONE = "only members of the club enter its nights"
ALREADY_ENTERED = "you are already in this night"
TOO_FEW_PLAYERS = "a night of single players needs {count} players at least"
# checking in (nights_checkin.py)
FIELD_CHECK_IN = "Seat only those who check in"
CHECK_IN_HEADING = "Check in"
CHECK_IN_BUTTON = "I am here: check in"
CHECKED_IN = "You are checked in."
CHECK_IN_SAYS = "Only the entries that check in before the start are seated."
PRESENT_MARK = " (checked in)"
NO_CHECK_IN = "this night seats every entry: there is no checking in"
NOT_ENTERED = "you have not entered this night"
