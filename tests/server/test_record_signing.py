"""Issue 24, point 5: records can be rewritten. The server signs the records it issues (Ed25519,
``citywatch.core.signature``), serves its public key at ``GET /api/record-key``, and
``citywatch replay --verify --public-key FILE`` checks the signature; without a key it says
whether the record is signed, and it says plainly when a record carries no digests."""

from __future__ import annotations

import copy
import json
import os
import stat
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.rsa import generate_private_key
from postgres_helpers import free_port
from starlette.applications import Starlette
from test_server import humans, new_table, play, sqlite_url

import citywatch
from citywatch.cli import main
from citywatch.core.errors import InvalidRecord
from citywatch.core.record import Record
from citywatch.core.signature import (
    BadSignature,
    KeyFileError,
    canonical_bytes,
    load_public_key,
    verify,
)
from citywatch.server import create_app
from citywatch.server.signing import KEY_FILE, RecordSigner, load_signer
from citywatch.server.tables import Limits

with warnings.catch_warnings():  # Starlette would rather have httpx2 than httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with:DeprecationWarning")

OPEN = Limits(creations="1000/minute")
REWRITTEN = 52
"""The action the attack of issue 24 changed."""


def finished_record(app: Starlette) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play one game (a person taking the first legal action, a random bot) at ``app`` to the
    end; its record and the served public key."""
    with TestClient(app) as client:
        created = new_table(client, ["human", "random"], seed=None)
        people = humans(created)
        play(client, people)
        response = client.get(f"/api/record/{people[0]}")
        assert response.status_code == 200, response.text
        key = client.get("/api/record-key")
        assert key.status_code == 200, key.text
        return response.json(), key.json()


@pytest.fixture(scope="module")
def issued(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    """One finished game's signed record and the server's public-key document."""
    folder = tmp_path_factory.mktemp("signing")
    app = create_app(sqlite_url(folder), bot_delay=0, limits=OPEN,
                     signing_key=folder / KEY_FILE)
    return finished_record(app)


@pytest.fixture
def record(issued: tuple[dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
    """A copy of the issued record, to change at will."""
    return copy.deepcopy(issued[0])


@pytest.fixture
def key_file(issued: tuple[dict[str, Any], dict[str, Any]], tmp_path: Path) -> Path:
    """The served public key, saved as ``GET /api/record-key`` gave it."""
    path = tmp_path / "record-key.json"
    path.write_text(json.dumps(issued[1]))
    return path


def run_replay(tmp_path: Path, record: dict[str, Any], *options: str,
               capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``citywatch replay RECORD --verify *options`` on ``record`` saved to a file: the exit
    status, standard output and standard error."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    capsys.readouterr()
    status = main(["replay", str(path), "--verify", *options])
    out, err = capsys.readouterr()
    return status, out, err


def rewrite(record: dict[str, Any], number: int) -> dict[str, Any]:
    """The attack of issue 24: another legal action at the first decision from action
    ``number`` on that has a choice, the game played on to its end by first legal actions,
    and every digest recomputed; the signature is kept as it was."""
    game = citywatch.load(record["game"])
    state = game.new_game(players=record["players"], seed=record["seed"], **record["options"])
    actions: list[Any] = []
    digests: list[str] = []
    changed = False
    for raw in record["actions"]:
        if len(actions) + 1 >= number and not changed and len(state.legal_actions()) > 1:
            action = next(a for a in state.legal_actions() if a.to_json() != raw)
            changed = True
        elif changed:
            break
        else:
            action = game.action_from_json(raw)
        state.apply(action)
        actions.append(action.to_json())
        digests.append(state.digest())
    assert changed, "no decision with a choice after the action to rewrite"
    while state.outcome() is None and len(actions) < 10 * len(record["actions"]):
        action = state.legal_actions()[0]
        state.apply(action)
        actions.append(action.to_json())
        digests.append(state.digest())
    return {**record, "actions": actions, "digests": digests}


def test_a_server_record_verifies_with_the_served_public_key(
        issued: tuple[dict[str, Any], dict[str, Any]], record: dict[str, Any], key_file: Path,
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, point 5: a record the server issued carries an Ed25519 signature by the key
    that ``GET /api/record-key`` serves, and ``replay --verify --public-key`` accepts it with
    that key saved as the served JSON or as its PEM, even reformatted (the canonical form)."""
    served_key = issued[1]
    assert served_key["algorithm"] == "Ed25519"
    assert record["signature"]["algorithm"] == "Ed25519"
    assert record["signature"]["key_id"] == served_key["key_id"]
    assert len(record["actions"]) > REWRITTEN
    status, out, err = run_replay(tmp_path, record, "--public-key", str(key_file), capsys=capsys)
    assert (status, err) == (0, "")
    assert "every digest matches" in out
    assert f"signature: valid, made with key {served_key['key_id']}" in out
    pem = tmp_path / "record-key.pem"
    pem.write_text(served_key["pem"])
    assert load_public_key(pem) == load_public_key(key_file)
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(dict(reversed(record.items())), indent=2))
    assert main(["replay", str(pretty), "--public-key", str(pem)]) == 0
    assert "signature: valid" in capsys.readouterr().out
    assert Record.from_json(record).signature == record["signature"]
    assert verify(record, load_public_key(pem)) == served_key["key_id"]


