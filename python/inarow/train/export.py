"""Export a trained network to the numpy format (``inarow.numpy_net``): batch norm
folded into each convolution, float32 arrays and a JSON header in one ``.npz``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import torch

from inarow.numpy_net import FORMAT
from inarow.train.config import TrainConfig
from inarow.train.network import Network

__all__ = ["export_checkpoint", "export_npz", "network_arrays"]


def _fold(conv_bn: torch.nn.Sequential) -> tuple[np.ndarray, np.ndarray]:
    conv, bn = conv_bn[0], conv_bn[1]
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    w = conv.weight * scale[:, None, None, None]
    b = bn.bias - bn.running_mean * scale
    return w.detach().cpu().numpy().astype(np.float32), b.detach().cpu().numpy().astype(np.float32)


def network_arrays(
    net: Network, config: TrainConfig, extra: dict[str, Any] | None = None
) -> dict[str, np.ndarray]:
    """The arrays of the export: ``meta`` (JSON) and ``<layer>.w`` / ``<layer>.b``."""
    out: dict[str, np.ndarray] = {}

    def put_conv(name: str, module: torch.nn.Sequential) -> None:
        out[f"{name}.w"], out[f"{name}.b"] = _fold(module)

    def put_linear(name: str, module: torch.nn.Linear) -> None:
        out[f"{name}.w"] = module.weight.detach().cpu().numpy().astype(np.float32)
        out[f"{name}.b"] = module.bias.detach().cpu().numpy().astype(np.float32)

    put_conv("stem", net.stem)
    for i, block in enumerate(net.blocks):
        put_conv(f"block{i}.a", block.a)
        put_conv(f"block{i}.b", block.b)
    put_conv("policy.conv", net.policy_conv)
    put_linear("policy.fc", net.policy_fc)
    put_conv("value.conv", net.value_conv)
    put_linear("value.fc1", net.value_fc1)
    put_linear("value.fc2", net.value_fc2)
    meta = dict(
        format=FORMAT,
        rules=config.rules,
        channels=config.channels,
        blocks=config.blocks,
        **(extra or {}),
    )
    out["meta"] = np.array(json.dumps(meta))
    return out


def export_npz(
    net: Network,
    config: TrainConfig,
    path: str | Path,
    extra: dict[str, Any] | None = None,
) -> Path:
    """Writes the export atomically (a temporary file renamed over ``path``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.npz")
    with torch.no_grad():
        arrays = network_arrays(net, config, extra)
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, path)
    return path


def export_checkpoint(run_dir: str | Path, path: str | Path) -> Path:
    """Exports the network of the checkpoint in ``run_dir`` (a run still training is
    fine: checkpoints are replaced atomically)."""
    from inarow.train.checkpoint import load_checkpoint

    state = load_checkpoint(Path(run_dir))
    if state is None:
        raise FileNotFoundError(f"{run_dir} holds no checkpoint")
    config = TrainConfig.from_dict(state["config"])
    net = Network(config)
    net.load_state_dict(state["network"])
    net.eval()
    counters = state["counters"]
    extra = dict(
        games=counters["games"],
        positions=counters["positions"],
        train_steps=state["train_steps"],
        seconds=round(counters["seconds"], 1),
    )
    return export_npz(net, config, path, extra=extra)


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m inarow.train.export",
        description="Export a run's checkpoint to the numpy format (inarow.numpy_net).",
    )
    p.add_argument("run_dir", type=Path)
    p.add_argument("out", type=Path, help="the .npz to write")
    args = p.parse_args(argv)
    print(export_checkpoint(args.run_dir, args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
