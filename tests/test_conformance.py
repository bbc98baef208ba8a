"""The conformance suite: every registered game, and the toy game High Card (``toy_game.py``),
keeps the promises of the core API (``citywatch/core/api.py``), so that a new game is
copyable, searchable, recordable, hidden-information safe and servable on the day it registers.

Each test runs once per game. The toy game is registered (as ``toy``) around each test of this
module only, so other test files see the real registry.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import math
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import anyio
import pytest
import toy_game

import citywatch
from citywatch.bots import make_bot
from citywatch.bots.base import Observation
from citywatch.bots.decide import decide_in
from citywatch.coach import hint
from citywatch.core.api import Game, State
from citywatch.core.record import Record, replay
from citywatch.core.registry import game_names, load, register, unregister
from citywatch.core.rng import Rng, Seed, new_secret_seed
from citywatch.core.text import TextError, clean_text
from citywatch.server import create_app
from citywatch.server.tables import CHAT_LONGEST, Limits

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette would rather have httpx2; pettingzoo.test
    from pettingzoo.test import api_test, seed_test  # loads old-style environments
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

NAMES = [*(n for n in game_names() if n != toy_game.NAME), toy_game.NAME]
DEADLINE = 60.0


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    """The toy game is a registered game while a test of this module runs."""
    register(toy_game.NAME, toy_game.__name__)
    yield
    unregister(toy_game.NAME)


@pytest.fixture(params=NAMES)
def game(request: pytest.FixtureRequest, toy_registered: None) -> Game:
    """Each registered game, and the toy game."""
    return load(request.param)


# --- helpers ---------------------------------------------------------------------------------

def seats_for(game: Game, k: int) -> int:
    """The k-th player count, cycling from the fewest to the most."""
    return game.min_players + k % (game.max_players - game.min_players + 1)


def random_step(state: State, rng: Rng) -> Any:
    """Apply a uniformly random legal action; return it."""
    legal = state.legal_actions()
    action = legal[rng.below(len(legal))]
    state.apply(action)
    return action


def random_states(game: Game, players: int, seed: Seed, every: int = 1) -> Iterator[State]:
    """The states of one random game: every ``every``-th decision, and the end."""
    state = game.new_game(players=players, seed=seed)
    rng = Rng((seed if isinstance(seed, int) else len(seed)) ^ 0x5EED)
    k = 0
    while state.to_move is not None:
        if k % every == 0:
            yield state
        random_step(state, rng)
        k += 1
    yield state


def sampled_states(game: Game, every: int, at_least: int, games: int = 2,
                   players: int | None = None) -> Iterator[tuple[int, State]]:
    """(seed, state) from random games with seeds 0, 1, ...: every ``every``-th decision of
    each game (and its end), until ``games`` games and ``at_least`` states were yielded (more
    games for a short game, so every game is checked about as thoroughly)."""
    count = 0
    seed = 0
    while seed < games or count < at_least:
        n = players if players is not None else seats_for(game, seed)
        for state in random_states(game, n, seed, every):
            count += 1
            yield seed, state
        seed += 1
        assert seed < 1000, "the games are too short to sample"


def summary(state: State) -> tuple[Any, ...]:
    """Everything a state shows through the API, for comparing two states."""
    seats = range(state.players)
    return (state.position(), state.log(), state.to_move, state.legal_actions(),
            state.outcome(), [state.view(s) for s in seats], state.view(None))


def play_random_bots(game: Game, players: int, seed: Seed, bot_seed: int) -> tuple[Record, State]:
    """A game between random bots (``make_bot``), recorded with a digest after each action."""
    state = game.new_game(players=players, seed=seed)
    bots = [make_bot("random", game.name) for _ in range(players)]
    rngs = [Rng(bot_seed * 7919 + seat) for seat in range(players)]
    record = Record(game.name, players, seed, {}, [], [])
    while (seat := state.to_move) is not None:
        legal = state.legal_actions()
        action = bots[seat].choose(Observation(state, seat), legal, rngs[seat])
        assert action in legal, "the random bot chose an illegal action"
        state.apply(action)
        record.actions.append(action.to_json())
        assert record.digests is not None
        record.digests.append(state.digest())
    return record, state


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


# --- the forward model -----------------------------------------------------------------------

def test_copy_equals_original_and_copies_are_independent(game: Game) -> None:
    """TAG forward-model test: at every decision a copy equals the original, and playing on
    a copy (or the original) never changes the original (or any older copy, or a position
    already returned)."""
    older: list[tuple[State, tuple[Any, ...]]] = []
    for seed, state in sampled_states(game, every=5, at_least=200, games=3):
        before = summary(state)
        clone = state.copy()
        assert summary(clone) == before, "a copy differs from its original"
        rng = Rng(seed)
        for _ in range(10):
            if clone.to_move is None:
                break
            random_step(clone, rng)
        assert summary(state) == before, "playing on a copy changed the original"
        older.append((state.copy(), before))
        for old, old_summary in older[-4:]:
            assert summary(old) == old_summary, "an older copy changed"
    for old, old_summary in older[::7]:
        assert summary(old) == old_summary, "an older copy changed"


def test_copy_continues_identically(game: Game) -> None:
    """Determinism: a copy fed the same actions reaches the same state (same dice)."""
    state = game.new_game(players=game.max_players, seed=3)
    clone = state.copy()
    rng = Rng(1)
    while state.to_move is not None:
        clone.apply(random_step(state, rng))
        assert clone.position() == state.position()
    assert clone.log() == state.log() and clone.outcome() == state.outcome()


def test_same_seed_same_game_different_seed_different_game(game: Game) -> None:
    """Randomness comes only from the seeded generator the state owns."""
    for players in range(game.min_players, game.max_players + 1):
        a = game.new_game(players=players, seed=42)
        b = game.new_game(players=players, seed=42)
        assert a.position() == b.position() and a.log() == b.log()
        starts = {json.dumps(game.new_game(players=players, seed=s).position(), sort_keys=True)
                  for s in range(42, 46)}
        assert len(starts) > 1, "the seed does not change the game"


def test_new_game_refuses_bad_player_counts_and_options(game: Game) -> None:
    """new_game raises ValueError for a player count outside the game's range or an
    unknown option."""
    for players in (game.min_players - 1, game.max_players + 1, True, "2"):
        with pytest.raises(ValueError):
            game.new_game(players, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        game.new_game(game.min_players, 1, no_such_option=1)


def test_every_game_ends_with_random_bots(game: Game) -> None:
    """Random bots (``make_bot("random")``) finish every game at every player count: the
    outcome is set, its winners are seats, nothing is legal afterwards and apply refuses."""
    for players in range(game.min_players, game.max_players + 1):
        _record, state = play_random_bots(game, players, seed=players * 101, bot_seed=players)
        outcome = state.outcome()
        assert outcome is not None and state.is_terminal() and state.to_move is None
        assert len(set(outcome.winners)) == len(outcome.winners)
        assert all(0 <= w < players for w in outcome.winners), "winners must be seats"
        assert outcome.points is None or len(outcome.points) == players
        assert isinstance(outcome.reason, str) and outcome.reason
        assert through_json(outcome.to_json()) == outcome.to_json()
        assert state.turn_count() >= 1
        assert state.legal_actions() == []
        last = game.new_game(players=players, seed=players * 101).legal_actions()[0]
        with pytest.raises(citywatch.IllegalAction):
            state.apply(last)


def test_illegal_actions_raise_and_change_nothing(game: Game) -> None:
    """An action not in legal_actions() raises IllegalAction (a ValueError) and changes
    neither the position nor the log."""
    seen: list[Any] = []
    refused = 0
    for k, (_seed, state) in enumerate(sampled_states(game, every=5, at_least=100)):
        legal = state.legal_actions()
        seen.extend(legal[:3])
        bad: list[Any] = [a for a in seen[-40:] if a not in legal][:4]
        bad += [None, "not an action", (1, 2, 3), object()][k % 4:][:2]
        before = summary(state)
        for action in bad:
            with pytest.raises(citywatch.IllegalAction) as info:
                state.apply(action)
            assert isinstance(info.value, ValueError)
            assert str(info.value)
            assert summary(state) == before, f"refusing {action!r} changed the state"
            refused += 1
    assert refused > 200


def test_actions_round_trip_through_json(game: Game) -> None:
    """Every legal action has a distinct JSON form that action_from_json reads back to the
    same action, and a readable str(); malformed JSON raises ValueError."""
    seen = 0
    for state in random_states(game, game.max_players, 12):
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal), "legal_actions() repeats an action"
        forms = {json.dumps(a.to_json(), sort_keys=True) for a in legal}
        assert len(forms) == len(legal), "two legal actions share a JSON form"
        for a in legal:
            back = game.action_from_json(through_json(a.to_json()))
            assert back == a and hash(back) == hash(a)
            assert str(a)
            seen += 1
    assert seen > 20
    malformed: list[Any] = [{"no such": "action"}, [], None, 3, "nonsense"]
    for data in malformed:
        with pytest.raises(ValueError):
            game.action_from_json(data)


# --- hidden information ----------------------------------------------------------------------

def test_views_and_logs_are_plain_json(game: Game) -> None:
    """view(seat) / view(None) are JSON objects that survive json.dumps unchanged, log(seat)
    is a list of sentences, and a seat reads no more log lines than the omniscient log."""
    for _seed, state in sampled_states(game, every=9, at_least=50):
        everything = state.log()
        for seat in [*range(state.players), None]:
            view = state.view(seat)
            assert isinstance(view, dict) and through_json(view) == view
            lines = state.log(-1 if seat is None else seat)
            assert all(isinstance(line, str) for line in lines)
            assert len(lines) <= len(everything)


def test_view_of_determinized_state_equals_view(game: Game) -> None:
    """Hidden information: view(seat) of any determinize(seat, rng) equals view(seat), and
    the sampled world leaves the original unchanged."""
    checked = 0
    for seed, state in sampled_states(game, every=7, at_least=100, games=4):
        before = state.position()
        for seat in range(state.players):
            world = state.determinize(seat, Rng(seed * 31 + seat))
            assert world.view(seat) == state.view(seat)
            assert world.to_move == state.to_move
            checked += 1
        assert state.position() == before, "determinize changed the state"
    assert checked > 200


def test_determinized_worlds_play_to_the_end(game: Game) -> None:
    """Sampled worlds are complete, valid states: they read back from their position and
    random moves play them to the end."""
    played = 0
    for seed, state in sampled_states(game, every=40, at_least=8, games=3,
                                      players=game.max_players):
        if state.to_move is None:
            continue
        world = state.determinize(state.to_move, Rng(seed))
        back = game.from_position(through_json(world.position()))
        assert back.position() == world.position()
        rng = Rng(seed + 1)
        while world.to_move is not None:
            random_step(world, rng)
        outcome = world.outcome()
        assert outcome is not None and all(0 <= w < world.players for w in outcome.winners)
        played += 1
    assert played >= 3


def test_determinization_never_depends_on_hidden_truth(game: Game) -> None:
    """OpenSpiel's resampler bugs: two states that differ only in what a seat cannot see
    (the state, and a world sampled for that seat) give that seat identical sampled worlds
    for the same sampling seed."""
    compared = 0
    for k, (_seed, state) in enumerate(sampled_states(game, every=11, at_least=60, games=4)):
        if state.to_move is None:
            continue
        for seat in {state.to_move, k % state.players}:
            twin = state.determinize(seat, Rng(1000 + k))
            assert twin.view(seat) == state.view(seat)
            if twin.position() == state.position():
                continue
            for j in (77, 78):
                a = state.determinize(seat, Rng(j))
                b = twin.determinize(seat, Rng(j))
                assert a.position() == b.position(), (
                    f"seat {seat}'s sampled world depends on what it cannot see")
            compared += 1
    assert compared > 30


def test_a_hint_never_depends_on_hidden_truth(game: Game) -> None:
    """Issue 30: a hint for seat A (the chance after each action and the hard level's pick) is
    the same for two true states A cannot tell apart (the state, and a world sampled for A)
    and the same generator: it is judged from A's observation only."""
    compared = 0
    for k, (_seed, state) in enumerate(sampled_states(game, every=29, at_least=4, games=2)):
        seat = state.to_move
        if seat is None or len(state.legal_actions()) < 2:
            continue
        twin = state.determinize(seat, Rng(2000 + k))
        if twin.position() == state.position():
            continue
        mine = hint(state, seat, Rng(k), "quick", seconds=math.inf)
        theirs = hint(twin, seat, Rng(k), "quick", seconds=math.inf)
        assert mine.to_json() | {"seconds": 0} == theirs.to_json() | {"seconds": 0}, (
            f"seat {seat}'s hint depends on what it cannot see")
        compared += 1
        if compared == 3:
            break
    assert compared >= 2


# --- positions and records -------------------------------------------------------------------

def test_position_round_trips_through_json(game: Game) -> None:
    """from_position(position()) through JSON is the same state: the same position, views,
    decisions, and the same continuation (the generator is part of the position)."""
    for k, (_seed, state) in enumerate(sampled_states(game, every=4, at_least=150, games=3)):
        back = game.from_position(through_json(state.position()))
        assert back.position() == state.position()
        assert back.to_move == state.to_move
        assert back.legal_actions() == state.legal_actions()
        assert back.outcome() == state.outcome()
        assert [back.view(s) for s in range(state.players)] == \
            [state.view(s) for s in range(state.players)]
        if k % 10 == 0 and state.to_move is not None:
            ahead, rng = state.copy(), Rng(k)
            for _ in range(8):
                if ahead.to_move is None:
                    break
                back.apply(random_step(ahead, rng))
                assert back.position() == ahead.position()


def test_corrupt_positions_are_refused(game: Game) -> None:
    """from_position raises InvalidPosition (never another error) for what is not a
    position: not a JSON object, an empty object, a value of the wrong kind; without one of
    its keys, a position is refused the same way or read as a valid state (optional keys),
    and some key is required."""
    position = game.new_game(players=game.max_players, seed=9).position()
    corrupt: list[Any] = [[1, 2, 3], None, "position", 7, {}]
    for key in position:
        for wrong in ({"?": [None]}, "?"):
            if type(wrong) is not type(position[key]):
                corrupt.append({**copy.deepcopy(position), key: wrong})
    for bad in corrupt:
        with pytest.raises(citywatch.InvalidPosition):
            game.from_position(bad)
    required = 0
    for key in position:
        missing = copy.deepcopy(position)
        del missing[key]
        try:
            state = game.from_position(missing)
        except citywatch.InvalidPosition:
            required += 1
            continue
        assert game.from_position(through_json(state.position())).position() == \
            state.position(), f"a position without {key!r} was read as an invalid state"
    assert required > 0, "a position without any one of its keys was accepted"
    assert game.from_position(position).position() == position


def test_record_replays_to_the_identical_state(game: Game) -> None:
    """A record (game, players, seed, actions) replays through JSON, verifying the digest
    after each action, to the identical final state."""
    for k in range(2):
        record, final = play_random_bots(game, seats_for(game, k + 1), seed=k + 1, bot_seed=k)
        data = through_json(record.to_json())
        again = replay(data, verify=True)
        assert again.position() == final.position()
        assert again.log() == final.log()
        assert again.outcome() == final.outcome()
        assert record.digests is not None and record.digests[-1] == again.digest()
        assert replay(Record.from_json(data)).position() == final.position()


def test_secret_seeds_replay_too(game: Game) -> None:
    """A game seeded with a secret seed (BLAKE2b) is as replayable; other secret seeds give
    other games."""
    seed = new_secret_seed()
    record, final = play_random_bots(game, game.min_players, seed=seed, bot_seed=5)
    again = replay(through_json(record.to_json()), verify=True)
    assert again.position() == final.position() and again.log() == final.log()
    assert game.new_game(game.min_players, seed).position() == \
        game.new_game(game.min_players, seed).position()
    starts = {json.dumps(game.new_game(game.min_players, new_secret_seed()).position(),
                         sort_keys=True) for _ in range(4)}
    assert len(starts) > 1


def test_tampered_records_are_refused_naming_the_action(game: Game) -> None:
    """Replay names the action where a record fails: a tampered digest, an action that is
    not legal there, a malformed action, a missing action; a record that cannot start is
    refused too."""
    record, _ = play_random_bots(game, game.max_players, seed=5, bot_seed=5)
    data = through_json(record.to_json())
    n = len(data["actions"])
    assert n >= 4
    k = n // 2
    bad = copy.deepcopy(data)
    bad["digests"][k] = "0" * 16
    with pytest.raises(citywatch.InvalidRecord, match=rf"after action {k + 1}\b"):
        replay(bad, verify=True)
    replay(bad)  # digests are checked only when asked
    bad = copy.deepcopy(data)
    bad["actions"][k] = {"no such": "action"}
    with pytest.raises(citywatch.InvalidRecord, match=rf"action {k + 1} .*malformed"):
        replay(bad)
    # an action legal elsewhere in the game but not at step j
    state = game.new_game(players=data["players"], seed=data["seed"])
    for j, raw in enumerate(data["actions"]):
        legal = state.legal_actions()
        other = next((a for a in data["actions"][j + 1:j + 60]
                      if game.action_from_json(a) not in legal), None)
        if other is not None and j > 0:
            bad = copy.deepcopy(data)
            bad["actions"][j] = other
            bad.pop("digests")
            with pytest.raises(citywatch.InvalidRecord, match=rf"action {j + 1} .*not legal"):
                replay(bad)
            break
        state.apply(game.action_from_json(raw))
    else:
        pytest.fail("no action of the game was illegal at another step")
    bad = copy.deepcopy(data)
    del bad["actions"][k]
    with pytest.raises(citywatch.InvalidRecord):
        replay(bad, verify=True)
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(citywatch.InvalidRecord, match="cannot start"):
            replay({**data, "players": players, "actions": [], "digests": []})


# --- PettingZoo ------------------------------------------------------------------------------

def _env_or_refusal(game: Game, players: int) -> Any:
    """The game's PettingZoo environment, or None after checking that a game without an
    encoding is refused with a clear ValueError."""
    from citywatch.env import pettingzoo_env

    if game.encoding() is not None:
        return pettingzoo_env(game.name, players=players)
    with pytest.raises(ValueError) as info:
        pettingzoo_env(game.name, players=players)
    message = str(info.value)
    assert game.name in message or "encoding" in message.lower(), message
    return None


def test_pettingzoo_api_test(game: Game) -> None:
    """PettingZoo's api_test passes at every player count (games with an encoding); a game
    without one is refused with a ValueError."""
    for players in range(game.min_players, game.max_players + 1):
        env = _env_or_refusal(game, players)
        if env is None:
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # dict observations outside PettingZoo's own list
            api_test(env, num_cycles=1000)


def test_pettingzoo_seed_test(game: Game) -> None:
    """PettingZoo's seed_test: the same reset seed gives the same episode (games with an
    encoding); a game without one is refused with a ValueError."""
    for players in (game.min_players, game.max_players):
        if _env_or_refusal(game, players) is None:
            return
        from citywatch.env import pettingzoo_env

        seed_test(lambda p=players: pettingzoo_env(game.name, players=p), num_cycles=500)


# --- the web server --------------------------------------------------------------------------

def _token(link: str) -> str:
    assert link.startswith("/play/")
    return link.removeprefix("/play/")


def _snapshot(client: TestClient, token: str) -> dict[str, Any]:
    response = client.get(f"/api/view/{token}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


async def _receive_within(stream: Any, seconds: float) -> Any:
    with anyio.fail_after(seconds):
        return await stream.receive()


class _Socket:
    """The WebSocket of one watcher (seat, or -1 for the spectator); every message read is
    added to ``seen`` as (seat, step, JSON text)."""

    def __init__(self, ws: Any, seat: int, seen: list[tuple[int, int, str]]) -> None:
        self.ws, self.seat, self.seen = ws, seat, seen
        self.steps: list[int] = []
        self.last: dict[str, Any] = {}

    def receive(self) -> dict[str, Any]:
        stream = getattr(self.ws, "_send_rx", None)  # with a deadline when we can
        if stream is None:  # pragma: no cover
            message: dict[str, Any] = self.ws.receive_json()
        else:
            try:
                raw = self.ws.portal.call(_receive_within, stream, DEADLINE)
            except TimeoutError:
                pytest.fail(f"no message for seat {self.seat} in {DEADLINE} s (bots stuck?)")
            assert raw["type"] == "websocket.send", raw
            message = json.loads(raw["text"])
        assert message["type"] in ("state", "error"), message
        self.seen.append((self.seat, message["step"], json.dumps(message)))
        if message["type"] == "state":
            if self.steps and message["step"] == self.steps[-1]:  # issue 31: a chat message
                assert message["chat"] != self.last["chat"], "a state message came twice"
                self.last = message
                return message
            if self.steps:
                assert message["step"] == self.steps[-1] + 1, "a state message is missing"
            self.steps.append(message["step"])
            self.last = message
        return message

    def read_to(self, step: int) -> dict[str, Any]:
        """Read until the state message of ``step`` (the table waits there for a person)."""
        while not self.steps or self.steps[-1] < step:
            self.receive()
        assert self.steps[-1] == step, "the table went past a person's decision"
        return self.last

    def act(self, body: dict[str, Any]) -> dict[str, Any]:
        """Send an act message; the next message must be its error (or the new state)."""
        self.ws.send_json({"type": "act", **body})
        return self.receive()


def _play_table(client: TestClient, game: Game, seats: list[str], seed: int,
                seen: list[tuple[int, int, str]],
                written: list[str] | None = None) -> dict[str, Any]:
    """Play one practice table to the end and return its record. People choose random legal
    actions, known from a mirror of the table (the bots' decisions are deterministic, so the
    mirror replays them), acting over HTTP and WebSocket in turn, and probe the server with
    wrong requests (out of turn, illegal, stale, malformed). Everything received goes to
    ``seen`` as (seat, step, JSON text), the spectator being seat -1. Issue 31: a few times
    a person writes in the chat the longest text of its own view (a thing only it may
    know, which it may tell); the texts go to ``written``."""
    response = client.post("/api/tables", json={"game": game.name, "seats": seats,
                                                "seed": seed, "practice": True})
    assert response.status_code == 200, response.text
    created = response.json()
    people = {s["seat"]: _token(s["link"]) for s in created["seats"] if s["link"]}
    watchers = {**people, -1: _token(created["spectator"])}
    mirror = game.new_game(len(seats), seed)
    rng = Rng(seed)
    step = 0
    offered: dict[int, list[Any]] = {seat: [] for seat in people}
    with ExitStack() as stack:
        sockets = {seat: _Socket(stack.enter_context(client.websocket_connect(f"/ws/{token}")),
                                 seat, seen) for seat, token in watchers.items()}
        for k in itertools.count():
            while (bot := mirror.to_move) is not None and seats[bot] != "human":
                raw = decide_in(mirror.copy(), bot, seats[bot], seed, step)
                mirror.apply(game.action_from_json(raw))
                step += 1
            seat = mirror.to_move
            if seat is None:
                break
            for sock in sockets.values():
                sock.read_to(step)
            others = [w for w in watchers if w != seat]
            other = others[k % len(others)]
            if written is not None and k % 5 == 2 and len(written) < 3 and other >= 0:
                text = _told(mirror.view(other))
                written.append(text)
                sockets[other].ws.send_json({"type": "chat", "text": text})
                for sock in sockets.values():  # every seat is told, the step unchanged
                    if sock.seat >= 0:  # the spectator does not read the chat: not told
                        assert sock.receive()["step"] == step
            if k % 4 == 0:
                seen.append((other, step, json.dumps(_snapshot(client, watchers[other]))))
            legal = mirror.legal_actions()
            action = legal[rng.below(len(legal))].to_json()
            unlawful = next((a for a in reversed(offered[seat])
                             if game.action_from_json(a) not in legal), {"no such": "action"})
            offered[seat] = [*offered[seat][-30:], *(a.to_json() for a in legal[:3])]
            # wrong requests change nothing, and their answers tell nothing
            probes = [(other, {"step": step, "action": action}, {403}),
                      (seat, {"step": step, "action": unlawful}, {400, 422}),
                      (seat, {"step": step - 1, "action": action}, {409}),
                      (seat, {"step": step}, {400})]
            asker, body, statuses = probes[k % len(probes)]
            if k % 2 == 0:
                answer = client.post(f"/api/act/{watchers[asker]}", json=body)
                assert answer.status_code in statuses, (body, answer.text)
                seen.append((asker, step, answer.text))
            else:
                assert sockets[asker].act(body)["type"] == "error", body
            if k % 2 == 0:
                sockets[seat].act({"step": step, "action": action})  # its new state message
            else:
                answer = client.post(f"/api/act/{people[seat]}",
                                     json={"step": step, "action": action})
                assert answer.status_code == 200, answer.text
                assert answer.json() == {"ok": True, "step": step + 1}
                seen.append((seat, step, answer.text))
            mirror.apply(game.action_from_json(action))
            step += 1
        for sock in sockets.values():
            sock.read_to(step)
    final = _snapshot(client, watchers[-1])
    assert final["step"] == step
    seen.append((-1, step, json.dumps(final)))
    record: dict[str, Any] = client.get(f"/api/record/{watchers[-1]}").json()
    assert record["actions"] and len(record["actions"]) == step
    assert citywatch.replay(record, verify=True).position() == mirror.position()
    for k in sorted({0, 1, step // 2, step}):
        answer = client.get(f"/api/replay/{watchers[-1]}?step={k}")
        assert answer.status_code == 200, answer.text
        shown = answer.json()
        seen.append((-1, k, json.dumps({"view": shown["view"], "log": shown["log"]})))
    return record


def _told(view: Any) -> str:
    """The longest text of a seat's view that makes a chat message, as the server keeps it
    (``clean_text``), or "hello" (issue 31)."""
    told = {"hello"}
    for text in _strings(view):
        with contextlib.suppress(TextError):
            told.add(clean_text(text[:CHAT_LONGEST], "a chat message", CHAT_LONGEST))
    return max(sorted(told), key=len)


def _strings(value: Any) -> set[str]:
    """The texts inside a JSON value (three characters or more)."""
    if isinstance(value, str):
        return {value} if len(value) >= 3 else set()
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return set()


def _named(value: Any) -> set[str]:
    """The texts and the keys inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value).union(*map(_named, value.values()))
    if isinstance(value, list):
        return set().union(*map(_named, value)) if value else set()
    return set()


def _check_received(game: Game, record: dict[str, Any],
                    seen: list[tuple[int, int, str]], written: list[str] | None = None) -> int:
    """Every view and log sent for a seat at step k is exactly that seat's view and log of
    the record replayed to step k (spectators: view(None), log(-1)); ``choices`` are empty
    unless the seat decides; ``last_move`` is ``Game.last_move`` (issue 16); each of ``moves``
    (issue 26) holds lines of the seat's own log, in order, and places a spectator was
    shown (in a view or the public log, at that step or before); ``end`` (issue 26: the
    breakdown, which reveals what was hidden) is sent only once the game is over; and nothing
    else sent (answers, errors, other keys) holds a text of another seat's view or log that the
    seat's own view and log lack. Issue 31: the chat holds only the ``written`` texts, which
    people chose to tell (so they are not looked at as secrets), and the spectator reads none
    (the option "spectators_chat" is off).
    Returns how many (secret, message) pairs were checked."""
    by_step: dict[int, list[tuple[int, str]]] = {}
    for seat, step, text in seen:
        by_step.setdefault(step, []).append((seat, text))
    state = game.new_game(record["players"], record["seed"])
    checked = 0
    public: set[str] = set()
    for step in range(len(record["actions"]) + 1):
        if step > 0:
            state.apply(game.action_from_json(record["actions"][step - 1]))
        public |= _named([state.view(None), state.log(-1)])
        if step not in by_step:
            continue
        views = {seat: state.view(None if seat < 0 else seat)
                 for seat in range(-1, state.players)}
        logs = {seat: state.log(seat) for seat in range(-1, state.players)}
        texts = {seat: _strings([views[seat], logs[seat]]) for seat in views}
        for seat, text in by_step[step]:
            data = json.loads(text)
            where = f"seat {seat} at step {step}"
            rest = data
            if isinstance(data, dict) and "view" in data:
                assert data["view"] == views[seat], f"the view sent to {where} is not its view"
                assert data["log"] == logs[seat], f"the log sent to {where} is not its log"
                if "choices" in data:
                    assert data["choices"] == [] or seat == state.to_move, \
                        f"{where} was offered choices out of turn"
                    if seat == state.to_move:  # its legal actions, then the plans (issue 27)
                        actions = [c for c in data["choices"] if "steps" not in c]
                        assert len(actions) == len(state.legal_actions())
                        assert data["choices"][len(actions):] == [
                            plan.to_json() for plan in game.plans(state)]
                if "last_move" in data:  # issue 16: public, the same for every seat
                    assert data["last_move"] == game.last_move(state), \
                        f"the last move sent to {where} is not the game's"
                if "moves" in data:  # issue 26: the seat's own lines, in order
                    lines = [line for move in data["moves"] for line in move["lines"]]
                    own = logs[seat]
                    assert lines == own[len(own) - len(lines):], \
                        f"the moves sent to {where} are not the end of its own log"
                    for move in data["moves"]:
                        assert set(move["spaces"]) <= public, \
                            f"the moves sent to {where} name a place never public"
                rest = {k: v for k, v in data.items() if k not in ("view", "log")}
            if isinstance(rest, dict) and "chat" in rest:  # issue 31: what people wrote
                texts_sent = [m.pop("text") for m in rest["chat"]]
                assert set(texts_sent) <= set(written or []), f"a chat text nobody wrote: {where}"
                assert seat >= 0 or not texts_sent, "the spectator read the chat"
            if isinstance(rest, dict) and rest.get("end") is not None:  # issue 26
                assert state.is_terminal(), f"the end screen was sent to {where} mid-game"
                rest = {k: v for k, v in rest.items() if k != "end"}  # revealed at the end
            if isinstance(rest, dict):  # the values of last_move and moves, not their keys' words
                rest = [{k: v for k, v in rest.items() if k not in ("last_move", "moves")},
                        rest.get("last_move"),
                        [[m["by"], m["lines"]] for m in rest.get("moves", [])]]
            sent = json.dumps(rest, ensure_ascii=False)
            candidates = set().union(*(texts[o] for o in range(state.players) if o != seat))
            candidates -= texts[seat]
            found = [s for s in candidates if s in sent]
            checked += len(candidates) - len(found)
            if found:
                allowed = json.dumps([views[seat], logs[seat]], ensure_ascii=False)
                for secret in found:
                    assert secret in allowed, f"{secret!r} leaked to {where}: {sent[:300]}"
    return checked


@pytest.fixture
def fast_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder for a test database: in memory (/dev/shm) where there is one, since each
    stored action waits for the disk otherwise; else ``tmp_path``."""
    shm = Path("/dev/shm")
    if not shm.is_dir():  # pragma: no cover
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="citywatch-test-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_hidden_information_over_http_and_websocket(game: Game, fast_folder: Path) -> None:
    """Over whole games with people and random bots, every view and log the server sends a
    seat (HTTP, WebSocket, replay) is exactly the engine's view and log for that seat at
    that step, and no answer or error tells a seat what only other seats can see."""
    limits = Limits(creations="1000/minute", open_tables_per_address=100000)
    app = create_app(f"sqlite:///{fast_folder / 'server.db'}", bot_delay=0, limits=limits)
    tables = [["human" if s % 2 == 0 else "random" for s in range(game.max_players)],
              ["random" if s != 1 else "human" for s in range(game.min_players)]]
    with TestClient(app) as client:
        for k, seats in enumerate(tables):
            seen: list[tuple[int, int, str]] = []
            written: list[str] = []
            record = _play_table(client, game, seats, 31 + k, seen, written)
            assert _check_received(game, record, seen, written) > 0
            assert written or seats.count("human") < 2  # issue 31: people did write
