"""The trained network's forward pass, without a deep-learning framework.

Reads the ``.npz`` files written by ``inarow.train.export`` (batch norm already
folded into the convolutions). ``NumpyNet(obs)`` runs the native forward pass
(``inarow._native.ConvNet``: AVX2 and FMA where the CPU has them, without the
interpreter's lock); ``NumpyNet.forward_numpy`` is the same network in numpy alone,
its independent reference. There activations stay channel-last ``(B, H, W, C)``, so
a 3x3 convolution is one gather of every window and one matrix product.
"""

from __future__ import annotations

import functools
import json
import math
import threading
from pathlib import Path
from typing import Any

import numpy as np

from inarow._native import ConvNet

__all__ = ["FORMAT", "NumpyNet"]

#: The export format this module reads.
FORMAT = "inarow-net-1"


@functools.lru_cache(maxsize=64)
def _patch_index(height: int, width: int, kernel: int) -> np.ndarray:
    """Flat indices into the padded ``(height + k - 1) * (width + k - 1)`` grid of every
    cell's ``kernel x kernel`` window, cell-major then row, column of the window."""
    padded_width = width + kernel - 1
    rows = np.arange(height)[:, None, None, None] + np.arange(kernel)[None, None, :, None]
    cols = np.arange(width)[None, :, None, None] + np.arange(kernel)[None, None, None, :]
    return (rows * padded_width + cols).reshape(-1)


_scratch_arrays = threading.local()


#: Scratch arrays a thread keeps, in bytes at most (larger ones are made per call).
_SCRATCH_BYTES = 32 << 20
#: The windows of one slice of a batch, in bytes at most (beyond one position's).
_WINDOW_BYTES = 2 << 20