def test_a_rewritten_action_with_every_digest_recomputed_fails_with_the_key(
        record: dict[str, Any], key_file: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, point 5: changing action 52 and recomputing every digest still replays and
    matches its digests, but the signature check with the server's key fails (exit 1); without
    the key, the output says the signature was not checked."""
    forged = rewrite(record, REWRITTEN)
    assert forged["actions"] != record["actions"]
    citywatch.replay(forged, verify=True)  # digests alone cannot tell
    status, out, _err = run_replay(tmp_path, forged, capsys=capsys)
    assert status == 0
    assert "signature: present" in out and "NOT checked" in out and "--public-key" in out
    status, out, err = run_replay(tmp_path, forged, "--public-key", str(key_file), capsys=capsys)
    assert status == 1 and out == ""
    assert "does not match: the record was changed after it was signed" in err
    forged["signature"] = None
    status, _out, err = run_replay(tmp_path, forged, "--public-key", str(key_file),
                                   capsys=capsys)
    assert status == 1 and "the record is not signed" in err


def test_deleted_digests_fail_with_the_key_and_are_reported_without_one(
        record: dict[str, Any], key_file: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, point 5: a record with its digests deleted fails the signature check; without
    a key it still replays (exit 0) but the output says plainly that it carries no digests."""
    del record["digests"]
    status, out, err = run_replay(tmp_path, record, "--public-key", str(key_file),
                                  capsys=capsys)
    assert status == 1 and "changed after it was signed" in err
    status, out, err = run_replay(tmp_path, record, capsys=capsys)
    assert (status, err) == (0, "")
    assert ("the record carries no digests: only that its actions are legal was checked"
            in out)
    assert "every digest matches" not in out
    status, out, _err = run_replay(tmp_path, {**record, "digests": record["actions"][:0]},
                                   capsys=capsys)
    assert status == 1  # an empty list of digests for a game's actions is no escape


def test_a_record_without_its_signature_fails_with_the_key(
        record: dict[str, Any], key_file: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, point 5: deleting the signature fails the check with the key (exit 1, "not
    signed"); without a key the output says the record is not signed."""
    del record["signature"]
    status, out, err = run_replay(tmp_path, record, "--public-key", str(key_file),
                                  capsys=capsys)
    assert status == 1 and out == ""
    assert "the record is not signed" in err
    status, out, err = run_replay(tmp_path, record, capsys=capsys)
    assert (status, err) == (0, "")
    assert "signature: none: the record is not signed" in out


def test_a_record_signed_by_another_key_fails(
        issued: tuple[dict[str, Any], dict[str, Any]], record: dict[str, Any], key_file: Path,
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, point 5: a forged record signed with the forger's own key (or another
    server's) fails the check with the server's key, naming both key ids."""
    forger = RecordSigner.ephemeral()
    forged = forger.sign(rewrite(record, REWRITTEN))
    assert verify(forged, forger.private_key.public_key()) == forger.key_id
    status, out, err = run_replay(tmp_path, forged, "--public-key", str(key_file), capsys=capsys)
    assert status == 1 and out == ""
    assert f"signed by another key (key id {forger.key_id}, not {issued[1]['key_id']})" in err
    forged["signature"]["key_id"] = issued[1]["key_id"]  # a borrowed key id changes nothing
    status, out, err = run_replay(tmp_path, forged, "--public-key", str(key_file), capsys=capsys)
    assert status == 1 and "changed after it was signed" in err
    with pytest.raises(BadSignature, match="another key"):
        verify(record, forger.private_key.public_key())


def test_the_key_file_is_made_0600_once_and_reused_across_restarts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, point 5: ``citywatch serve`` makes the key in the data directory with mode
    0600 on first start and reuses it after a restart: a record issued before the restart
    verifies with the key served after it, and is issued identically again."""
    import uvicorn

    ran: list[Starlette] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **kw: ran.append(app))
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path / "data"))
    path = tmp_path / "data" / KEY_FILE
    serve = ["serve", "--bot-delay", "0", "--bot-workers", "1", "--port", str(free_port())]
    assert main(serve) == 0
    assert f"made a new record-signing key {path}" in capsys.readouterr().out
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    first = path.read_bytes()
    with TestClient(ran[0], base_url="http://localhost:8000") as client:
        created = new_table(client, ["human", "random"], seed=None)
        people = humans(created)
        play(client, people)
        before = client.get(f"/api/record/{people[0]}").json()
        key_before = client.get("/api/record-key").json()
    assert main(serve) == 0
    assert "record-signing key" not in capsys.readouterr().out
    assert path.read_bytes() == first
    with TestClient(ran[1], base_url="http://localhost:8000") as client:
        key_after = client.get("/api/record-key").json()
        again = client.get(f"/api/record/{people[0]}").json()
    assert key_after == key_before
    assert again == before
    saved = tmp_path / "key.json"
    saved.write_text(json.dumps(key_after))
    status, out, err = run_replay(tmp_path, before, "--public-key", str(saved), capsys=capsys)
    assert (status, err) == (0, "") and "signature: valid" in out
    assert not [p.name for p in path.parent.iterdir() if p.name.startswith(".")]


def test_processes_starting_at_once_end_with_one_key(tmp_path: Path) -> None:
    """Issue 24, point 5: several servers starting at once on one key file (one PostgreSQL)
    end with one key: the file is created atomically, and only one of them made it."""
    path = tmp_path / "shared" / KEY_FILE
    start = threading.Barrier(8)
    signers: list[RecordSigner] = []

    def begin() -> None:
        start.wait()
        signers.append(load_signer(path))

    threads = [threading.Thread(target=begin) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(signers) == 8
    assert len({s.key_id for s in signers}) == 1
    assert sum(s.created for s in signers) == 1
    assert os.listdir(path.parent) == [KEY_FILE]  # no temporary file left behind


def _rsa_pem() -> bytes:
    return generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())


def _encrypted_pem() -> bytes:
    return Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"secret"))


