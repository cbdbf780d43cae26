"""Play at a web table with one of the project's computer players, over the WebSocket
protocol (docs/web-protocol.md), the way a bot plays on a chess server.

    python examples/ws_player.py --server http://127.0.0.1:8500 --table K7QM2X --player heuristic

    python examples/ws_player.py --play-now australian --level medium --wait 30

It takes the first open seat (or ``--seat N``), or the seat of ``--token``, or with
``--play-now PRESET`` asks the server for a game ("play now": a table with the people
waiting for that preset, the empty seats filled by ``--level`` computer players after
``--wait`` seconds), and plays each of its turns with the named player (``random``, ``heuristic``, ``pimc``, ``pimc:fast``, ...)
until the game is over (then, with ``--rematches N``, starts the same table
again N times: the ``rematch`` message). The player sees exactly the seat's view the server sends, rebuilt
here as the engine's ``Observation``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import urllib.error
import urllib.request
from typing import Any

import websockets

from fivehundred.actions import JOKER_LEAD_BASE, PASS, action_text, parse_action
from fivehundred.bots import make_player
from fivehundred.cards import mask_of, parse_card
from fivehundred.observation import Observation
from fivehundred.play import FREE_SUIT, make_context
from fivehundred.rules import Rules, rules_from_dict

SUITS = "SCDH"


def _mask(cards: list[str]) -> int:
    return mask_of(parse_card(card) for card in cards)


def _play(text: str) -> int:
    return parse_action(text, "play")


def _suits(letters: str) -> int:
    return sum(1 << SUITS.index(letter) for letter in letters)


def observation_from_view(
    view: dict[str, Any], rules: Rules, auction_seats: list[int]
) -> Observation:
    """The engine's :class:`Observation` of a seat's ``view`` (``Observation.to_json()``).
    The view does not carry the cards the seat was dealt (``dealt`` stays 0): a bot that
    wants them keeps its first hand of the deal.
    ``joker_suits`` names each joker's nominated suit (the first joker's is ``joker_suit``)."""
    phase = view["phase"]
    contract = parse_action(view["contract"], "auction") if view["contract"] else -1
    red, black = (SUITS.index(s) if s else FREE_SUIT for s in view["joker_suits"])
    joker_suits = (red, black)
    trick = tuple((seat, _play(text)) for seat, text in view["trick"])
    tricks = tuple(
        (tuple((seat, _play(text)) for seat, text in plays), winner)
        for plays, winner in zip(view["tricks"], view["trick_winners"], strict=True)
    )
    trump = -1
    led_suit = -1
    if contract >= 0:
        from fivehundred.actions import MISERE, bid_strain

        trump = bid_strain(contract)
        if trick:
            lead = trick[0][1]
            if JOKER_LEAD_BASE <= lead < PASS:
                led_suit = (lead - JOKER_LEAD_BASE) % 4
            else:
                context = make_context(trump, contract >= MISERE, joker_suits)
                led_suit = context.effective_suit[lead]
    played = 0
    for plays, _ in tricks:
        for _, action in plays:
            played |= 1 << (action if action < JOKER_LEAD_BASE else _joker(action))
    for _, action in trick:
        played |= 1 << (action if action < JOKER_LEAD_BASE else _joker(action))
    legal_phase = "play" if phase in ("play", "discard") else phase
    return Observation(
        rules=rules,
        seat=view["seat"],
        dealer=view["dealer"],
        phase=phase,
        to_move=view["to_move"],
        hand=_mask(view["hand"]),
        auction=tuple(
            zip(auction_seats, (parse_action(c, "auction") for c in view["auction"]), strict=True)
        ),
        contract=contract,
        contractor=view["contractor"] if view["contractor"] is not None else -1,
        partners=tuple(view["partners"]),
        active=tuple(view["active"]),
        joker_suits=joker_suits,
        trump=trump,
        tricks=tricks,
        trick=trick,
        led_suit=led_suit,
        legal=tuple(parse_action(text, legal_phase) for text in view["legal"]),
        tricks_won=tuple(view["tricks_won"]),
        hand_sizes=tuple(view["hand_sizes"]),
        exposed=tuple((int(seat), _mask(cards)) for seat, cards in view["exposed"].items()),
        discards=_mask(view["discards"]),
        played=played,
        voids=tuple(_suits(v) for v in view["voids"]),
        suits_led=_suits(view["suits_led"]),
        scores=tuple(view["scores"]),
        called_card=parse_card(view["called_card"]) if view["called_card"] else -1,
        sides=tuple(view["sides"]),
        discards_left=view["discards_left"],
    )


def _joker(action: int) -> int:
    from fivehundred.actions import joker_lead_card

    return joker_lead_card(action)


def _request(
    url: str, body: dict[str, Any] | None = None, method: str | None = None
) -> dict[str, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url, data=data, headers={"content-type": "application/json"}, method=method
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return dict(json.loads(answer.read()))
    except urllib.error.HTTPError as error:
        detail = json.loads(error.read() or b"{}").get("detail", error.reason)
        raise SystemExit(f"ws_player: {url}: {error.code} {detail}") from None
    except urllib.error.URLError as error:
        raise SystemExit(f"ws_player: cannot reach {url}: {error.reason}") from None


async def play(
    server: str,
    code: str,
    token: str,
    player_name: str,
    seed: int,
    rules: Rules,
    quiet: bool = False,
    rematch: bool = False,
) -> dict[str, Any]:
    """Play the token's seat until the game is over; returns the last view message, or
    with ``rematch`` asks for the same table again and returns the server's ``rematch``
    message (the new table and this seat's token there)."""
    url = server.replace("http", "ws", 1).rstrip("/") + f"/ws/tables/{code}?token={token}"
    acted = -1
    tries = 0
    while True:
        try:
            async with websockets.connect(url, origin=None) as ws:
                tries = 0
                end = await _play_on(ws, rules, player_name, seed, quiet, rematch, acted)
        except websockets.ConnectionClosed as closed:
            code_ = closed.rcvd.code if closed.rcvd is not None else 1006
            if code_ in REFUSED:  # the server will not have this seat: no use coming back
                reason = closed.rcvd.reason if closed.rcvd is not None else ""
                raise SystemExit(f"ws_player: the server refused the seat: {reason}") from None
            why = f"closed ({code_})"
        except (OSError, websockets.InvalidStatus, websockets.InvalidHandshake) as error:
            why = f"cannot connect ({str(error).splitlines()[0] if str(error) else error})"
        else:
            if isinstance(end, dict):
                return end
            acted = end
            why = "closed"
        if tries >= len(BACKOFF):
            raise SystemExit(f"ws_player: the connection was lost: {why}")
        wait = BACKOFF[tries]
        tries += 1
        if not quiet:  # a deploy (close 1012) or a lost server: back through any server
            print(f"connection {why}; reconnecting in {wait:g} s", file=sys.stderr)
        await asyncio.sleep(wait)


#: Close codes that refuse the seat itself (docs/web-protocol.md): not retried.
REFUSED = (4000, 4401, 4403, 4404)
#: Seconds between reconnects (as the page: static/js/net.js), then the player gives up.
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0, 8.0)


