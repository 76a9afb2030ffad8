"""``inarow train``: the command line of the trainer (see ``docs/training.md``).

inarow train tic_tac_toe --minutes 5
inarow train connect_four --minutes 120 --run-dir runs/c4
inarow train connect_four --run-dir runs/c4 --resume --minutes 60
inarow train --width 8 --height 8 --k 5 --players 3 --no-gravity --minutes 30
inarow train gomoku --rule renju --minutes 600      # a named game under another rule
inarow train tic_tac_toe --minutes 5 --ray          # self-play on a local Ray cluster
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any, TextIO

from inarow._extras import missing
from inarow._rule_flags import add_rule_flags, given_rule_flags, rules_from_flags
from inarow.train.config import GAMES, THREATS_RUNG_NODES, TrainConfig

__all__ = ["add_parser", "run"]


def _named_games() -> dict[str, dict[str, Any]]:
    """Every game name ``inarow train`` takes: the trainer's own (their tuned
    defaults), the named rules of ``--rules`` elsewhere (gomoku) and the shipped
    networks' (15x15_k5_free...); a name of the last two trains with the defaults of
    other rules ('custom')."""
    from inarow._rules import PRESETS
    from inarow.pretrained import PRETRAINED_RULES

    names = {name: rules.to_dict() for name, rules in {**PRETRAINED_RULES, **PRESETS}.items()}
    return {**names, **GAMES}


# Settings a flag may override: (flag name, TrainConfig field, type, help).
_SETTINGS = [
    ("channels", int, "convolution channels of the residual tower"),
    ("blocks", int, "residual blocks"),
    (
        "final_board_weight",
        float,
        "auxiliary target: the final board, each cell's owner (loss weight; 0: no such head)",
    ),
    ("reply_weight", float, "auxiliary target: the opponent's reply (loss weight; 0: none)"),
    ("games", int, "self-play games played at once"),
    ("simulations", int, "search simulations per self-play move"),
    ("gumbel_considered", int, "root actions the Gumbel search considers per self-play move"),
    (
        "root",
        str,
        "the self-play search's root: gumbel (improved-policy targets) or puct (Dirichlet "
        "noise, visit-count targets)",
    ),
    (
        "forced_playouts",
        float,
        "with --root puct: KataGo's forced playouts and policy target pruning, their k "
        "(KataGo: 2; 0: off)",
    ),
    (
        "full_search_share",
        float,
        "playout cap randomisation: share of move rounds searched with --simulations and "
        "trained on for the policy (1: all)",
    ),
    ("fast_simulations", int, "simulations of the other rounds (their policy not trained on)"),
    ("temperature_plies", int, "searched plies whose moves are sampled from the policy"),
    (
        "selfplay_proof_nodes",
        int,
        "threat proofs in self-play: a forced win proven within this many positions is "
        "played and trained on (2 players; 0: off)",
    ),
    (
        "random_move_share",
        float,
        "share of self-play moves replaced by a random legal one (decisive games for 3+ players)",
    ),
    (
        "opponents",
        "agents",
        "reference opponents, comma-separated agent names (negamax:2,random, a "
        "network.npz): they take the network's opponents' seats in --opponent-share of "
        "the self-play games",
    ),
    ("opponent_share", float, "share of self-play games against --opponents"),
    ("random_opening_plies", int, "uniformly random moves opening a game: 0 up to this many"),
    ("batch_size", int, "training batch size"),
    ("learning_rate", float, "AdamW learning rate"),
    ("replay_capacity", int, "positions kept in the replay buffer"),
    ("replay_ratio", float, "positions trained on per position played"),
    ("eval_minutes", float, "minutes between evaluations (0: none)"),
    ("eval_simulations", int, "simulations of the searching agent on Pons' sets"),
    ("eval_negamax_depths", "depths", "negamax depths played in each evaluation, e.g. 2,4"),
    (
        "eval_games",
        int,
        "games per negamax depth (and against the threat engine) in each evaluation",
    ),
    (
        "eval_threats_nodes",
        int,
        "the threat engine's nodes a move in a rung of evaluation games (0: none; default "
        f"{THREATS_RUNG_NODES:,} on 2-player free-placement boards with k >= 5)",
    ),
    (
        "threads",
        int,
        "torch and search threads (torch runs fewer while other programs hold the cores)",
    ),
    ("device", str, "where the network trains: cpu, cuda, cuda:N, mps or auto"),
    (
        "mixed_precision",
        bool,
        "bfloat16 autocast on cuda or a CPU with native bfloat16 (weights stay float32)",
    ),
    ("seed", int, "seed of the run"),
]


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "train",
        help="train an AlphaZero-style network by self-play (needs the train extra)",
        description="Trains a policy/value network by self-play with inarow.MCTS for any "
        "rules; writes checkpoint.pt, log.csv and network.npz into --run-dir. Defaults "
        "per game: see docs/training.md.",
    )
    p.add_argument(
        "game",
        nargs="?",
        choices=sorted(_named_games()),
        help="a named game (connect_four and tic_tac_toe have tuned defaults; the others "
        "train with the defaults of other rules); leave out and give --width/--height/--k/"
        "--players/--no-gravity for other rules (Connect Four's where not given); --rule "
        "goes with either",
    )
    p.add_argument("--minutes", type=float, default=120.0, help="wall time to train (default 120)")
    p.add_argument("--run-dir", type=Path, default=None, help="default: inarow-runs/GAME")
    p.add_argument("--resume", action="store_true", help="continue the run in --run-dir")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="self-play on a Ray cluster (needs the ray extra): no ADDRESS starts one on "
        "this machine, 'auto' joins the one it belongs to",
    )
    p.add_argument(
        "--actors", type=int, default=None, help="with --ray: self-play actors (default: CPUs - 1)"
    )
    p.add_argument(
        "--actor-gpus",
        type=float,
        default=0.0,
        help="with --ray: GPUs per self-play actor for its network (0: CPU; 0.25: four "
        "actors share a GPU)",
    )
    g = p.add_argument_group("rules (for other games than the named ones; --rule for any)")
    add_rule_flags(g)
    s = p.add_argument_group("settings (defaults per game; on --resume, the run's own)")
    for name, kind, text in _SETTINGS:
        flag = "--" + name.replace("_", "-")
        if kind is bool:
            s.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction, help=text)
        elif kind == "depths":
            s.add_argument(flag, dest=name, type=_depths, metavar="D,D", help=text)
        elif kind == "agents":
            s.add_argument(flag, dest=name, type=_agent_names, metavar="NAME,NAME", help=text)
        else:
            s.add_argument(flag, dest=name, type=kind, help=text)
    p.set_defaults(func=run)
    return p


def _depths(text: str) -> tuple[int, ...]:
    try:
        depths = tuple(int(d) for d in text.split(",") if d.strip())
    except ValueError:
        depths = (0,)
    if not all(1 <= d <= 64 for d in depths):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a comma-separated list of depths in 1..64 (empty: none)"
        )
    return depths


def _agent_names(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise argparse.ArgumentTypeError(f"{text!r} names no agent (comma-separated names)")
    return names


def _config(args: argparse.Namespace) -> tuple[str, TrainConfig]:
    given_rules = given_rule_flags(args)
    rule = given_rules.pop("rule", None)  # a rule goes with a game name too
    if args.game is not None and given_rules:
        raise ValueError(
            f"give a game name or rules ({', '.join('--' + r for r in given_rules)}), not both"
        )
    overrides = {n: getattr(args, n) for n, _, _ in _SETTINGS if getattr(args, n) is not None}
    import inarow

    base = _named_games()[args.game] if args.game is not None else GAMES["connect_four"]
    # One Rules, checked (every problem listed), in its saved form.
    rules = rules_from_flags(inarow.Rules(**base), args).to_dict()
    for name, r in GAMES.items():
        if r == rules:
            return name, TrainConfig.for_game(name, **overrides)
    label = args.game if args.game is not None and rule is None else _label(rules, args.game)
    return label, TrainConfig.for_game("custom", rules=rules, **overrides)


def _label(rules: dict, game: str | None = None) -> str:
    """The name of a run of `rules`: a named game's, else the rules spelled out (the
    game's name, where given, for its size); the rule last, where not freestyle."""
    for name, r in GAMES.items():
        if r == rules:
            return name
    rule = rules.get("rule", "freestyle")
    size = game or "{width}x{height}_k{k}_p{players}_{g}".format(
        g="gravity" if rules["gravity"] else "free", **rules
    )
    return size if rule == "freestyle" else f"{size}_{rule}"


