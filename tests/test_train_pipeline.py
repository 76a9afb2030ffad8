"""The trainer with PyTorch (the ``train`` extra; CI's second environment):
the numpy forward equals torch's, and the whole pipeline runs: train a few
iterations, checkpoint, resume, evaluate, export, load the numpy agent."""

from __future__ import annotations

import csv
import importlib.util
import math

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed (the train extra)")
pytestmark = pytest.mark.ecosystem

import inarow  # noqa: E402
from inarow.numpy_net import NumpyNet  # noqa: E402
from inarow.pretrained import NetworkAgent  # noqa: E402
from inarow.train import TrainConfig, train  # noqa: E402
from inarow.train.checkpoint import load_checkpoint  # noqa: E402
from inarow.train.device import torch_evaluator  # noqa: E402
from inarow.train.export import export_npz  # noqa: E402
from inarow.train.network import Network  # noqa: E402
from inarow.train.replay import plain_batch  # noqa: E402

RULES = [
    dict(width=7, height=6, k=4, players=2, gravity=True),
    dict(width=3, height=3, k=3, players=2, gravity=False),
    dict(width=5, height=4, k=3, players=3, gravity=False),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: "{width}x{height}k{k}p{players}".format(**r))
def test_numpy_forward_equals_torch(rules, tmp_path):
    torch.manual_seed(0)
    config = TrainConfig.for_game("custom", rules=rules, channels=8, blocks=2)
    net = Network(config)
    # Batch-norm statistics far from the identity, so a wrong fold cannot pass.
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-1, 1)
                m.running_var.uniform_(0.5, 2)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.5, 0.5)
    net.eval()
    path = export_npz(net, config, tmp_path / "net.npz")
    numpy_net = NumpyNet.load(path)
    rng = np.random.default_rng(0)
    obs = rng.integers(0, 2, (5, rules["players"], rules["height"], rules["width"])).astype(
        np.float32
    )
    logits, values = numpy_net(obs)
    t_logits, t_values = torch_evaluator(net)(obs)
    assert logits.shape == (5, config.num_actions)
    assert values.shape == ((5,) if rules["players"] == 2 else (5, rules["players"]))
    np.testing.assert_allclose(logits, t_logits, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(values, t_values, rtol=1e-4, atol=1e-4)
    assert np.abs(t_logits).max() > 1e-3  # the comparison is not between zeros


def _rows(run_dir):
    with open(run_dir / "log.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_pipeline_train_checkpoint_resume_evaluate_export(tmp_path):
    run_dir = tmp_path / "ttt"
    config = TrainConfig.for_game(
        "tic_tac_toe",
        games=16,
        simulations=8,
        min_replay=50,
        eval_minutes=0.02,
        eval_games=4,
        eval_simulations=4,
        eval_match_simulations=4,
    )
    first = train(config, run_dir, minutes=0.15, progress=False)
    assert not first["interrupted"] and first["games"] > 0 and first["train_steps"] > 0
    state = load_checkpoint(run_dir)
    assert state["counters"]["games"] == first["games"]
    with pytest.raises(FileExistsError):
        train(config, run_dir, minutes=0.01, progress=False)
    second = train(None, run_dir, minutes=0.1, resume=True, progress=False)
    assert second["games"] > first["games"]
    assert second["train_steps"] > first["train_steps"]
    assert second["seconds"] > first["seconds"]
    rows = _rows(run_dir)
    evals = [r for r in rows if r["mistakes_raw"]]
    assert len(evals) >= 2 and all(r["solved_positions"] == "4520" for r in evals)
    losses = [float(r["policy_loss"]) for r in rows if r["policy_loss"]]
    assert losses and all(math.isfinite(v) for v in losses)
    # The export plays: the numpy agent makes legal moves and agrees with the torch net.
    net = NumpyNet.load(run_dir / "network.npz")
    assert net.meta["games"] == second["games"]
    agent = NetworkAgent(net, net.rules, simulations=8)
    board = inarow.Board.tic_tac_toe()
    while not board.is_over:
        a = agent(board)
        assert board.is_legal(a)
        board.move(a)
    policy, value = agent.policy_value(inarow.Board.tic_tac_toe())
    assert policy.shape == (9,) and abs(policy.sum() - 1) < 1e-5 and -1 <= value <= 1


def test_plot_of_the_log(tmp_path):
    pytest.importorskip("matplotlib")
    from inarow.train.plot import plot_log

    run_dir = tmp_path / "run"
    config = TrainConfig.for_game(
        "tic_tac_toe", games=8, simulations=4, min_replay=20, eval_minutes=0.01, eval_games=2
    )
    train(config, run_dir, minutes=0.05, progress=False, export=False)
    out = tmp_path / "curve.png"
    plot_log(run_dir, out)
    assert out.stat().st_size > 1000


def test_ctrl_c_checkpoints_and_exits(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    run_dir = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-m", "inarow", "train", "tic_tac_toe", "--minutes", "5"]
        + ["--run-dir", str(run_dir), "--no-progress", "--eval-minutes", "10"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        # The first evaluation writes a checkpoint; then self-play is under way.
        while not (run_dir / "checkpoint.pt").exists() and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "checkpoint saved" in err
    state = load_checkpoint(run_dir)
    assert state is not None and state["counters"]["seconds"] > 0
    assert (run_dir / "network.npz").is_file()


def _tiny(**changes):
    settings = dict(
        games=8,
        simulations=4,
        min_replay=20,
        eval_minutes=0.01,
        eval_games=2,
        eval_simulations=4,
        eval_match_simulations=4,
    )
    settings.update(changes)
    return TrainConfig.for_game("tic_tac_toe", **settings)


def test_a_resumed_run_reports_its_own_rates_and_continues_its_schedule(tmp_path):
    run_dir = tmp_path / "run"
    # No evaluations: on a loaded machine one can take most of a 9-second session,
    # which then plays no game and logs no rate to compare with.
    result = train(_tiny(eval_minutes=0), run_dir, minutes=0.15, progress=False)
    lr_end = load_checkpoint(run_dir)["optimizer"]["param_groups"][0]["lr"]
    logged = len(_rows(run_dir))
    # The session's last row is logged before the clock it returns and saves (the log
    # keeps six significant digits).
    last_row_seconds = float(_rows(run_dir)[-1]["seconds"])
    assert last_row_seconds <= result["seconds"] * (1 + 1e-5)
    assert load_checkpoint(run_dir)["counters"]["seconds"] == result["seconds"]
    first_rates = [float(r["games_per_s"]) for r in _rows(run_dir) if r["games_per_s"]]
    assert first_rates, "the first session logs its rates"
    train(None, run_dir, minutes=0.05, resume=True, progress=False)
    later = [r for r in _rows(run_dir)[logged:] if r["games_per_s"]]
    assert later, "the resumed session logs its rates"
    # The first row after a resume counts this session's games, not the run's.
    assert float(later[0]["games_per_s"]) <= 2 * max(first_rates)
    # The cosine continues from where it was: the rate never climbs back up.
    assert load_checkpoint(run_dir)["optimizer"]["param_groups"][0]["lr"] <= lr_end * (1 + 1e-9)


def test_positions_without_a_policy_target_stay_out_of_the_policy_loss():
    from inarow.train.learner import Learner

    config = _tiny()
    rng = np.random.default_rng(0)
    n, a = 6, config.num_actions
    obs = rng.integers(0, 2, (n, 2, 3, 3)).astype(np.float32)
    policy = rng.dirichlet(np.ones(a), n).astype(np.float32)
    policy[::2] = 0.0  # fast searches: no policy target
    value = rng.uniform(-1, 1, (n, 1)).astype(np.float32)
    net = Network(config)
    with torch.no_grad():
        logits, _ = net.train()(torch.from_numpy(obs))  # batch statistics, as the step
    log_p = torch.log_softmax(logits, 1).numpy()
    kl = (policy * (np.log(np.maximum(policy, 1e-12)) - log_p)).sum(1)
    losses = Learner(net, config).step(plain_batch(obs, a, policy, value))
    assert losses["policy_loss"] == pytest.approx(kl[1::2].mean(), rel=1e-4)


def test_the_auxiliary_losses_are_the_weighted_cross_entropies_of_known_targets():
    from inarow.train.learner import Learner

    config = _tiny(final_board_weight=0.5, reply_weight=0.25)
    rng = np.random.default_rng(1)
    n, a = 6, config.num_actions
    obs = rng.integers(0, 2, (n, 2, 3, 3)).astype(np.float32)
    batch = list(plain_batch(obs, a))
    final = rng.integers(0, 3, (n, 3, 3)).astype(np.uint8)
    final[0] = 255  # unknown: left out
    reply = rng.integers(0, a, n).astype(np.int16)
    reply[1] = -1  # a game's last move: no reply
    batch[4], batch[5] = final, reply
    net = Network(config)
    with torch.no_grad():
        _, _, final_logits, reply_logits = net.train().forward_all(torch.from_numpy(obs))
    assert final_logits.shape == (n, 3, 3, 3) and reply_logits.shape == (n, a)
    # By hand: log-softmax over the classes, the mean over the known targets only.
    lf = torch.log_softmax(final_logits, 1).numpy()
    ce_final = -np.mean(
        [lf[i, final[i, y, x], y, x] for i in range(1, n) for y in range(3) for x in range(3)]
    )
    lr = torch.log_softmax(reply_logits, 1).numpy()
    ce_reply = -np.mean([lr[i, reply[i]] for i in range(n) if i != 1])
    losses = Learner(net, config).step(tuple(batch))
    assert losses["aux_loss"] == pytest.approx(0.5 * ce_final + 0.25 * ce_reply, rel=1e-4)
    # Without auxiliary heads there is no such term, and the network has no such head.
    plain = Network(_tiny())
    assert plain.forward_all(torch.from_numpy(obs))[2:] == (None, None)
    assert "aux_loss" not in Learner(plain, _tiny()).step(plain_batch(obs, a))


def test_a_run_with_auxiliary_targets_trains_exports_and_keeps_its_heads(tmp_path):
    config = _tiny(final_board_weight=1.0, reply_weight=0.15, eval_minutes=0)
    result = train(config, tmp_path / "run", minutes=0.1, progress=False)
    assert result["train_steps"] > 0
    with open(tmp_path / "run" / "log.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert any(r["aux_loss"] and float(r["aux_loss"]) > 0 for r in rows)
    # The exported network is the policy and value only: it plays as any other.
    agent = inarow.agents.load(tmp_path / "run" / "network.npz", simulations=8)
    board = inarow.Board(rules=inarow.Rules(width=3, height=3, k=3, gravity=False))
    assert board.legal_mask()[agent(board)]
    # The replay buffer keeps the targets across a resume; other heads are refused.
    state = load_checkpoint(tmp_path / "run")
    assert (state["replay"]["reply"] >= -1).all() and len(state["replay"]["final_board"]) > 0
    with pytest.raises(ValueError, match="auxiliary_heads"):
        train(_tiny(), tmp_path / "run", minutes=0.05, progress=False, resume=True)
    train(None, tmp_path / "run", minutes=0.05, progress=False, resume=True)


def test_a_resumed_schedule_starts_at_the_rate_it_had_reached():
    from inarow.train.learner import Learner
    from inarow.train.network import Network

    config = _tiny()
    learner = Learner(Network(config), config)
    learner.anneal(0.7)  # a session stopped at 70% of its budget
    reached = learner.optimizer.param_groups[0]["lr"]
    resumed = Learner(Network(config), config)
    resumed.optimizer.load_state_dict(learner.optimizer.state_dict())
    resumed.resume_schedule()
    resumed.anneal(0.0)
    assert resumed.optimizer.param_groups[0]["lr"] == pytest.approx(reached)
    resumed.anneal(1.0)
    assert resumed.optimizer.param_groups[0]["lr"] == pytest.approx(
        config.learning_rate * config.final_learning_rate_share
    )


def test_minutes_bound_the_session_evaluations_included_and_each_is_a_line(tmp_path, capsys):
    import time

    start = time.monotonic()
    # Evaluations of a few seconds each (120 games a depth), due every 0.3 s, in 8 s.
    config = _tiny(eval_minutes=0.005, eval_games=120, eval_match_simulations=16)
    result = train(config, tmp_path / "run", minutes=8 / 60, progress=False, echo=True)
    elapsed = time.monotonic() - start
    # The export and the last checkpoint are the only extras.
    assert elapsed <= 8 + 2, elapsed
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("evaluation")]
    assert len(lines) == result["evaluations"] >= 2
    assert "mistakes on 4,520 positions: raw" in lines[-1] and "vs negamax" in lines[-1]


def _train_cli(tmp_path, *args):
    import subprocess
    import sys

    run_dir = ["--run-dir", str(tmp_path / "run"), "--no-progress"]
    return subprocess.run(
        [sys.executable, "-m", "inarow", "train", *args, *run_dir],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_command_line_ends_with_a_summary_table(tmp_path):
    r = _train_cli(tmp_path, "tic_tac_toe", "--minutes", "0.05", "--eval-minutes", "0.01")
    assert r.returncode == 0, r.stderr
    assert "evaluation 1 at 0.0 min" in r.stdout
    assert "self-play games" in r.stdout and "network (for inarow.agents.load)" in r.stdout
    # Resumed without naming the game, the run is named by its own rules.
    r = _train_cli(tmp_path, "--resume", "--minutes", "0.02", "--eval-minutes", "0")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("training tic_tac_toe in ") and "(resumed)" in r.stdout


def test_device_names_are_read_and_a_missing_device_is_refused(monkeypatch, tmp_path):
    from inarow.train.device import resolve_device

    assert resolve_device("cpu") == torch.device("cpu")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    assert resolve_device("auto") == torch.device("cpu")
    for missing in ("cuda", "cuda:1", "mps"):
        with pytest.raises(ValueError, match=f"{missing!r} is not on this machine: it has cpu"):
            resolve_device(missing)
    for bogus in ("gpu", "cuda:x", "xla"):
        with pytest.raises(ValueError, match="allowed 'cpu', 'cuda'"):
            resolve_device(bogus)
    # The run refuses before it trains, and writes no checkpoint.
    config = TrainConfig.for_game("tic_tac_toe", device="cuda")
    with pytest.raises(ValueError, match="not on this machine"):
        train(config, tmp_path / "run", minutes=0.05, progress=False)
    assert load_checkpoint(tmp_path / "run") is None


def test_the_evaluator_and_learner_follow_the_network_to_its_device():
    """On a CPU-only machine the device is the CPU; the same code moves each batch to
    wherever the network lives and returns numpy (a GPU machine runs this too)."""
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    config = TrainConfig.for_game("tic_tac_toe", channels=8, blocks=1)
    net = Network(config).to(device)
    obs = np.zeros((4, 2, 3, 3), np.float32)
    logits, values = torch_evaluator(net)(obs)
    assert isinstance(logits, np.ndarray) and logits.shape == (4, 9) and values.shape == (4,)
    from inarow.train.learner import Learner

    losses = Learner(net, config).step(plain_batch(obs, 9))
    assert all(math.isfinite(v) for v in losses.values())


def test_bfloat16_matches_float32_on_every_device_here():
    """On the CPU (torch runs bfloat16 on any CPU, emulated where the CPU lacks it)
    and on cuda where there is one: bfloat16 outputs agree with float32 to
    bfloat16's precision, come back as float32, and a learner step keeps the
    weights in float32."""
    for device in ["cpu"] + (["cuda"] if torch.cuda.is_available() else []):
        _check_bfloat16_matches_float32(device)


def _check_bfloat16_matches_float32(device):
    from inarow.train.learner import Learner

    config = TrainConfig.for_game("tic_tac_toe", mixed_precision=True)
    net = Network(TrainConfig.for_game("tic_tac_toe", channels=8, blocks=1)).to(device)
    obs = np.random.default_rng(0).integers(0, 2, (64, 2, 3, 3)).astype(np.float32)
    exact, exact_v = torch_evaluator(net)(obs)
    mixed, mixed_v = torch_evaluator(net, mixed_precision=True)(obs)
    assert mixed.dtype == np.float32 and mixed_v.dtype == np.float32
    assert not np.array_equal(mixed, exact)  # bfloat16 did run
    np.testing.assert_allclose(mixed, exact, atol=0.05)
    np.testing.assert_allclose(mixed_v, exact_v, atol=0.05)
    losses = Learner(net, config).step(plain_batch(obs, 9))
    assert all(math.isfinite(v) for v in losses.values())
    assert all(p.dtype == torch.float32 for p in net.parameters())


def test_mixed_precision_is_refused_on_a_cpu_without_native_bfloat16(tmp_path, monkeypatch):
    from inarow.train import device

    monkeypatch.setattr(device, "cpu_has_native_bfloat16", lambda: False)
    config = TrainConfig.for_game("tic_tac_toe", mixed_precision=True)
    with pytest.raises(ValueError, match="mixed_precision on the cpu needs native bfloat16"):
        train(config, tmp_path / "run", minutes=0.05, progress=False)
    assert load_checkpoint(tmp_path / "run") is None
    with pytest.raises(ValueError, match="needs a cuda device or a CPU.*mps"):
        device.check_mixed_precision(True, torch.device("mps"))
    device.check_mixed_precision(False, torch.device("cpu"))  # off: nothing to check


def test_a_bfloat16_run_on_the_cpu_trains_and_checkpoints_float32(tmp_path, monkeypatch):
    from inarow.train import device

    monkeypatch.setattr(device, "cpu_has_native_bfloat16", lambda: True)
    result = train(
        _tiny(mixed_precision=True, eval_minutes=0), tmp_path / "run", minutes=0.05, progress=False
    )
    assert result["games"] > 0
    state = load_checkpoint(tmp_path / "run")
    assert state is not None
    assert all(v.dtype == torch.float32 for v in state["network"].values() if v.is_floating_point())


def test_the_yardstick_measures_the_float32_network_when_self_play_runs_in_bfloat16(
    tmp_path, monkeypatch
):
    from inarow.train import device, loop

    monkeypatch.setattr(device, "cpu_has_native_bfloat16", lambda: True)
    made, measured = {}, []
    real_evaluator, real_measure = loop.torch_evaluator, loop.measure_strength

    def recording_evaluator(net, mixed_precision=False):
        evaluate = real_evaluator(net, mixed_precision)
        made[evaluate] = mixed_precision
        return evaluate

    def recording_measure(evaluate, *args, **kwargs):
        measured.append(evaluate)
        return real_measure(evaluate, *args, **kwargs)

    monkeypatch.setattr(loop, "torch_evaluator", recording_evaluator)
    monkeypatch.setattr(loop, "measure_strength", recording_measure)
    train(_tiny(mixed_precision=True), tmp_path / "run", minutes=0.05, progress=False)
    assert True in made.values()  # self-play ran in bfloat16
    assert measured and all(made[e] is False for e in measured)


def test_an_evaluation_longer_than_the_session_is_cut_at_its_end(tmp_path):
    """The first evaluation alone (100,000 games a depth) would take many minutes: the
    3 s session still ends on time, and the log leaves the unfinished match blank."""
    import time

    from inarow.train.log import read_log

    start = time.monotonic()
    config = _tiny(eval_minutes=10.0, eval_games=100_000, eval_match_simulations=16)
    result = train(config, tmp_path / "run", minutes=3 / 60, progress=False)
    elapsed = time.monotonic() - start
    assert elapsed <= 3 + 2, elapsed
    assert result["evaluations"] >= 1
    log = read_log(tmp_path / "run" / "log.csv")
    evaluated = [i for i, m in enumerate(log["mistakes_raw"]) if not math.isnan(m)]
    assert evaluated, "the small board's mistakes are measured in time"
    assert all(math.isnan(log["negamax9_win"][i]) for i in evaluated)


def test_the_solver_judges_small_free_boards_while_training(tmp_path, capsys):
    """4x4, k=3 (beyond brute force, within the free-placement solver): every
    evaluation scores the raw and searched agents on solver-judged openings."""
    from inarow.train.log import read_log

    rules = dict(width=4, height=4, k=3, players=2, gravity=False)
    config = TrainConfig.for_game(
        "custom",
        rules=rules,
        channels=8,
        blocks=1,
        games=8,
        simulations=4,
        min_replay=20,
        eval_minutes=0.01,
        eval_judged_per_set=10,
        eval_negamax_depths=(),
        eval_simulations=4,
    )
    result = train(config, tmp_path / "run", minutes=4 / 60, progress=False, echo=True)
    log = read_log(tmp_path / "run" / "log.csv")
    judged = [g for g in log["judged_good_search"] if not math.isnan(g)]
    assert result["evaluations"] >= 2 and len(judged) == result["evaluations"]
    assert all(0.0 <= g <= 1.0 for g in judged + log["judged_good_raw"][-1:])
    assert all(p == 40 for p in log["judged_positions"] if not math.isnan(p))
    assert "solver-judged good moves search" in capsys.readouterr().out
    if importlib.util.find_spec("matplotlib") is not None:
        from inarow.train.plot import plot_log

        fig = plot_log(tmp_path / "run", tmp_path / "curve.png")
        assert "solver-judged good-move rate" in [ax.get_title() for ax in fig.axes]


def test_a_run_against_reference_opponents_logs_its_win_share_and_resumes(tmp_path):
    config = _tiny(opponents=("random",), opponent_share=1.0, eval_minutes=0)
    result = train(config, tmp_path / "run", minutes=0.1, progress=False)
    assert result["train_steps"] > 0
    with open(tmp_path / "run" / "log.csv", newline="") as f:
        shares = [
            float(r["opponents_win_share"]) for r in csv.DictReader(f) if r["opponents_win_share"]
        ]
    assert shares and all(0.0 <= s <= 1.0 for s in shares) and max(shares) > 0
    train(None, tmp_path / "run", minutes=0.05, progress=False, resume=True)
    assert load_checkpoint(tmp_path / "run")["config"]["opponents"] == ["random"]


def test_a_carried_run_is_small_and_resumes_where_it_stopped(tmp_path):
    from inarow.train.checkpoint import CHECKPOINT, carry_run
    from inarow.train.checkpoint import main as carry_main

    run_dir, dest = tmp_path / "run", tmp_path / "carried"
    first = train(_tiny(), run_dir, minutes=0.1, progress=False)
    saved = load_checkpoint(run_dir)
    held = len(saved["replay"]["obs"])
    assert held > 10
    path = carry_run(run_dir, dest, keep_positions=10)
    assert path.stat().st_size < (run_dir / CHECKPOINT).stat().st_size
    carried = load_checkpoint(dest)
    # The newest positions stay, and everything but the buffer is as saved.
    np.testing.assert_array_equal(carried["replay"]["obs"], saved["replay"]["obs"][-10:])
    assert carried["replay"]["added"] == saved["replay"]["added"]
    assert carried["counters"] == saved["counters"]
    assert carried["train_steps"] == saved["train_steps"]
    assert (dest / "log.csv").read_bytes() == (run_dir / "log.csv").read_bytes()
    assert (dest / "network.npz").is_file()
    # With no positions at all it resumes too: self-play refills the buffer first.
    assert carry_main([str(run_dir), str(tmp_path / "empty")]) == 0
    assert len(load_checkpoint(tmp_path / "empty")["replay"]["obs"]) == 0
    lr_end = saved["optimizer"]["param_groups"][0]["lr"]
    second = train(None, tmp_path / "empty", minutes=0.08, resume=True, progress=False)
    assert second["games"] > first["games"] and second["train_steps"] > first["train_steps"]
    lr_now = load_checkpoint(tmp_path / "empty")["optimizer"]["param_groups"][0]["lr"]
    assert lr_now <= lr_end * (1 + 1e-9)
    with pytest.raises(FileExistsError, match="holds a checkpoint already"):
        carry_run(run_dir, dest)
    with pytest.raises(FileNotFoundError, match="holds no checkpoint to carry"):
        carry_run(tmp_path / "nothing", tmp_path / "x")
    with pytest.raises(ValueError, match="keep_positions=-1: allowed 0 or more"):
        carry_run(run_dir, tmp_path / "y", keep_positions=-1)
    assert not (tmp_path / "y").exists() and not (tmp_path / "x").exists()


def test_rows_logged_after_the_last_checkpoint_go_when_the_run_is_carried_or_resumed(tmp_path):
    from inarow.train.checkpoint import carry_run

    run_dir = tmp_path / "run"
    train(_tiny(), run_dir, minutes=0.1, progress=False)
    saved = load_checkpoint(run_dir)
    games, steps = saved["counters"]["games"], saved["train_steps"]
    rows = _rows(run_dir)
    assert max(int(r["games"]) for r in rows) == games
    # Each training row says the cores the process got and the torch threads it ran.
    training = [r for r in rows if r["games_per_s"]]
    assert training and all(r["torch_threads"] == "1" for r in training)
    assert all(0 < float(r["cores"]) < 64 for r in training)
    # Every row was logged before the final checkpoint: its clock is at or past them.
    assert max(float(r["seconds"]) for r in rows) <= saved["counters"]["seconds"] * (1 + 1e-5)
    # A process killed between checkpoints leaves rows beyond the saved state.
    header = list(rows[0])
    ahead = [dict.fromkeys(header, ""), dict.fromkeys(header, "")]
    ahead[0].update(seconds="9999", games=str(games + 50), train_steps=str(steps))
    ahead[1].update(seconds="9999", games=str(games), train_steps=str(steps + 7))
    with open(run_dir / "log.csv", "a", newline="") as f:
        csv.DictWriter(f, header).writerows(ahead)
    carry_run(run_dir, tmp_path / "carried")
    assert _rows(tmp_path / "carried") == rows
    train(None, run_dir, minutes=0.05, resume=True, progress=False)
    resumed = _rows(run_dir)
    assert resumed[: len(rows)] == rows and len(resumed) > len(rows)
    assert "9999" not in [r["seconds"] for r in resumed]
    logged_games = [int(r["games"]) for r in resumed]
    assert logged_games == sorted(logged_games)  # one curve, never back in time


@pytest.mark.parametrize("mixed", [False, True])
def test_the_device_benchmark_measures_every_part_of_a_run(mixed):
    """benchmarks/train_device.py drives the learner, the evaluator and self-play
    directly, so a change to their contracts must keep it running."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "train_device.py"
    spec = importlib.util.spec_from_file_location("train_device", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    config = TrainConfig.for_game("tic_tac_toe", channels=8, blocks=1, games=4, simulations=4)
    m = bench.measure(config, torch.device("cpu"), mixed, seconds=0.05)
    assert m["params"] > 0
    assert all(m[k] > 0 for k in ("steps", "positions", "moves", "sims"))
    assert 0 < m["share"] <= 1
