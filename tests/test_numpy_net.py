"""The network's forward passes, native (``NumpyNet.__call__``) and numpy
(``NumpyNet.forward_numpy``): they agree with each other and with a convolution
written the long way, and keep no state between calls (the numpy one's per-thread
scratch arrays are reused across calls of one shape): every batch gets the answer
each of its rows gets alone, whatever ran before and on whatever thread."""

from __future__ import annotations

import json
import pickle
import threading

import numpy as np
import pytest

from inarow import numpy_net
from inarow.numpy_net import NumpyNet
from inarow.pretrained import _weights_path

SHIPPED = ["connect_four", "tic_tac_toe", "5x5_k4_free", "6x6_k4_free", "15x15_k5_free"]
RULES_C4 = dict(width=7, height=6, k=4, players=2, gravity=True)


def _obs(rng, net, n):
    r = net.rules
    return rng.integers(0, 2, (n, r["players"], r["height"], r["width"])).astype(np.float32)


@pytest.mark.parametrize("game", ["connect_four", "5x5_k4_free"])
@pytest.mark.parametrize("native", [True, False])
def test_a_batch_answers_what_each_row_answers_alone(game, native):
    net = NumpyNet.load(_weights_path(game))
    forward = net if native else net.forward_numpy
    rng = np.random.default_rng(7)
    # Shapes repeat, so scratch arrays are reused; 100 rows go in slices of the batch.
    for n in (8, 3, 8, 1, 8, 100):
        obs = _obs(rng, net, n)
        logits, values = forward(obs)
        for i in range(n):
            row_logits, row_values = forward(obs[i : i + 1])
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
        plain_logits, plain_values = net.forward_numpy(obs)
        np.testing.assert_allclose(logits, plain_logits, rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(values, plain_values, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("native", [True, False])
def test_threads_get_the_answers_of_one_thread(native):
    net = NumpyNet.load(_weights_path("connect_four"))
    forward = net if native else net.forward_numpy
    rng = np.random.default_rng(8)
    batches = [_obs(rng, net, 8) for _ in range(8)]
    expected = [forward(b) for b in batches]
    got: dict[int, list] = {}

    def work(t):
        got[t] = [forward(b) for _ in range(20) for b in batches][-len(batches) :]

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for answers in got.values():
        for (logits, values), (e_logits, e_values) in zip(answers, expected):
            np.testing.assert_array_equal(logits, e_logits)
            np.testing.assert_array_equal(values, e_values)


@pytest.mark.parametrize("native", [True, False])
def test_an_empty_batch_gets_empty_answers(native):
    net = NumpyNet.load(_weights_path("connect_four"))
    forward = net if native else net.forward_numpy
    logits, values = forward(np.zeros((0, 2, 6, 7), np.float32))
    assert logits.shape == (0, 7) and values.shape == (0,)
    assert logits.dtype == values.dtype == np.float32


@pytest.mark.parametrize("game", SHIPPED)
def test_native_and_numpy_agree_on_every_shipped_network(game):
    net = NumpyNet.load(_weights_path(game))
    rng = np.random.default_rng(21)
    obs = _obs(rng, net, 6)
    logits, values = net(obs)
    want_logits, want_values = net.forward_numpy(obs)
    assert logits.shape == want_logits.shape and values.shape == want_values.shape
    assert logits.dtype == values.dtype == np.float32
    np.testing.assert_allclose(logits, want_logits, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(values, want_values, rtol=1e-4, atol=1e-4)
    assert np.abs(logits).max() > 1e-2


def _random_export(rng, rules, channels, blocks, hidden=16):
    """The arrays of an export (torch's layouts) with random weights."""
    h, w, p = rules["height"], rules["width"], rules["players"]
    actions = w if rules["gravity"] else h * w
    shapes = {"stem.w": (channels, p, 3, 3), "stem.b": (channels,)}
    for i in range(blocks):
        for part in "ab":
            shapes[f"block{i}.{part}.w"] = (channels, channels, 3, 3)
            shapes[f"block{i}.{part}.b"] = (channels,)
    shapes.update({
        "policy.conv.w": (2, channels, 1, 1), "policy.conv.b": (2,),
        "policy.fc.w": (actions, 2 * h * w), "policy.fc.b": (actions,),
        "value.conv.w": (1, channels, 1, 1), "value.conv.b": (1,),
        "value.fc1.w": (hidden, h * w), "value.fc1.b": (hidden,),
        "value.fc2.w": (1 if p == 2 else p, hidden), "value.fc2.b": (1 if p == 2 else p,),
    })  # fmt: skip
    # Scaled by fan-in, as trained weights are, so activations stay near 1.
    arrays = {
        k: (rng.standard_normal(s) / np.sqrt(np.prod(s[1:]) if k.endswith(".w") else 10)).astype(
            np.float32
        )
        for k, s in shapes.items()
    }
    meta = {"format": numpy_net.FORMAT, "rules": rules, "channels": channels, "blocks": blocks}
    arrays["meta"] = np.array(json.dumps(meta))
    return arrays


@pytest.mark.parametrize(
    ("rules", "channels"),
    [
        (dict(width=8, height=8, k=5, players=3, gravity=False), 12),
        (dict(width=5, height=4, k=3, players=2, gravity=True), 20),
        (dict(width=9, height=9, k=5, players=4, gravity=False), 40),
    ],
)
def test_native_and_numpy_agree_off_the_shipped_shapes(rules, channels):
    # More than two players (a value each), channels off the 8-lane registers.
    rng = np.random.default_rng(22)
    net = NumpyNet(_random_export(rng, rules, channels, blocks=2))
    obs = _obs(rng, net, 5)
    logits, values = net(obs)
    want_logits, want_values = net.forward_numpy(obs)
    players = rules["players"]
    assert values.shape == ((5,) if players == 2 else (5, players))
    np.testing.assert_allclose(logits, want_logits, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(values, want_values, rtol=1e-4, atol=1e-4)


def test_bad_observations_are_value_errors():
    net = NumpyNet.load(_weights_path("connect_four"))
    with pytest.raises(ValueError, match=r"obs of shape \(3, 2, 7, 6\): allowed \(B, 2, 6, 7\)"):
        net(np.zeros((3, 2, 7, 6), np.float32))
    with pytest.raises(ValueError, match="allowed \\(B, planes, height, width\\)"):
        net(np.zeros((2, 6, 7), np.float32))
    # Other dtypes and layouts are converted: a transposed view, float64, ints.
    obs = _obs(np.random.default_rng(3), net, 4)
    want = net(obs)
    for same in (np.asfortranarray(obs), obs.astype(np.float64), obs.astype(np.int8)):
        np.testing.assert_array_equal(net(same)[0], want[0])


def test_a_pickled_network_answers_the_same():
    net = NumpyNet.load(_weights_path("connect_four"))
    copy = pickle.loads(pickle.dumps(net))
    obs = _obs(np.random.default_rng(4), net, 3)
    for a, b in zip(net(obs), copy(obs)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    ("rules", "cache"),
    [
        (RULES_C4, 0),
        (RULES_C4, 50_000),
        (dict(width=6, height=6, k=4, players=3, gravity=False), 7),
    ],
)
def test_a_search_calling_the_native_network_from_rust_is_the_python_search(rules, cache):
    """``MCTS.run(boards, net.native)`` evaluates each leaf from Rust (through the
    native cache, however small): the same tree as the search calling the network
    from Python, leaf for leaf."""
    import inarow

    rng = np.random.default_rng(31)
    net = NumpyNet(_random_export(rng, rules, 16, blocks=1))
    boards = []
    for _ in range(4):
        b = inarow.Board(rules=inarow.Rules(**rules))
        for _ in range(int(rng.integers(0, 6))):
            b.move(int(rng.choice(b.legal_moves())))
        boards.append(b)
    settings = dict(num_simulations=48, root="puct", dirichlet_fraction=0.0, reuse_tree=False)
    native = net.native
    native.cache = cache
    for _ in range(2):  # the second round meets the first's positions in the cache
        by_rust = inarow.MCTS(rules, **settings).run(boards, native)
        by_python = inarow.MCTS(rules, **settings).run(boards, lambda obs, mask: net(obs))
        np.testing.assert_array_equal(by_rust.visit_counts, by_python.visit_counts)
        np.testing.assert_array_equal(by_rust.actions, by_python.actions)
        np.testing.assert_array_equal(by_rust.values, by_python.values)
        assert native.cached == min(cache, native.cached) and (native.cached > 0) == (cache > 0)
    native.clear_cache()
    assert native.cached == 0


def test_a_native_network_of_other_rules_or_bad_cache_is_refused():
    import inarow

    net = NumpyNet(_random_export(np.random.default_rng(3), RULES_C4, 8, blocks=1))
    search = inarow.MCTS(inarow.Rules.tic_tac_toe(), num_simulations=8)
    with pytest.raises(ValueError, match="these rules need 2 planes of 3x3, 9 logits"):
        search.run([inarow.Board.tic_tac_toe()], net.native)
    with pytest.raises(ValueError, match="rollouts= applies only"):
        inarow.MCTS(RULES_C4, num_simulations=8).run(
            [inarow.Board.connect_four()], net.native, rollouts=3
        )
    for bad in (-1, 2**32 + 1, 1.5, True, "10"):
        with pytest.raises(ValueError, match="cache="):
            net.native.cache = bad
    assert net.native.cache == 0


def test_a_native_network_with_nan_outputs_is_an_error_and_the_search_goes_on():
    import inarow

    rng = np.random.default_rng(4)
    arrays = _random_export(rng, RULES_C4, 8, blocks=1)
    good = NumpyNet(arrays)
    arrays["value.fc2.b"] = np.full_like(arrays["value.fc2.b"], np.nan)
    bad = NumpyNet(arrays)
    search = inarow.MCTS(RULES_C4, num_simulations=16, dirichlet_fraction=0.0)
    boards = [inarow.Board.connect_four()]
    with pytest.raises(ValueError, match="NaN or infinite"):
        search.run(boards, bad.native)
    again = search.run(boards, good.native)
    fresh = inarow.MCTS(RULES_C4, num_simulations=16, dirichlet_fraction=0.0).run(
        boards, good.native
    )
    np.testing.assert_array_equal(again.visit_counts, fresh.visit_counts)