def run(args: argparse.Namespace, out: TextIO, _stdin: TextIO | None = None) -> int:
    label, config = _config(args)
    run_dir = args.run_dir if args.run_dir is not None else Path("inarow-runs") / label
    from inarow.train import train

    if args.resume:
        try:
            from inarow.train.checkpoint import load_checkpoint
        except ImportError as e:
            raise missing("train", "training", e) from e
        state = load_checkpoint(run_dir)
        if state is None:
            raise ValueError(f"--resume: {run_dir} holds no checkpoint")
        saved = TrainConfig.from_dict(state["config"])
        given = {n: getattr(args, n) for n, _, _ in _SETTINGS if getattr(args, n) is not None}
        config = dataclasses.replace(saved, **given)
        label = _label(saved.rules)
        del state
    print(
        f"training {label} in {run_dir} for {args.minutes:g} minutes"
        + (" (resumed)" if args.resume else ""),
        file=out,
    )
    try:
        result = train(
            config,
            run_dir,
            args.minutes,
            resume=args.resume,
            progress=not args.no_progress,
            echo=True,
            ray=args.ray,
            actors=args.actors,
            actor_gpus=args.actor_gpus,
        )
    except FileExistsError as e:
        raise ValueError(str(e)) from e
    print(summary(result), file=out)
    return 130 if result["interrupted"] else 0


def summary(result: dict) -> str:
    """The end of a run as a table a person reads: what was played and learnt, the
    last evaluation, and where the files are."""
    from inarow.train.evaluation import rung_results

    rows = [
        ("self-play games", f"{result['games']:,}"),
        ("positions", f"{result['positions']:,}"),
        ("simulations", f"{result['simulations']:,}"),
        ("training steps", f"{result['train_steps']:,}"),
        ("training time", f"{result['seconds'] / 60:.1f} min over all sessions"),
        ("network parameters", f"{result['parameters']:,}"),
    ]
    last = result.get("last", {})
    for key in sorted(last):
        if key.startswith(("mistakes", "pons_", "judged_", "solved")):
            value = last[key]
            shown = f"{value:.3f}" if isinstance(value, float) else str(value)
            rows.append((key.replace("_", " "), shown))
    rows += [(f"vs {name}", text) for name, text in rung_results(last)]
    if result.get("stalled"):
        rows.append(("learning", "stalled (see the line above the table)"))
    rows.append(("run directory", str(result["run_dir"])))
    if result.get("export"):
        rows.append(("network (for inarow.agents.load)", str(result["export"])))
    if result["interrupted"]:
        rows.append(("interrupted", "resume with --resume"))
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="inarow")
    add_parser(p.add_subparsers(dest="command", required=True))
    args = p.parse_args(argv)
    return args.func(args, sys.stdout)
