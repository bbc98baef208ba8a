"""The training recipe (examples/train_maskable_ppo.py), run in process on a tiny budget: its
JSON has the evaluation curve and a final win rate inside its interval; options are bounded."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHEAP = "guardians-of-the-city"


def recipe() -> ModuleType:
    """The example script as a module (examples/ is not a package)."""
    path = ROOT / "examples" / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


def test_a_tiny_run_writes_its_curve_and_final_win_rate(tmp_path: Path) -> None:
    """256 steps, an evaluation every 128: points at 0, 128 and 256 steps, each a win rate
    within its Wilson interval over 4 games; the JSON is what main returns; the plot exists."""
    out, picture = tmp_path / "run.json", tmp_path / "run.png"
    returned = recipe().main(["--game", CHEAP, "--players", "2", "--opponent", "random",
                              "--timesteps", "256", "--n-steps", "128", "--eval-every", "128",
                              "--eval-games", "4",
                              "--seed", "3", "--out", str(out), "--plot", str(picture)])
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results == returned
    assert [p["steps"] for p in results["curve"]] == [0, 128, 256]
    final = results["final"]
    assert final == results["curve"][-1] and final["games"] == 4
    for point in results["curve"]:
        assert 0.0 <= point["low"] <= point["win_rate"] <= point["high"] <= 1.0
        assert point["high"] - point["low"] > 0.3  # 4 games cannot pin a rate down
    assert results["trained_steps"] == 256
    baseline = results["random_policy"]  # random legal play on the same evaluation games
    assert baseline["games"] == 4 and baseline["low"] <= baseline["win_rate"] <= baseline["high"]
    assert results["options"] == {}
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv, wanted", [
    (["--option", "turns=3"], "unknown options"),
    (["--option", "nonsense"], "NAME=VALUE"),
    (["--timesteps", "0"], "--timesteps"),
    (["--eval-games", "-3"], "--eval-games"),
    (["--eval-every", "x"], "--eval-every"),
    (["--shaping", "1.5"], "--shaping"),
    (["--seed", "-1"], "--seed"),
    (["--players", "9"], "--players"),
    (["--seat", "2"], "--seat"),
    (["--opponent", "nobody"], "--opponent"),
    (["--game", "chess"], "--game"),
    (["--gamma", "1.5"], "--gamma"),
    (["--ent-coef", "-0.1"], "--ent-coef"),
    (["--learning-rate", "0"], "--learning-rate"),
    (["--net-arch", "0"], "--net-arch"),
    (["--net-arch", "64,x"], "--net-arch"),
    (["--net-arch", ",".join(["8"] * 9)], "--net-arch"),
    (["--net-arch", "5000"], "--net-arch"),
    (["--eval-actions", "greedy"], "--eval-actions"),
    (["--batch-size", "4"], "--batch-size"),
])
def test_options_out_of_bounds_are_refused(argv: list[str], wanted: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Every option is checked before training: argparse exits with status 2 naming it."""
    with pytest.raises(SystemExit) as stop:
        recipe().main(["--game", CHEAP, "--out", str(tmp_path / "r.json"), *argv])
    assert stop.value.code == 2
    assert wanted in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()


def test_the_model_options_reach_ppo_and_the_saved_model_loads(tmp_path: Path) -> None:
    """--gamma, --ent-coef, --learning-rate and --net-arch are PPO's; --eval-actions sampled
    evaluates with sampled actions; --save writes a model MaskablePPO.load reads back, with
    the same network; the JSON records every choice."""
    from sb3_contrib import MaskablePPO
    out, saved = tmp_path / "run.json", tmp_path / "model.zip"
    results = recipe().main(["--game", CHEAP, "--timesteps", "64", "--n-steps", "32",
                             "--batch-size", "32",
                             "--eval-every", "64", "--eval-games", "2", "--gamma", "0.999",
                             "--ent-coef", "0.01", "--learning-rate", "0.001", "--no-anneal",
                             "--net-arch", "32,16", "--eval-actions", "sampled",
                             "--out", str(out), "--save", str(saved)])
    assert (results["gamma"], results["ent_coef"], results["learning_rate"]) == (
        0.999, 0.01, 0.001)
    assert results["net_arch"] == [32, 16] and results["eval_actions"] == "sampled"
    model = MaskablePPO.load(saved, device="cpu")
    assert model.gamma == 0.999 and model.ent_coef == 0.01 and model.batch_size == 32
    assert model.lr_schedule(1.0) == 0.001 and model.lr_schedule(0.5) == 0.001  # constant
    widths = [layer.out_features for layer in model.policy.mlp_extractor.policy_net
              if hasattr(layer, "out_features")]
    assert widths == [32, 16]


