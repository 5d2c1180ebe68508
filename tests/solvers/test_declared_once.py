"""What both packages share is declared once in solvers: the solver names, and the faces' lazy exports."""

from __future__ import annotations

import subprocess
import sys

import pytest

import rulemodels
import rulemodels.data
import rulemodels.defaults
import solvers
from solvers import registered_backends
from solvers.lazy import exported_names, lazy_exports


def test_the_solver_names_are_the_solver_layers_own():
    assert rulemodels.defaults.DEFAULT_SOLVER is solvers.DEFAULT_SOLVER
    assert rulemodels.defaults.BUILTIN_SOLVERS is solvers.BUILTIN_SOLVERS
    assert registered_backends() == list(solvers.BUILTIN_SOLVERS)
    assert registered_backends()[0] == solvers.DEFAULT_SOLVER


@pytest.mark.parametrize("face", [rulemodels, rulemodels.data, solvers])
def test_every_face_lists_its_exports_and_refuses_other_names(face):
    assert dir(face) == sorted(face.__all__)
    with pytest.raises(AttributeError, match=rf"^module '{face.__name__}' has no attribute 'no_such_name'$"):
        face.no_such_name  # noqa: B018
    name = face.__all__[0]
    assert getattr(face, name) is vars(face)[name]  # imported on first access, then cached in the face


def test_a_face_imports_nothing_until_a_name_is_used():
    code = ("import sys, rulemodels, solvers, rulemodels.defaults; "
            "print(sorted(m for m in ('typing', 'numpy', 'pyomo', 'solvers.registry') if m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "[]"


def test_lazy_exports_on_a_module_without_all():
    module = type(sys)("lazy_probe")
    sys.modules["lazy_probe"] = module
    try:
        module.__getattr__, module.__dir__ = lazy_exports("lazy_probe", {"DEFAULT_SOLVER": "solvers.defaults"})
        assert dir(module) == ["DEFAULT_SOLVER"]
        assert module.DEFAULT_SOLVER == "highs" and "DEFAULT_SOLVER" in vars(module)
    finally:
        del sys.modules["lazy_probe"]


@pytest.mark.parametrize("line", [
    "from solvers.defaults import DEFAULT_SOLVER",  # not re-exported for strict type checkers
    "from solvers.defaults import DEFAULT_SOLVER as SOLVER",  # a rename: the lazy import could not find it
    "from .defaults import DEFAULT_SOLVER as DEFAULT_SOLVER",
    "import solvers.defaults",
])
def test_a_face_declares_each_export_as_an_explicit_reexport(line):
    with pytest.raises(ValueError, match="is not `from MODULE import NAME as NAME`"):
        exported_names(f"if TYPE_CHECKING:\n    {line}\n")
    with pytest.raises(ValueError, match="no top-level `if TYPE_CHECKING:` block"):
        exported_names(line)
