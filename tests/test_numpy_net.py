"""The numpy forward pass keeps no state between calls: its per-thread scratch arrays
(reused across calls of one shape) give every batch the answer each of its rows
gets alone, whatever ran before and on whatever thread."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from inarow import numpy_net
from inarow.numpy_net import NumpyNet
from inarow.pretrained import _weights_path


def _obs(rng, net, n):
    r = net.rules
    return rng.integers(0, 2, (n, r["players"], r["height"], r["width"])).astype(np.float32)


@pytest.mark.parametrize("game", ["connect_four", "5x5_k4_free"])
def test_a_batch_answers_what_each_row_answers_alone(game):
    net = NumpyNet.load(_weights_path(game))
    rng = np.random.default_rng(7)
    # Shapes repeat, so scratch arrays are reused; 100 rows go in slices of the batch.
    for n in (8, 3, 8, 1, 8, 100):
        obs = _obs(rng, net, n)
        logits, values = net(obs)
        for i in range(n):
            row_logits, row_values = net(obs[i : i + 1])
            np.testing.assert_allclose(logits[i], row_logits[0], rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(values[i], row_values[0], rtol=1e-5, atol=1e-5)
        assert np.abs(logits).max() > 1e-3  # not a comparison of zeros


def _plain_conv(x, w, b, kernel):
    """A convolution written the long way: zero padding, then a sum over the window."""
    bsz, h, wd, c = x.shape
    pad = kernel // 2
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    weights = w.reshape(kernel, kernel, c, -1)
    out = np.zeros((bsz, h, wd, weights.shape[-1]), np.float64)
    for dy in range(kernel):
        for dx in range(kernel):
            out += xp[:, dy : dy + h, dx : dx + wd, :].astype(np.float64) @ weights[dy, dx]
    return (out + b).astype(np.float32)


def test_the_forward_pass_matches_a_plain_convolution(monkeypatch):
    net = NumpyNet.load(_weights_path("connect_four"))
    rng = np.random.default_rng(9)
    batches = [_obs(rng, net, n) for n in (5, 5, 2)]
    got = [net(b) for b in batches]
    monkeypatch.setattr(numpy_net, "_conv", _plain_conv)
    for obs, (logits, values) in zip(batches, got):
        plain_logits, plain_values = net(obs)
        np.testing.assert_allclose(logits, plain_logits, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(values, plain_values, rtol=1e-4, atol=1e-4)


def test_threads_get_the_answers_of_one_thread():
    net = NumpyNet.load(_weights_path("connect_four"))
    rng = np.random.default_rng(8)
    batches = [_obs(rng, net, 8) for _ in range(8)]
    expected = [net(b) for b in batches]
    got: dict[int, list] = {}

    def work(t):
        got[t] = [net(b) for _ in range(20) for b in batches][-len(batches) :]

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for answers in got.values():
        for (logits, values), (e_logits, e_values) in zip(answers, expected):
            np.testing.assert_array_equal(logits, e_logits)
            np.testing.assert_array_equal(values, e_values)


def test_an_empty_batch_gets_empty_answers():
    net = NumpyNet.load(_weights_path("connect_four"))
    logits, values = net(np.zeros((0, 2, 6, 7), np.float32))
    assert logits.shape == (0, 7) and values.shape == (0,)
    assert logits.dtype == values.dtype == np.float32
