"""The training loop: self-play, learning and evaluation interleaved under a time
budget, with checkpoints, resume, a progress bar and Ctrl-C handling.

Each loop turn plays one searched move in every self-play game; positions of
finished games enter the replay buffer, and the learner takes as many batches as
keep ``replay_ratio`` positions trained per position played. Every
``eval_minutes`` the network's strength is measured (``inarow.train.evaluation``)
and a checkpoint written; Ctrl-C ends the current search at once (its trees are
restored), writes a checkpoint and returns.
"""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from inarow.train.checkpoint import load_checkpoint, save_checkpoint
from inarow.train.config import TrainConfig
from inarow.train.device import check_mixed_precision, resolve_device, torch_evaluator
from inarow.train.evaluation import (
    _brute_force_applies,
    evaluation_columns,
    measure_strength,
    rung_results,
    solve_small_board,
)
from inarow.train.export import export_npz
from inarow.train.learner import Learner
from inarow.train.log import LOG, CsvLog, drop_rows_beyond, logged_evaluations
from inarow.train.network import Network
from inarow.train.replay import ReplayBuffer
from inarow.train.selfplay import Games, SelfPlay
from inarow.train.stall import StallWatch, headline
from inarow.train.threads import TorchThreads

__all__ = ["EXPORT", "TrainResult", "train"]

#: The numpy export's file name in a run directory (``inarow.numpy_net``).
EXPORT = "network.npz"
#: Seconds between training rows of the log.
LOG_SECONDS = 30.0
#: Minutes between checkpoints (evaluations write one too).
CHECKPOINT_MINUTES = 5.0


class TrainResult(dict):
    """What ``train`` returns: counters, the last losses and evaluation, and paths."""


class _Interrupt:
    """Ctrl-C during a search raises at once (the search restores its trees); elsewhere
    it sets ``requested`` and the loop stops at its next check. A second Ctrl-C raises."""

    def __init__(self) -> None:
        self.requested = False
        self.in_search = False
        self._previous: Any = None

    def __enter__(self) -> _Interrupt:
        try:
            self._previous = signal.signal(signal.SIGINT, self._handle)
        except ValueError:  # not the main thread: Ctrl-C is not ours to handle
            self._previous = None
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)

    def _handle(self, signum: int, frame: Any) -> None:
        already = self.requested
        self.requested = True
        if self.in_search or already:
            raise KeyboardInterrupt


