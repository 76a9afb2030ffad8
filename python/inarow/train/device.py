"""Where the network trains and evaluates: ``TrainConfig.device`` ("cpu", "cuda",
"cuda:N", "mps" or "auto") read into a ``torch.device``, refused clearly when the
machine lacks it. Self-play search stays on the CPU; each network call moves its
batch of observations to the device and the outputs back."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import torch

if TYPE_CHECKING:
    from inarow.train.network import Network

__all__ = [
    "DEVICES",
    "autocast",
    "check_mixed_precision",
    "cpu_has_native_bfloat16",
    "mixed_precision_allowed",
    "resolve_device",
    "torch_evaluator",
]

#: What ``device`` may name.
DEVICES = "'cpu', 'cuda', 'cuda:N', 'mps' or 'auto' (cuda, else mps, else cpu)"


def resolve_device(name: str) -> torch.device:
    """The ``torch.device`` that ``name`` stands for on this machine; ``ValueError``
    naming it and what the machine has when it is not there or not a device."""
    if not isinstance(name, str):
        raise TypeError(f"device must be a str such as 'cuda', got {type(name).__name__}")
    cuda = torch.cuda.is_available()
    mps = _mps_available()
    if name == "auto":
        return torch.device("cuda" if cuda else "mps" if mps else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError as e:
        raise ValueError(f"device {name!r} is not a device: allowed {DEVICES}") from e
    if device.type == "cpu":
        return device
    have = "cpu" + (f", cuda:0..{torch.cuda.device_count() - 1}" if cuda else "")
    have += ", mps" if mps else ""
    if device.type == "cuda" and cuda:
        if device.index is None or device.index < torch.cuda.device_count():
            return device
    elif device.type == "mps" and mps:
        return device
    elif device.type not in ("cuda", "mps"):
        raise ValueError(f"device {name!r} is not supported: allowed {DEVICES}")
    raise ValueError(f"device {name!r} is not on this machine: it has {have}")


def cpu_has_native_bfloat16() -> bool:
    """Whether this CPU computes in bfloat16 natively (AVX512-BF16 or AMX), so that
    torch's bfloat16 convolutions run faster than float32 ones; elsewhere oneDNN
    emulates them, slower than float32."""
    probes = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    return any(bool(getattr(torch.cpu, name, lambda: False)()) for name in probes)


def mixed_precision_allowed(device: torch.device) -> bool:
    """Whether bfloat16 autocast pays on ``device``: a cuda device, or a CPU with
    native bfloat16."""
    return device.type == "cuda" or (device.type == "cpu" and cpu_has_native_bfloat16())


def check_mixed_precision(enabled: bool, device: torch.device) -> None:
    """Mixed precision runs on cuda devices and on CPUs with native bfloat16;
    elsewhere ``ValueError`` says so."""
    if not enabled or mixed_precision_allowed(device):
        return
    if device.type == "cpu":
        raise ValueError(
            "mixed_precision on the cpu needs native bfloat16 (AVX512-BF16 or AMX), "
            "which this CPU lacks (torch would emulate it, slower than float32): pass "
            "--no-mixed-precision or --device cuda"
        )
    raise ValueError(
        f"mixed_precision needs a cuda device or a CPU with native bfloat16, and the "
        f"run trains on {device}: pass --no-mixed-precision or --device cuda"
    )


def autocast(enabled: bool, device: torch.device) -> torch.autocast:
    """bfloat16 autocast on ``device`` when ``enabled`` (a no-op context otherwise)."""
    return torch.autocast(device.type, dtype=torch.bfloat16, enabled=enabled)


def _mps_available() -> bool:
    backend = getattr(torch.backends, "mps", None)
    return bool(backend is not None and backend.is_available())


def torch_evaluator(net: Network, mixed_precision: bool = False):
    """``evaluate(obs, mask) -> (logits, values)`` in inference mode, the contract of
    ``inarow.MCTS`` (and ``net(obs)`` of ``inarow.pretrained.NetworkAgent``); the
    observations go to the network's device and the outputs come back as float32
    numpy (bfloat16 autocast inside with ``mixed_precision``)."""

    def evaluate(obs: np.ndarray, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        net.eval()
        device = next(net.parameters()).device
        with torch.inference_mode(), autocast(mixed_precision, device):
            logits, values = net(torch.from_numpy(obs).to(device, non_blocking=True))
        values = values.float().cpu().numpy()
        logits = logits.float().cpu().numpy()
        return logits, (values[:, 0] if values.shape[1] == 1 else values)

    return evaluate