def _scratch(name: str, shape: tuple[int, ...]) -> np.ndarray:
    """A zeroed-once float32 array of this thread, reused by every call with its shape.
    A fresh array of a few hundred KB per call costs more than the product it feeds:
    the allocator maps and faults in its pages again each time (3x at batch 8)."""
    key = (name, shape)
    arrays = getattr(_scratch_arrays, "by_shape", None)
    if arrays is None:
        arrays = _scratch_arrays.by_shape = {}
    array = arrays.get(key)
    if array is not None:  # the common case first: a search calls with one shape
        return array
    nbytes = 4 * math.prod(shape)
    if nbytes > _SCRATCH_BYTES // 4:
        return np.zeros(shape, np.float32)
    if sum(a.nbytes for a in arrays.values()) + nbytes > _SCRATCH_BYTES:
        arrays.clear()  # many batch sizes: start over rather than grow
    array = arrays[key] = np.zeros(shape, np.float32)
    return array


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray, kernel: int) -> np.ndarray:
    """x (B, H, W, C) -> (B, H, W, O); ``w`` is (kernel * kernel * C, O), ``b`` (O,)."""
    if kernel == 1:
        return x @ w + b
    bsz, h, wd, c = x.shape
    # A slice of the batch at a time keeps the windows' array small enough to reuse.
    step = max(1, _WINDOW_BYTES // (4 * h * wd * kernel * kernel * c))
    if bsz <= step:
        return _conv_slice(x, w, b, kernel)
    return np.concatenate([_conv_slice(x[i : i + step], w, b, kernel) for i in range(0, bsz, step)])


def _conv_slice(x: np.ndarray, w: np.ndarray, b: np.ndarray, kernel: int) -> np.ndarray:
    bsz, h, wd, c = x.shape
    pad = kernel // 2
    # Only the interior is ever written: the border stays zero across calls.
    xp = _scratch("padded", (bsz, h + 2 * pad, wd + 2 * pad, c))
    xp[:, pad : pad + h, pad : pad + wd] = x
    # One gather builds every window (rows of kernel * kernel * C, the weights' order).
    index = _patch_index(h, wd, kernel)
    patches = _scratch("patches", (bsz, index.size, c))
    xp.reshape(bsz, xp.shape[1] * xp.shape[2], c).take(index, axis=1, out=patches)
    out = patches.reshape(bsz * h * wd, w.shape[0]) @ w
    out += b
    return out.reshape(bsz, h, wd, w.shape[1])


def _flatten(x: np.ndarray) -> np.ndarray:
    """(B, H, W, C) -> (B, C * H * W), channel-major as torch's flatten of (B, C, H, W)
    (sizes spelled out: an empty batch has no -1 to infer)."""
    b, h, w, c = x.shape
    return x.transpose(0, 3, 1, 2).reshape(b, c * h * w)


class NumpyNet:
    """``net(obs) -> (logits, values)`` for ``obs`` of shape ``(B, players, H, W)``;
    ``values`` is ``(B,)`` for 2 players and ``(B, players)`` for more, as
    ``inarow.MCTS`` expects."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        meta = json.loads(str(arrays["meta"]))
        if meta.get("format") != FORMAT:
            raise ValueError(f"not an inarow network export: format {meta.get('format')!r}")
        self.meta: dict[str, Any] = meta
        self.rules: dict[str, Any] = meta["rules"]
        self.blocks: int = meta["blocks"]
        self.channels: int = meta["channels"]

        def conv(name: str) -> tuple[np.ndarray, np.ndarray, int]:
            w = arrays[f"{name}.w"].astype(np.float32)  # (O, C, k, k)
            k = w.shape[2]
            return (
                np.ascontiguousarray(w.transpose(2, 3, 1, 0).reshape(-1, w.shape[0])),
                arrays[f"{name}.b"].astype(np.float32),
                k,
            )

        def linear(name: str) -> tuple[np.ndarray, np.ndarray]:
            return (
                np.ascontiguousarray(arrays[f"{name}.w"].astype(np.float32).T),
                arrays[f"{name}.b"].astype(np.float32),
            )

        self._stem = conv("stem")
        self._blocks = [(conv(f"block{i}.a"), conv(f"block{i}.b")) for i in range(self.blocks)]
        self._policy_conv = conv("policy.conv")
        self._policy_fc = linear("policy.fc")
        self._value_conv = conv("value.conv")
        self._value_fc1 = linear("value.fc1")
        self._value_fc2 = linear("value.fc2")
        self._native = self._build_native()

    def _build_native(self) -> ConvNet:
        def conv(layer: tuple[np.ndarray, np.ndarray, int]) -> tuple[np.ndarray, np.ndarray]:
            w, b, k = layer
            return w.reshape(k, k, w.shape[0] // (k * k), w.shape[1]), b

        return ConvNet(
            self._stem[0].shape[0] // (self._stem[2] ** 2),
            int(self.rules["height"]),
            int(self.rules["width"]),
            conv(self._stem),
            [(conv(a), conv(b)) for a, b in self._blocks],
            conv(self._policy_conv),
            self._policy_fc,
            conv(self._value_conv),
            self._value_fc1,
            self._value_fc2,
        )

    def __getstate__(self) -> dict[str, Any]:
        # The native network is rebuilt from the arrays on unpickling.
        state = self.__dict__.copy()
        del state["_native"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._native = self._build_native()

    @classmethod
    def load(cls, path: str | Path) -> NumpyNet:
        with np.load(path, allow_pickle=False) as data:
            return cls({name: data[name] for name in data.files})

    @property
    def native(self) -> ConvNet:
        """The native forward pass this network runs: given to ``inarow.MCTS.run`` as
        the evaluator, the search calls it from Rust (its ``cache`` keeps outputs by
        position; docs/mcts.md)."""
        return self._native

    def __call__(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        obs = np.ascontiguousarray(obs, dtype=np.float32)
        if obs.ndim != 4:
            raise ValueError(f"obs of shape {obs.shape}: allowed (B, planes, height, width)")
        return self._native(obs)  # type: ignore[no-any-return]

    def forward_numpy(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The forward pass in numpy alone: the reference the native one is tested
        against (the same outputs to float32 rounding)."""
        # Every _conv returns a fresh array, so the activations work in place.
        x = np.asarray(obs, dtype=np.float32).transpose(0, 2, 3, 1)
        x = _conv(x, *self._stem)
        np.maximum(x, 0, out=x)
        for a, b in self._blocks:
            y = _conv(x, *a)
            np.maximum(y, 0, out=y)
            y = _conv(y, *b)
            y += x
            x = np.maximum(y, 0, out=y)
        p = _flatten(np.maximum(_conv(x, *self._policy_conv), 0))
        logits = p @ self._policy_fc[0] + self._policy_fc[1]
        v = _flatten(np.maximum(_conv(x, *self._value_conv), 0))
        v = np.maximum(v @ self._value_fc1[0] + self._value_fc1[1], 0)
        values = np.tanh(v @ self._value_fc2[0] + self._value_fc2[1])
        if values.shape[1] == 1:
            values = values[:, 0]
        return logits.astype(np.float32), values.astype(np.float32)
