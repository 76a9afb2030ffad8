"""Every ```python block of docs/ runs, as a reader would paste it (README.md's run in
test_readme.py). Blocks that import an optional ecosystem (Stable-Baselines3, TorchRL,
kaggle-environments, ...) are marked ``ecosystem``: they skip here and run in CI's
second environment, in a fast mode (every ``learn`` capped at a few hundred steps
on rollouts of 16 steps, one torch thread) so that minutes of training take seconds. Blocks are read with
mktestdocs."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from mktestdocs import grab_code_blocks

DOCS = Path(__file__).resolve().parents[1] / "docs"

#: Modules outside the [test] extra: a block importing one is an ecosystem block.
OPTIONAL = {
    "stable_baselines3",
    "sb3_contrib",
    "torchrl",
    "torch",
    "kaggle_environments",
    "ray",
    "pyspiel",
    "open_spiel",
}
IMPORT = re.compile(r"^\s*(?:from|import)\s+([A-Za-z_][\w]*)", re.MULTILINE)


def blocks():
    for path in sorted(DOCS.rglob("*.md")):
        for i, code in enumerate(grab_code_blocks(path.read_text(), lang="python")):
            optional = sorted(set(IMPORT.findall(code)) & OPTIONAL)
            marks = [pytest.mark.ecosystem] if optional else []
            yield pytest.param(code, optional, id=f"{path.relative_to(DOCS)}-{i}", marks=marks)


@contextlib.contextmanager
def fast_mode(optional):
    """Training calls capped at a few hundred steps, torch on one thread."""
    if "stable_baselines3" not in optional and "sb3_contrib" not in optional:
        yield
        return
    import torch
    from stable_baselines3 import PPO

    classes = [PPO]
    with contextlib.suppress(ImportError):
        from sb3_contrib import MaskablePPO

        classes.append(MaskablePPO)
    saved = {cls: (cls.__init__, cls.learn) for cls in classes}

    def patched(cls):
        init, learn = saved[cls]

        def small_init(self, *args, **kwargs):
            kwargs.update(n_steps=16, batch_size=16)
            init(self, *args, **kwargs)

        def short_learn(self, total_timesteps, *args, **kwargs):
            return learn(self, min(total_timesteps, 256), *args, **kwargs)

        return small_init, short_learn

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    for cls in classes:
        cls.__init__, cls.learn = patched(cls)
    try:
        yield
    finally:
        for cls, (init, learn) in saved.items():
            cls.__init__, cls.learn = init, learn
        torch.set_num_threads(threads)


@pytest.mark.parametrize("code, optional", list(blocks()))
def test_doc_block_runs(code, optional):
    for module in optional:
        pytest.importorskip(module, reason=f"{module} is not installed (the ecosystems extra)")
    with fast_mode(optional), contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "<doc block>", "exec"), {"__name__": "__main__"})