@pytest.mark.parametrize(("content", "said"), [
    (b"not a key\n", "is not a private key in PEM form"),
    (b"", "is not a private key in PEM form"),
    (None, "is not an Ed25519 private key"),
    (b"encrypted", "is encrypted"),
], ids=["garbage", "empty", "rsa", "encrypted"])
def test_a_bad_key_file_makes_serve_exit_2_without_starting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        content: bytes | None, said: str) -> None:
    """Issue 24, point 5: a key file that is not an unencrypted Ed25519 private key makes
    ``serve`` exit 2 with one clear line, before it opens the database or listens; the file is
    left as it was."""
    import uvicorn

    ran: list[Starlette] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **kw: ran.append(app))
    monkeypatch.setenv("CITYWATCH_DATA_DIR", str(tmp_path / "data"))
    key = tmp_path / "key.pem"
    data = _rsa_pem() if content is None else _encrypted_pem() if content == b"encrypted" \
        else content
    key.write_bytes(data)
    db = tmp_path / "server.db"
    port = ["--port", str(free_port())]
    assert main(["serve", "--signing-key", str(key), "--db", f"sqlite:///{db}", *port]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"citywatch serve: error: the signing key {key} ")
    assert said in err and err.count("\n") == 1 and "Traceback" not in err
    assert ran == [] and not db.exists() and key.read_bytes() == data
    folder = tmp_path / "a-folder"
    folder.mkdir()
    assert main(["serve", "--signing-key", str(folder), "--db", f"sqlite:///{db}", *port]) == 2
    assert f"cannot read the signing key {folder}" in capsys.readouterr().err
    assert ran == [] and not db.exists()


