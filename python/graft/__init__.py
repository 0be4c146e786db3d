"""graft: a Relax-like graph IR compiler (docs/python.md).

    import graft
    from graft.script import ir as I, relax as R

    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4,), dtype="float32")):
            ...

    mod = graft.transform.Sequential([graft.transform.DeadCodeElimination()])(Module)
    exe = graft.build(mod)
    out = graft.VirtualMachine(exe)["main"](numpy.ones(4, "float32"))
"""

import os as _os
import sys as _sys

# RTLD_GLOBAL: pass plugins (load_pass_plugin) bind to _core's symbols.
_flags = _sys.getdlopenflags()
_sys.setdlopenflags(_flags | _os.RTLD_GLOBAL)
try:
    from . import _core
finally:
    _sys.setdlopenflags(_flags)
from ._core import GraftError, Module, Executable  # noqa: E402

__all__ = [
    "GraftError", "Module", "Executable", "VirtualMachine", "parse", "parse_file",
    "parse_modules", "assert_structural_equal", "structural_equal", "structural_hash",
    "verify", "well_formed", "build", "load_executable", "load_pass_plugin", "transform",
    "script", "testing",
]


def parse_modules(text, name="<string>"):
    """Every module of a TVMScript text, by class name (in order)."""
    return {m.name: m for m in _core.parse_modules(text, name)}


def parse(text, module=None, name="<string>"):
    """The module of a TVMScript text: `module` names one when it holds several."""
    modules = _core.parse_modules(text, name)
    if module is not None:
        for m in modules:
            if m.name == module:
                return m
        raise GraftError(f"{name} holds no module {module} "
                         f"(modules: {', '.join(m.name for m in modules)})")
    if len(modules) != 1:
        raise GraftError(f"{name} holds modules {', '.join(m.name for m in modules)}: "
                         "pick one with module=")
    return modules[0]


def parse_file(path, module=None):
    """The module of a TVMScript file (see parse)."""
    with open(path, encoding="utf-8") as f:
        return parse(f.read(), module, str(path))


def structural_equal(a, b):
    """Whether two modules are equal as TVM's StructuralEqual defines it."""
    return _core.structural_equal(a, b)


def structural_hash(mod):
    """A hash consistent with structural_equal."""
    return mod.structural_hash()


def assert_structural_equal(a, b):
    """Raises ValueError (as tvm.ir.assert_structural_equal does) with the
    first mismatch's access path and both sides when the modules differ."""
    report = _core.mismatch(a, b)
    if report:
        raise ValueError("StructuralEqual check failed:\n" + report)


def well_formed(mod):
    """Whether the verifier accepts the module."""
    return not _core.violations(mod)


def verify(mod):
    """Raises GraftError listing every violation when the module is ill-formed."""
    found = _core.violations(mod)
    if found:
        raise GraftError("\n".join(found))


def build(mod, target="cpu", config=None):
    """Runs the target's build pipeline and generates VM code: an Executable."""
    return _core.build(mod, target, transform._config_lines(config))


def load_executable(path):
    """An executable saved by Executable.save or `graft build`."""
    return _core.load_executable(str(path))


def load_pass_plugin(path):
    """Loads a pass plugin (docs/packaging.md); returns the passes it added,
    which graft.transform then offers by name."""
    passes = _core.load_pass_plugin(str(path))
    transform._define_passes()
    return passes


class VirtualMachine:
    """Runs an Executable on the CPU: vm["main"](*args). numpy arrays go in
    and come out through DLPack; ints, floats, bools and tuples map to the
    VM's values."""

    def __init__(self, exe, device="cpu"):
        if device != "cpu":
            raise GraftError(f"the Python module runs on the cpu only, not '{device}'")
        self._vm = _core.VirtualMachine(exe)

    def __getitem__(self, name):
        return lambda *args: _to_numpy(self._vm.call(name, *(_prepare(a) for a in args)))


def _prepare(arg):
    import numpy as np
    if isinstance(arg, np.ndarray):
        return np.ascontiguousarray(arg)
    if isinstance(arg, (list, tuple)):
        return tuple(_prepare(a) for a in arg)
    return arg


def _to_numpy(value):
    import numpy as np
    if isinstance(value, _core.Tensor):
        return np.from_dlpack(value)
    if isinstance(value, tuple):
        return tuple(_to_numpy(v) for v in value)
    return value


from . import transform, script, testing  # noqa: E402