async def _play_on(
    ws: Any,
    rules: Rules,
    player_name: str,
    seed: int,
    quiet: bool,
    rematch: bool,
    acted: int,
) -> dict[str, Any] | int:
    """Play on one connection: the last view (or the ``rematch`` message) when the game is
    over, else the last version acted on when the server closed the connection normally."""
    async for raw in ws:
        message = json.loads(raw)
        if message["type"] == "error":
            print(f"ws_player: the server refused: {message['message']}", file=sys.stderr)
            continue
        if message["type"] == "rematch" and rematch:
            if "token" in message:
                return dict(message)
            # another player started it: only those who ask are seated
            await ws.send(json.dumps({"type": "rematch"}))
            continue
        if message["type"] != "view":
            continue
        view = message["view"]
        if view["table"]["finished"]:
            if acted != -2 and not quiet:
                print(
                    f"game over after {view['table']['hands_played']} hands; scores "
                    f"{view['scores']}; winner side {view['table']['winner']}"
                )
            if not rematch:
                return dict(message)
            if acted != -2:
                acted = -2  # asked once; the answer is a "rematch" message
                await ws.send(json.dumps({"type": "rematch"}))
            continue
        if not view["legal"] or message["version"] <= acted:
            continue
        acted = message["version"]
        observation = observation_from_view(view, rules, view["table"]["auction_seats"])
        player = make_player(player_name, seed + message["version"])
        action = player.act(observation)
        await ws.send(
            json.dumps(
                {
                    "type": "action",
                    "version": message["version"],
                    "action": action_text(action, rules.two_jokers),
                }
            )
        )
    return acted