def test_anneal_lowers_the_step_size_to_nothing(tmp_path: Path) -> None:
    """--anneal: the step size falls linearly from --learning-rate to 0 over the run; the
    minibatch is capped at the rollout length."""
    from sb3_contrib import MaskablePPO
    out, saved = tmp_path / "run.json", tmp_path / "model.zip"
    results = recipe().main(["--game", CHEAP, "--timesteps", "32", "--n-steps", "32",
                             "--batch-size", "128", "--eval-every", "32", "--eval-games", "1",
                             "--learning-rate", "0.002", "--anneal",
                             "--out", str(out), "--save", str(saved)])
    assert results["anneal"] is True and results["batch_size"] == 32
    model = MaskablePPO.load(saved, device="cpu")
    assert model.lr_schedule(1.0) == 0.002
    assert model.lr_schedule(0.25) == 0.0005
    assert model.lr_schedule(0.0) == 0.0


def test_sampled_evaluations_repeat_and_leave_training_as_it_was(tmp_path: Path) -> None:
    """Evaluating samples from a generator of its own: the same run gives the same curve, and
    a run evaluated more often trains exactly the same network."""
    import torch
    from sb3_contrib import MaskablePPO

    def run(name: str, every: str) -> tuple[dict[str, object], dict[str, torch.Tensor]]:
        out, saved = tmp_path / f"{name}.json", tmp_path / f"{name}.zip"
        results = recipe().main(["--game", CHEAP, "--timesteps", "64", "--n-steps", "32",
                                 "--eval-every", every, "--eval-games", "3", "--seed", "5",
                                 "--out", str(out), "--save", str(saved)])
        return results, MaskablePPO.load(saved, device="cpu").policy.state_dict()

    first, weights = run("first", "32")
    again, weights_again = run("again", "32")
    sparse, weights_sparse = run("sparse", "64")
    assert first["eval_actions"] == "sampled"
    assert first["curve"] == again["curve"]
    assert first["final"]["win_rate"] == sparse["final"]["win_rate"]
    for name, tensor in weights.items():
        assert torch.equal(tensor, weights_again[name])
        assert torch.equal(tensor, weights_sparse[name])


def test_a_next_stage_starts_from_the_saved_model(tmp_path: Path) -> None:
    """--load (a curriculum): the second stage starts from the first stage's network, so its
    first evaluation is the first stage's last (the same games, the same sampling), then it
    trains on with its own settings and counts its own steps."""
    first, saved = tmp_path / "first.json", tmp_path / "first.zip"
    stage_one = recipe().main(["--game", CHEAP, "--timesteps", "64", "--n-steps", "32",
                               "--eval-every", "64", "--eval-games", "6", "--seed", "2",
                               "--net-arch", "16", "--out", str(first), "--save", str(saved)])
    stage_two = recipe().main(["--game", CHEAP, "--timesteps", "32", "--n-steps", "32",
                               "--eval-every", "32", "--eval-games", "6", "--seed", "3",
                               "--gamma", "0.9", "--load", str(saved),
                               "--out", str(tmp_path / "second.json")])
    assert stage_two["curve"][0] == {**stage_one["final"], "steps": 0}
    assert stage_two["loaded"] == str(saved) and stage_two["net_arch"] == [16]
    assert stage_two["trained_steps"] == 32 and stage_two["gamma"] == 0.9


@pytest.mark.parametrize("what", ["missing", "not a model", "another game"])
def test_a_load_that_is_no_model_for_this_game_is_refused(
        what: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--load of a missing file, of a file that is no model, or of a model of another game's
    spaces stops before training (argparse's exit status 2), naming --load."""
    model = tmp_path / "model.zip"
    if what == "not a model":
        model.write_bytes(b"not a zip at all")
    elif what == "another game":
        recipe().main(["--game", CHEAP, "--timesteps", "8", "--n-steps", "8",
                       "--eval-every", "8", "--eval-games", "1",
                       "--out", str(tmp_path / "gotc.json"), "--save", str(model)])
        capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        recipe().main(["--game", "ankh-morpork", "--timesteps", "8", "--load", str(model),
                       "--out", str(tmp_path / "r.json")])
    assert stop.value.code == 2
    assert "--load" in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()


def test_an_output_folder_that_does_not_exist_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--out in a missing folder fails before training, not after it."""
    with pytest.raises(SystemExit):
        recipe().main(["--game", CHEAP, "--out", str(tmp_path / "missing" / "r.json")])
    assert "--out" in capsys.readouterr().err


def test_the_guide_lists_every_option() -> None:
    """docs/training.md's option table names every option of the recipe's command line."""
    guide = (ROOT / "docs" / "training.md").read_text(encoding="utf-8")
    table = {flag for line in guide.splitlines() if line.startswith("| `--")
             for flag in re.findall(r"--[a-z-]+", line.split(" | ")[0])}
    options = {flag for action in recipe().parser()._actions for flag in action.option_strings
               if flag.startswith("--")
               and flag not in ("--help", "--no-rescale", "--no-anneal")}
    assert options - table == set()
