"""A non-editable install puts one top-level package, ``clinrag``, into site-packages, with its data files.

Offline and without dependencies: the project's own pip builds a wheel from a copy of the working tree (so no
build/ or *.egg-info is left in the repo) and installs it into a fresh ``--without-pip`` venv via ``pip --python``.

Why two steps: ``pip --python VENV install --no-build-isolation SRC`` runs the build backend with the target
interpreter, and a fresh venv has no setuptools ("Cannot import build backend 'setuptools.build_meta'"). Building the
wheel with the project interpreter and installing the wheel (which needs no backend) avoids that, still offline.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO_ROOT = Path(__file__).resolve().parents[1]

# Not part of the source tree: environments, VCS data, build outputs, caches, dev-server state, run outputs.
COPY_IGNORE = shutil.ignore_patterns(
    ".venv", ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".langgraph_api", "results"
)

EXPECTED_FILES = [
    "clinrag/graph/builder.py",
    "clinrag/nodes/answer.py",
    "clinrag/tools/index/store.py",
    "clinrag/cli/main.py",
    "clinrag/tools/retrieval/hybrid.py",
    "clinrag/prompts/answer.py",
    "clinrag/evals/guideline_drift.py",
    "clinrag/corpus/guidelines.jsonl",
    "clinrag/corpus/guidelines.scope.yaml",
    "clinrag/evals/data/guideline_drift.jsonl",
    "clinrag/tools/nli/weights/feature_mlp.npz",  # the trained NLI models ship inside the package
    "clinrag/tools/nli/weights/cross_encoder_top.safetensors",
    "clinrag/tools/nli/weights/MODEL_CARD.md",
]

PIP_ENV = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1", "PIP_NO_INDEX": "1"}


def _run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kwargs)
    assert result.returncode == 0, f"{cmd} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """Install clinrag (non-editable, no deps, offline) into a fresh venv; return that venv's site-packages."""
    tmp = tmp_path_factory.mktemp("packaging")
    src = tmp / "src"
    shutil.copytree(REPO_ROOT, src, ignore=COPY_IGNORE, symlinks=True)

    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    venv_python = venv / "bin" / "python"
    site = Path(
        _run([str(venv_python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip()
    )
    before = set(os.listdir(site))

    env = {**os.environ, **PIP_ENV}
    wheelhouse = tmp / "wheelhouse"
    _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--wheel-dir", str(wheelhouse), str(src)],
        env=env, cwd=tmp,
    )  # fmt: skip
    wheels = sorted(wheelhouse.glob("clinrag-*.whl"))
    assert len(wheels) == 1, wheels
    _run(
        [sys.executable, "-m", "pip", "--python", str(venv_python), "install", "--no-deps", "--no-index",
         str(wheels[0])],
        env=env, cwd=tmp,
    )  # fmt: skip

    new = set(os.listdir(site)) - before
    assert "clinrag" in new, sorted(new)
    dist_infos = [n for n in new if re.fullmatch(r"clinrag-[^/]+\.dist-info", n)]
    assert len(dist_infos) == 1, sorted(new)
    assert new == {"clinrag", dist_infos[0]}, f"unexpected top-level entries in site-packages: {sorted(new)}"
    return site


def test_only_clinrag_is_installed_with_its_modules_and_data(installed):
    missing = [rel for rel in EXPECTED_FILES if not (installed / rel).is_file()]
    assert not missing, f"missing from the installed package: {missing}"


def test_installed_package_imports_from_site_packages(installed, tmp_path):
    # The project interpreter has the deps; PYTHONPATH puts the installed copy ahead of the editable install,
    # and cwd=tmp_path keeps the repo's own clinrag/ folder off sys.path.
    code = (
        "import json, clinrag.evals.guideline_drift as m, clinrag.paths as p; "
        "print(json.dumps({'module': m.__file__, 'cases': str(m.default_cases_path()), "
        "'corpus': str(p.BUILTIN_CORPUS), 'scope': str(p.scope_path_for(p.BUILTIN_CORPUS))}))"
    )
    env = {**os.environ, "PYTHONPATH": str(installed)}
    out = _run([sys.executable, "-c", code], env=env, cwd=tmp_path).stdout.strip().splitlines()[-1]
    paths = {key: Path(value) for key, value in json.loads(out).items()}

    site = installed.resolve()
    for key, path in paths.items():
        assert path.resolve().is_relative_to(site), f"{key} resolved outside the new venv: {path}"
        assert path.is_file(), f"{key} does not exist: {path}"
