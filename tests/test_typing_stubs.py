"""The core's typed stubs (``.pyi`` beside each compiled module, ``py.typed``): a script using
the public API type-checks against them (mypy --strict), and they match the compiled modules
(mypy's stubtest: every public name, every parameter).  Skipped without mypy."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import duelcore

pytest.importorskip("mypy")

SRC = Path(duelcore.__file__).resolve().parents[1]      # the tree duelcore is imported from
SCRIPT = Path(__file__).parent / "typecheck" / "use_public_api.py"
COMPILED = ["duelcore.common.stop", "duelcore.duel.engine", "duelcore.duel.search",
            "duelcore.duel.kernels", "duelcore.seven.engine", "duelcore.architects.engine"]


def _run(args):
    env = dict(os.environ, MYPYPATH=str(SRC), PYTHONPATH=str(SRC))
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True,
                          env=env, cwd=SRC.parent, timeout=600)


def test_every_compiled_module_has_its_stub():
    assert (SRC / "duelcore" / "py.typed").exists()
    for name in COMPILED + ["duelcore.engine", "duelcore.search", "duelcore.kernels",
                            "duelcore.data", "duelcore.seven_data"]:
        assert (SRC / (name.replace(".", "/") + ".pyi")).exists(), name


def test_a_script_using_the_public_api_type_checks():
    r = _run(["mypy", "--no-incremental", "--strict", "--follow-imports=silent", str(SCRIPT)])
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_stubs_match_the_compiled_modules():
    r = _run(["mypy.stubtest", "--ignore-missing-stub", *COMPILED])
    assert r.returncode == 0, r.stdout + r.stderr