def play_now(server: str, preset: str, level: str, wait: float, name: str) -> dict[str, Any]:
    """Wait in the server's play-now queue until seated; the seat's answer (``table``,
    ``seat``, ``token``). Leaves the queue if interrupted."""
    body = {"preset": preset, "level": level, "wait": wait, "name": name}
    answer = _request(f"{server}/api/play-now", body)
    try:
        while answer["status"] != "seated":
            answer = _request(f"{server}/api/play-now/{answer['ticket']}?wait=25")
    except KeyboardInterrupt:
        _request(f"{server}/api/play-now/{answer['ticket']}", method="DELETE")
        raise
    return answer


def bot_name(player: str) -> str:
    """The name a player sits under unless ``--name`` says: ``heuristic bot`` (a level's or
    a player's bare name is reserved for the server's own computer players)."""
    return f"{player.split(':', 1)[0]} bot"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8500")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="the table's code")
    where.add_argument(
        "--play-now", metavar="PRESET", help="ask the server for a game of PRESET (play now)"
    )
    parser.add_argument(
        "--level", default="medium", help="with --play-now: the computer players who fill it"
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=30.0,
        help="with --play-now: seconds to wait for people before computers fill the table",
    )
    parser.add_argument(
        "--seat", type=int, default=None, help="the open seat to take (default: the first)"
    )
    parser.add_argument(
        "--token", default=None, help="play the seat this token holds (to come back)"
    )
    parser.add_argument(
        "--name",
        default=None,
        help="the name at the table (default: the player's, as 'heuristic bot')",
    )
    parser.add_argument(
        "--player", default="heuristic", help="random, heuristic, pimc, pimc:fast, ..."
    )
    parser.add_argument(
        "--rematches",
        type=int,
        default=0,
        help="after the game, start the same table again this many times (rematch)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    if args.player.startswith("cmd:"):
        parser.error("--player: a built-in player (random, heuristic, pimc, ...)")
    try:
        make_player(args.player, 0)
    except ValueError as error:
        parser.error(f"--player: {error}")
    server = args.server.rstrip("/")
    token = args.token
    if args.play_now is not None:
        seated = play_now(
            server, args.play_now, args.level, args.wait, args.name or bot_name(args.player)
        )
        args.table, token = seated["table"], seated["token"]
        if not args.quiet:
            print(f"seated at table {args.table}, seat {seated['seat']}")
    facts = _request(f"{server}/api/tables/{args.table}")
    rules = rules_from_dict(facts["rules"])
    if token is None:
        seat = args.seat
        if seat is None:
            open_seats = [s["seat"] for s in facts["seats"] if s["kind"] == "open"]
            if not open_seats:
                parser.error(f"table {args.table} has no open seat")
            seat = open_seats[0]
        name = args.name or bot_name(args.player)
        token = _request(f"{server}/api/tables/{args.table}/seats/{seat}", {"name": name})["token"]
        if not args.quiet:
            print(f"seat {seat} taken as {name}; token {token} (--token to come back)")
    code = facts["table"]
    for left in range(args.rematches, -1, -1):
        end = asyncio.run(
            play(server, code, token, args.player, args.seed, rules, args.quiet, left > 0)
        )
        if left > 0:
            code, token = end["table"], end["token"]
            if not args.quiet:
                print(f"rematch: table {code}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
