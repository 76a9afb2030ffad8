"""A missing optional dependency names its extra and a command that works as pasted
(the requirements themselves, CPU-only PyTorch first on Linux), whatever way inarow
was installed; the version is the package's one version."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import inarow
from inarow import _extras

ROOT = Path(__file__).resolve().parents[1]


def hide(monkeypatch, *modules):
    """Makes ``import MODULE`` fail for each module (and its submodules), and forgets
    the inarow modules that imported them."""
    for name in list(sys.modules):
        if name in modules or name.split(".")[0] in modules:
            monkeypatch.setitem(sys.modules, name, None)
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


@pytest.mark.parametrize(
    "module, hidden, extra",
    [
        ("inarow.gymnasium", "gymnasium", "gymnasium"),
        ("inarow.pettingzoo", "pettingzoo", "pettingzoo"),
        ("inarow.rllib", "ray", "ray"),
        ("inarow.sb3", "stable_baselines3", "sb3"),
    ],
)
def test_an_adapter_without_its_ecosystem_names_the_extra(monkeypatch, module, hidden, extra):
    monkeypatch.delitem(sys.modules, module, raising=False)
    hide(monkeypatch, hidden)
    with pytest.raises(ModuleNotFoundError) as info:
        importlib.import_module(module)
    e = info.value
    assert isinstance(e, inarow.MissingExtraError) and isinstance(e, ImportError)
    assert e.extra == extra and e.command in str(e) and module in str(e)
    assert "pip install" in e.command and "inarow[" not in str(e)
    monkeypatch.delitem(sys.modules, module, raising=False)


def test_progress_without_tqdm_names_the_extra(monkeypatch):
    hide(monkeypatch, "tqdm")
    with pytest.raises(inarow.MissingExtraError, match=r"'progress' extra.*pip install 'tqdm>=4'"):
        inarow.evaluate.match("random", "random", games=2, rules="tic_tac_toe", progress=True)


def test_training_without_torch_names_the_extra(monkeypatch, tmp_path):
    for name in [
        n for n in sys.modules if n.startswith("inarow.train.") and n != "inarow.train.config"
    ]:
        monkeypatch.delitem(sys.modules, name)
    hide(monkeypatch, "torch")
    import inarow.train

    with pytest.raises(inarow.MissingExtraError) as info:
        inarow.train.train(None, tmp_path, minutes=0.01)
    assert info.value.extra == "train" and "torch" in info.value.command


def test_the_command_installs_the_requirements_as_the_metadata_declares_them(monkeypatch):
    gymnasium = _extras.install_command("gymnasium")
    assert re.fullmatch(r"pip install 'gymnasium(>=1\.0,<2|<2,>=1\.0)'", gymnasium), gymnasium
    monkeypatch.setattr(sys, "platform", "linux")
    command = _extras.install_command("train")
    first, second = command.split(" && ")
    assert first == f"pip install 'torch>=2' --index-url {_extras.TORCH_CPU_INDEX}"
    assert second.startswith("pip install ") and "tqdm" in second and "matplotlib" in second
    monkeypatch.setattr(sys, "platform", "darwin")
    assert "--index-url" not in _extras.install_command("train")


def test_without_metadata_the_command_is_the_clones(monkeypatch):
    monkeypatch.setattr(_extras, "requirements", lambda extra: [])
    assert _extras.install_command("plot") == "pip install '.[plot]'"


def test_no_hint_in_the_package_names_an_index_that_does_not_serve_it():
    package = ROOT / "python" / "inarow"
    for path in package.rglob("*.py"):
        text = path.read_text()
        for line in text.splitlines():
            if "pip install 'inarow[" in line and path.name != "_extras.py":
                pytest.fail(f"{path.relative_to(ROOT)}: {line.strip()}")


def test_one_version():
    cargo = (ROOT / "Cargo.toml").read_text()
    version = re.search(r'^version = "([^"]+)"', cargo, flags=re.M).group(1)
    assert inarow.__version__ == version
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text()
    out = subprocess.run(
        [sys.executable, "-m", "inarow", "--version"], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == f"inarow {version}"
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## {version}" in changelog or "## Unreleased" in changelog