def train(
    config: TrainConfig | None,
    run_dir: str | Path,
    minutes: float,
    resume: bool = False,
    progress: bool = True,
    export: bool = True,
    echo: bool = False,
    ray: str | None = None,
    actors: int | None = None,
    actor_gpus: float = 0.0,
) -> TrainResult:
    """Trains for ``minutes`` of wall time in ``run_dir`` (created if needed).

    ``resume=True`` continues the run saved in ``run_dir`` with ``config`` (``None``:
    the saved settings; the rules and network size must match), the replay buffer,
    optimizer and counters as saved (self-play games in progress start afresh);
    without it a ``run_dir`` that holds a checkpoint is refused (``FileExistsError``).
    Writes ``checkpoint.pt``, ``log.csv`` and, at the end, ``network.npz``.
    ``ray``: self-play on a Ray cluster (`inarow.train.distributed`): "" for a local
    one, "auto" for the cluster this machine belongs to, or its address; ``actors``
    self-play actors (default: one per cluster CPU but one); ``actor_gpus`` the GPUs
    each actor's network runs on (0: the CPU; 0.25: four actors share a GPU; the
    cluster must have them). Checkpoints, logs and
    evaluations are the same either way, so a run resumes on either.
    ``minutes`` bounds the session's wall time, evaluations included (time for the
    final evaluation is kept free; an evaluation that would run past the end is cut
    there, its unfinished items blank in the log). ``echo=True`` prints a line per
    evaluation.
    """
    if actor_gpus and ray is None:
        raise ValueError(f"actor_gpus={actor_gpus}: GPU actors need ray= (--ray)")
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    state = load_checkpoint(run_dir)
    if state is not None and not resume:
        raise FileExistsError(
            f"{run_dir} holds a checkpoint: pass resume=True (--resume) or another directory"
        )
    if state is not None:
        saved = TrainConfig.from_dict(state["config"])
        config = saved if config is None else config
        for name in ("rules", "channels", "blocks", "auxiliary_heads"):
            if getattr(saved, name) != getattr(config, name):
                raise ValueError(
                    f"{run_dir} trains {name}={getattr(saved, name)}, not "
                    f"{getattr(config, name)}: use another directory"
                )
    elif config is None:
        raise ValueError(f"{run_dir} holds no checkpoint to resume: give a config")
    device = resolve_device(config.device)  # refused before training starts
    check_mixed_precision(config.mixed_precision, device)
    # On the CPU the threads follow the cores the machine gives the run (threads.py);
    # not with Ray, whose learner waits for its actors: idle, not short of cores.
    torch_threads = None
    if device.type == "cpu" and ray is None:
        torch_threads = TorchThreads(config.threads, torch.set_num_threads)
    else:
        torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    net = Network(config).to(device)
    learner = Learner(net, config)
    replay = ReplayBuffer(config)
    counters = dict(games=0, positions=0, simulations=0, seconds=0.0, evaluations=0)
    if state is not None:
        net.load_state_dict(state["network"])
        learner.optimizer.load_state_dict(state["optimizer"])
        learner.resume_schedule()
        learner.steps = state["train_steps"]
        replay.load_state(state["replay"])
        counters.update(state["counters"])
        rng = np.random.default_rng()
        rng.bit_generator.state = state["rng"]
    else:
        rng = np.random.default_rng(config.seed)
    evaluate = torch_evaluator(net, config.mixed_precision)
    exact_evaluate = torch_evaluator(net) if config.mixed_precision else evaluate
    selfplay_seed = int(rng.integers(2**62))
    if ray is None:
        selfplay: Any = SelfPlay(config, evaluate, seed=selfplay_seed)
    else:
        from inarow.train.distributed import RaySelfPlay

        selfplay = RaySelfPlay(
            config,
            net,
            selfplay_seed,
            address=ray or None,
            actors=actors,
            actor_gpus=actor_gpus,
            on_replace=lambda message: print(message, file=sys.stderr, flush=True),
        )
    if state is not None:
        drop_rows_beyond(run_dir / LOG, counters["games"], learner.steps)
    log = CsvLog(run_dir / LOG, evaluation_columns(config))
    table = solve_small_board(config.rules) if _brute_force_applies(config.rules) else None

    def checkpoint() -> None:
        counters["seconds"] = now_seconds()  # a resumed run's clock goes on from here
        save_checkpoint(
            run_dir,
            dict(
                config=config.to_dict(),
                network=net.state_dict(),
                optimizer=learner.optimizer.state_dict(),
                train_steps=learner.steps,
                replay=replay.state(),
                counters=dict(counters),
                rng=rng.bit_generator.state,
            ),
        )

    start = time.monotonic()
    base_seconds = counters["seconds"]
    budget = 60.0 * minutes
    owed = 0.0  # training batches owed to the replay ratio
    losses: dict[str, float] = {}
    loss_sums: dict[str, float] = {}
    loss_count = 0
    last_log = last_checkpoint = last_eval = start
    if state is None:
        last_eval = start - 60.0 * config.eval_minutes  # evaluate the untrained network once

    def fresh_window(t: float) -> dict[str, Any]:
        """The counts a log interval starts from (a resumed run's counters hold
        earlier sessions' games: rates count from here)."""
        return dict(
            t=t,
            cpu=time.process_time(),
            games=counters["games"],
            simulations=counters["simulations"],
            selfplay=0.0,
            network=0.0,
            drawn=0,
            finished=0,
            vs_won=0,
            vs_finished=0,
        )

    window = fresh_window(start)
    # The last evaluation's duration: the time kept free for the final one, so that
    # `minutes` bounds the whole session, evaluations included.
    eval_seconds = 0.0
    # Whether the last evaluation ran to its deadline: its length then says nothing of
    # what a whole one takes.
    eval_cut = False
    games_at_eval: int | None = None
    bar = _progress_bar(progress, budget)
    last_row: dict[str, Any] = {}
    interrupted = False

    def now_seconds() -> float:
        return base_seconds + time.monotonic() - start

    def log_training() -> None:
        nonlocal loss_sums, loss_count, losses
        t = time.monotonic()
        dt = max(t - window["t"], 1e-9)
        if loss_count:
            losses = {k: v / loss_count for k, v in loss_sums.items()}
        row = dict(
            seconds=now_seconds(),
            games=counters["games"],
            positions=counters["positions"],
            simulations=counters["simulations"],
            train_steps=learner.steps,
            games_per_s=(counters["games"] - window["games"]) / dt,
            simulations_per_s=(counters["simulations"] - window["simulations"]) / dt,
            network_share=window["network"] / window["selfplay"] if window["selfplay"] else None,
            # A log started before a column lacks it.
            **{k: v for k, v in losses.items() if k in log.columns},
        )
        if "selfplay_draw_share" in log.columns:
            row["selfplay_draw_share"] = (
                window["drawn"] / window["finished"] if window["finished"] else None
            )
        if "opponents_win_share" in log.columns and window["vs_finished"]:
            row["opponents_win_share"] = window["vs_won"] / window["vs_finished"]
        if "cores" in log.columns:
            row["cores"] = (time.process_time() - window["cpu"]) / dt
        if torch_threads is not None:
            if "torch_threads" in log.columns:
                row["torch_threads"] = torch_threads.threads  # those that ran this row
            changed = torch_threads.update()
            if changed and echo:
                show(changed)
        log.write(row)
        last_row.update(row)
        window.update(fresh_window(t))
        loss_sums, loss_count = {}, 0

    def time_left() -> float:
        return budget - (time.monotonic() - start)

    stall = StallWatch()
    stall_messages: list[str] = []
    if state is not None:  # a resumed run's watch continues from its logged evaluations
        for earlier in logged_evaluations(run_dir / LOG):
            stall.add(headline(earlier, config))
    since_eval = dict(drawn=0, finished=0)  # self-play games since the last evaluation

    def log_evaluation(final: bool = False) -> None:
        nonlocal eval_seconds, eval_cut, games_at_eval
        t_eval = time.monotonic()
        counters["evaluations"] += 1
        # Cut at the session's end, except that the final evaluation may take the
        # time the loop kept free for it (about the last one's length, 1.5x), when the
        # last one ran whole.
        deadline = start + budget
        if final and eval_seconds > 0 and not eval_cut:
            deadline = max(deadline, t_eval + 1.5 * eval_seconds)
        # The yardstick measures the network as it is exported and shipped: in
        # float32, whatever precision self-play runs in.
        row = measure_strength(
            exact_evaluate,
            config,
            seed=counters["evaluations"],
            small_board_table=table,
            deadline=deadline,
        )
        eval_seconds = time.monotonic() - t_eval
        eval_cut = time.monotonic() >= deadline
        games_at_eval = counters["games"]
        row.update(
            seconds=now_seconds(),
            games=counters["games"],
            positions=counters["positions"],
            simulations=counters["simulations"],
            train_steps=learner.steps,
        )
        # A log begun before a column existed keeps its header: such values show on
        # the terminal only.
        log.write({k: v for k, v in row.items() if k in log.columns})
        last_row.update(row)
        lines = [evaluation_line(row, counters["evaluations"])]
        finished = since_eval["finished"]
        draw_share = since_eval["drawn"] / finished if finished else None
        since_eval.update(drawn=0, finished=0)
        stalled = stall.add(headline(row, config), draw_share)
        if stalled:
            lines.append(stalled)
            stall_messages.append(stalled)
        if echo:
            for line in lines:
                show(line)

    def show(line: str) -> None:
        if bar is not None:
            bar.write(line)
        else:
            print(line, flush=True)

    try:
        with _Interrupt() as stop:
            evaluating = config.eval_minutes > 0
            while time_left() > (eval_seconds if evaluating else 0.0) and not stop.requested:
                t0 = time.monotonic()
                due = t0 - last_eval >= 60.0 * config.eval_minutes
                if evaluating and due and time_left() >= 2 * eval_seconds:
                    stop.in_search = True
                    try:
                        log_evaluation()
                    finally:
                        stop.in_search = False
                    last_eval = t0 = time.monotonic()
                    if torch_threads is not None:
                        torch_threads.restart()
                    checkpoint()
                    last_checkpoint = time.monotonic()
                if stop.requested:
                    break
                network_before = selfplay.network_seconds
                sims_before = selfplay.simulations
                stop.in_search = True
                try:
                    games = selfplay.step()
                finally:
                    stop.in_search = False
                counters["simulations"] += selfplay.simulations - sims_before
                window["selfplay"] += time.monotonic() - t0
                window["network"] += selfplay.network_seconds - network_before
                if games is not None:
                    replay.add(*(getattr(games, f) for f in Games.FIELDS))
                    counters["games"] += games.games
                    window["finished"] += games.games
                    window["drawn"] += int(games.wins[0])
                    window["vs_won"] += int(games.vs_opponents[0])
                    window["vs_finished"] += int(games.vs_opponents.sum())
                    since_eval["finished"] += games.games
                    since_eval["drawn"] += int(games.wins[0])
                    counters["positions"] += len(games.obs)
                    if len(replay) >= config.min_replay:
                        owed += len(games.obs) * config.replay_ratio / config.batch_size
                learner.anneal((time.monotonic() - start) / budget if budget > 0 else 1.0)
                while owed >= 1 and not stop.requested:
                    for name, v in learner.step(replay.sample(config.batch_size, rng)).items():
                        loss_sums[name] = loss_sums.get(name, 0.0) + v
                    loss_count += 1
                    owed -= 1
                if ray is not None:
                    selfplay.publish(net, learner.steps)
                t = time.monotonic()
                if t - last_log >= LOG_SECONDS:
                    log_training()
                    last_log = t
                if t - last_checkpoint >= 60.0 * CHECKPOINT_MINUTES:
                    checkpoint()
                    last_checkpoint = time.monotonic()
                if bar is not None:
                    bar.n = round(min(t - start, budget))
                    bar.set_postfix(
                        games=counters["games"],
                        steps=learner.steps,
                        loss=f"{sum(loss_sums.values()) / loss_count:.3f}"
                        if loss_count
                        else (f"{sum(losses.values()):.3f}" if losses else "-"),
                        refresh=False,
                    )
                    bar.refresh()
            interrupted = stop.requested
            # The last rates are logged before the checkpoint below, whose clock the
            # run returns and a resumed run continues from.
            if not interrupted and (counters["games"] > window["games"] or loss_count):
                log_training()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
        if ray is not None:
            selfplay.close()
        checkpoint()
    if not interrupted:
        # The final evaluation, unless nothing was learnt since the last one.
        if config.eval_minutes > 0 and games_at_eval != counters["games"]:
            try:
                log_evaluation(final=True)
            except KeyboardInterrupt:
                interrupted = True
            else:
                checkpoint()
    exported = None
    if export:
        exported = export_npz(
            net,
            config,
            run_dir / EXPORT,
            extra=dict(
                games=counters["games"],
                positions=counters["positions"],
                train_steps=learner.steps,
                seconds=round(counters["seconds"], 1),
            ),
        )
    if interrupted:
        print(
            f"interrupted: checkpoint saved in {run_dir} (resume with --resume)",
            file=sys.stderr,
        )
    return TrainResult(
        counters,
        train_steps=learner.steps,
        interrupted=interrupted,
        last=dict(last_row),
        # A stall that later evaluations ended is not the run's verdict.
        stalled=stall_messages[-1] if stall_messages and stall.stalled else None,
        replaced_actors=getattr(selfplay, "replaced", 0),
        run_dir=str(run_dir),
        export=str(exported) if exported else None,
        parameters=net.num_parameters(),
    )


def evaluation_line(row: dict[str, Any], index: int) -> str:
    """One evaluation as a line a person reads: when, how much play, and the scores."""
    parts = [
        f"evaluation {index} at {row['seconds'] / 60:.1f} min",
        f"{row['games']:,} games, {row['train_steps']:,} steps",
    ]
    if row.get("mistakes_raw") is not None:
        parts.append(
            f"mistakes on {row['solved_positions']:,} positions: raw {row['mistakes_raw']}, "
            f"searched {row['mistakes_search']}"
        )
    for label in ("raw", "search"):
        good = row.get(f"pons_good_{label}")
        if good is not None:
            parts.append(f"Pons good moves {label} {good:.1%}")
    for label in ("raw", "search"):
        good = row.get(f"judged_good_{label}")
        if good is not None:
            parts.append(f"solver-judged good moves {label} {good:.1%}")
    parts += [f"vs {name}: {text}" for name, text in rung_results(row)]
    return "; ".join(parts)


def _progress_bar(progress: bool, budget: float) -> Any:
    if not progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(
        total=round(budget),
        desc="training",
        dynamic_ncols=True,
        bar_format="{l_bar}{bar}| {n}/{total} s [{elapsed}<{remaining}{postfix}]",
    )