def test_replay_with_a_missing_or_malformed_public_key_is_bad_input(
        record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24, point 5: ``--public-key`` naming a missing file, or a file holding no Ed25519
    public key, is an error of the command (exit 2), not a verdict on the record."""
    missing = tmp_path / "missing.pem"
    status, out, err = run_replay(tmp_path, record, "--public-key", str(missing), capsys=capsys)
    assert status == 2 and out == ""
    assert f"cannot read the public key {missing}" in err
    rsa = tmp_path / "rsa.pem"
    rsa.write_bytes(serialization.load_pem_private_key(_rsa_pem(), None).public_key()
                    .public_bytes(serialization.Encoding.PEM,
                                  serialization.PublicFormat.SubjectPublicKeyInfo))
    bad_json = tmp_path / "bad.json"
    bad_json.write_text(json.dumps({"algorithm": "Ed25519", "public_key": "AAAA"}))
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("hello\n")
    for path, said in ((rsa, "not Ed25519"), (bad_json, "must be 32 bytes"),
                       (garbage, "neither a PEM public key nor the JSON")):
        status, out, err = run_replay(tmp_path, record, "--public-key", str(path),
                                      capsys=capsys)
        assert status == 2 and out == "" and said in err, err
    with pytest.raises(KeyFileError):
        load_public_key(garbage)


def test_records_load_with_or_without_a_signature_and_refuse_a_malformed_one(
        record: dict[str, Any]) -> None:
    """Issue 24, point 5: ``Record.from_json`` keeps a record's signature (``to_json`` gives it
    back, so a loaded and saved record still verifies), loads an old record without one, and
    refuses a malformed one with a clear ``InvalidRecord``."""
    loaded = Record.from_json(record)
    assert loaded.to_json() == record
    assert canonical_bytes(loaded.to_json()) == canonical_bytes(record)
    unsigned = {k: v for k, v in record.items() if k != "signature"}
    assert Record.from_json(unsigned).signature is None
    good = record["signature"]
    for bad, said in (("x", "must be an object"),
                      ({**good, "algorithm": "RSA"}, "unknown algorithm 'RSA'"),
                      ({k: v for k, v in good.items() if k != "value"}, "needs a string 'value'"),
                      ({**good, "value": "not base64!"}, "not base64"),
                      ({**good, "value": "AAAA"}, "must be 64 bytes"),
                      ({**good, "extra": 1}, "unknown members ['extra']")):
        with pytest.raises(InvalidRecord, match="record field 'signature'") as caught:
            Record.from_json({**record, "signature": bad})
        assert said in str(caught.value)


def test_an_app_without_a_key_file_signs_with_a_key_in_memory(tmp_path: Path) -> None:
    """Issue 24, point 5: ``create_app`` without ``signing_key`` still signs (tests and
    embedders never write into the user's data directory); its key is served like any."""
    app = create_app(sqlite_url(tmp_path), bot_delay=0, limits=OPEN)
    signer = app.state.signer
    assert isinstance(signer, RecordSigner) and signer.path is None
    with TestClient(app) as client:
        served = client.get("/api/record-key").json()
    assert served == signer.public_document()
    assert set(served) == {"algorithm", "key_id", "public_key", "pem"}
