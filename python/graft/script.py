"""TVMScript written in Python, as TVM users write it:

    from graft.script import ir as I, relax as R, tir as T

    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
            ...

`Before` is then a graft.Module. The decorator reads the class's source text
(inspect.getsource) and graft's parser parses it; Python only runs the class
body, where every R./T./I. name is a stand-in that accepts anything. So the
source must live in a file (not typed at the prompt), as TVM requires too.
A function decorated with @R.function outside a class becomes a module
holding that one function.
"""

import inspect
import textwrap

from . import _core


class _Anything:
    """What R.Tensor(...), T.int64, R.function(pure=False) ... evaluate to
    while Python runs a class body: the text is what counts."""

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]):
            return args[0]  # A bare decorator: keep the function.
        return self

    def __getattr__(self, name):
        return self

    def __getitem__(self, key):
        return self


def _parse_source(obj):
    try:
        source = textwrap.dedent(inspect.getsource(obj))
    except (OSError, TypeError) as err:
        raise _core.GraftError(f"cannot read the source of {obj.__name__}: {err} "
                               "(TVMScript must be defined in a file)") from None
    path = inspect.getsourcefile(obj) or "<script>"
    modules = _core.parse_modules(source, path)
    return modules[0]


class _IrNamespace(_Anything):
    @staticmethod
    def ir_module(cls=None, **kwargs):
        """@I.ir_module or @I.ir_module(check_well_formed=False): the class,
        parsed as a module of that name (the arguments are in its text)."""
        return _parse_source(cls) if cls is not None else _parse_source


class _RelaxNamespace(_Anything):
    def function(self, fn=None, **kwargs):
        """@R.function: inside a class, a stand-in; at module level, the
        function parsed as a module holding it."""
        def decorate(f):
            parts = f.__qualname__.split(".")
            if len(parts) >= 2 and parts[-2] != "<locals>":
                return f  # A method of an @I.ir_module class: the class is parsed.
            return _parse_source(f)
        return decorate(fn) if fn is not None else decorate


ir = _IrNamespace()
relax = _RelaxNamespace()
tir = _Anything()
