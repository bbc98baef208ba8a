"""The server serves any registered game: ``GET /api/games``, each game's web folder at
``/games/<name>/`` (404 for a game without one), and the game's name, title, board, whether
it is over, and the seat's own choices in every snapshot. The toy game (``toy_game.py``)
has no web folder, so its pages use the generic panel."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import toy_game
from test_server import humans, token_of, view

from citywatch.core.registry import game_names, load, register, unregister
from citywatch.server import create_app

with warnings.catch_warnings():  # Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

SERVER = Path(__file__).parents[2] / "citywatch" / "server"


@pytest.fixture
def toy() -> Iterator[None]:
    """The toy game registered under ``toy`` while the test runs."""
    register(toy_game.NAME, toy_game.__name__)
    try:
        yield
    finally:
        unregister(toy_game.NAME)


@pytest.fixture
def client(tmp_path: Path, toy: None) -> Iterator[TestClient]:
    """A client of an app made once the toy game is registered."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0)) as c:
        yield c


def create(client: TestClient, game: str, seats: list[str], seed: int = 3) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": game, "seats": seats, "seed": seed,
                                                 "practice": seats.count("human") > 1})
    assert response.status_code == 200, response.text
    created: dict[str, Any] = response.json()
    return created


def test_api_games_lists_every_registered_game(client: TestClient) -> None:
    """``GET /api/games``: name, title, seat range, the server's bots (the difficulty levels
    easy, normal and hard, then the fallback, then the game's own), whether the game has a
    browser board, whether it has a how-to-play guide (issue 26) and its declaration
    (``type``)."""
    response = client.get("/api/games")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    games = {g["name"]: g for g in response.json()}
    assert sorted(games) == game_names()
    for name, about in games.items():  # issue 25: each game's declaration, as it declares it
        assert about.pop("type") == load(name).type.to_json()
    assert games["ankh-morpork"] == {
        "name": "ankh-morpork", "title": "Discworld: Ankh-Morpork", "min_players": 2,
        "max_players": 4, "bots": ["easy", "normal", "hard", "random", "heuristic", "ismcts"],
        "board": True, "how_to_play": True}
    assert games["toy"] == {"name": "toy", "title": "toy", "min_players": 2, "max_players": 4,
                            "bots": ["easy", "normal", "hard", "random", "ismcts"],
                            "board": False, "how_to_play": False}


def test_each_games_web_folder_is_served(client: TestClient) -> None:
    """``/games/<name>/<file>`` serves the game's web folder, under the security headers;
    a game without one, an unknown game and an unknown file are 404."""
    folder = load("ankh-morpork").web_folder()
    assert folder is not None
    board = client.get("/games/ankh-morpork/board.js")
    assert board.status_code == 200
    assert "javascript" in board.headers["content-type"]
    assert board.text == (folder / "board.js").read_text(encoding="utf-8")
    assert "script-src 'self'" in board.headers["content-security-policy"]
    assert client.get("/games/ankh-morpork/cards.json").json()["game"] == "ankh-morpork"
    assert client.get("/games/ankh-morpork/board.css").status_code == 200
    for path in ("/games/toy/board.js", "/games/chess/board.js",
                 "/games/ankh-morpork/nothing.js", "/games/ankh-morpork/../game.py",
                 "/games/ankh-morpork/%2e%2e/game.py"):
        assert client.get(path).status_code == 404, path


def test_snapshots_name_the_game_and_carry_only_the_own_seats_choices(
        client: TestClient) -> None:
    """The snapshot's ``table`` names the game, its title and board and whether it is over;
    ``choices`` are the legal actions of the seat whose decision it is, and nobody else's."""
    created = create(client, "toy", ["human", "human"])
    people = humans(created)
    spectator = token_of(created["spectator"])
    state = toy_game.GAME.new_game(2, 3)
    mover = state.to_move
    assert mover is not None
    for seat, token in people.items():
        data = view(client, token)
        assert data["table"] == {"practice": True, "failed": None, "notices": [],
                                 "game": "toy", "title": "toy", "board": False,
                                 "over": False, "colours": ["Seat 1", "Seat 2"],
                                 "names": [None, None], "bots": [None, None],  # issue 16
                                 "replay": created["replay"].removeprefix("/replay/"),
                                 "rematch": False,  # issue 26
                                 "hints_on": False, "hints": [],  # issue 30
                                 "public": False, "free": [],
                                 "spectators_chat": False, "clock": None}  # issue 31
        expected = [{"text": str(a), "json": a.to_json()} for a in state.legal_actions()]
        assert data["choices"] == (expected if seat == mover else [])
    assert view(client, spectator)["choices"] == []
    with client.websocket_connect(f"/ws/{people[mover]}") as ws:
        first = ws.receive_json()
        assert first["choices"] and first["table"]["game"] == "toy"
        action = first["choices"][0]["json"]
        answer = client.post(f"/api/act/{people[mover]}", json={"step": 0, "action": action})
        assert answer.status_code == 200, answer.text
        assert ws.receive_json()["choices"] == []  # the decision has passed on
    am = create(client, "ankh-morpork", ["human", "random"])
    about = view(client, humans(am)[0])["table"]
    assert (about["game"], about["title"], about["board"]) == (
        "ankh-morpork", "Discworld: Ankh-Morpork", True)


def test_a_finished_game_says_it_is_over_and_offers_no_choices(client: TestClient) -> None:
    """Bots play a toy game to the end: the snapshot says over, with no choices."""
    created = create(client, "toy", ["human", "random"])
    token = humans(created)[0]
    deadline = time.monotonic() + 60  # the bot moves in the background: wait for it
    while time.monotonic() < deadline:
        data = view(client, token)
        if data["table"]["over"]:
            break
        if data["choices"]:
            client.post(f"/api/act/{token}", json={"step": data["step"],
                                                   "action": data["choices"][0]["json"]})
        else:
            time.sleep(0.02)
    data = view(client, token)
    assert data["table"]["over"] is True and data["choices"] == []
    assert client.get(f"/api/record/{token}").status_code == 200


def test_the_server_knows_no_game() -> None:
    """The server's code and pages name no game: it imports only the core and the registry."""
    for path in SERVER.rglob("*"):
        if path.is_file() and path.suffix in {".py", ".js", ".html", ".css", ".json"}:
            text = path.read_text(encoding="utf-8").lower()
            assert "ankh" not in text and "morpork" not in text, path
            assert "citywatch.games" not in text, path
