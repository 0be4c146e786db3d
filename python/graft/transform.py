"""Passes and pipelines, shaped as tvm.transform and tvm.relax.transform:

    seq = graft.transform.Sequential([
        graft.transform.CanonicalizeBindings(),
        graft.transform.DeadCodeElimination(),
    ])
    with graft.transform.PassContext(config={"relax.backend.use_cuda_graph": True}):
        after = seq(mod)

Every registered pass is here under TVM's CamelCase name (and any pass by
its kebab-case name through Pass("name", option=value)). A pass returns a
new module; the one it was given is unchanged.
"""

import threading

from . import _core

_state = threading.local()


class PassContext:
    """Config keys for the passes run inside the `with` block."""

    def __init__(self, config=None, verify_each=True):
        self.config = dict(config or {})
        self.verify_each = verify_each

    def __enter__(self):
        _stack().append(self)
        return self

    def __exit__(self, *exc):
        _stack().pop()
        return False

    @staticmethod
    def current():
        stack = _stack()
        return stack[-1] if stack else PassContext()


def _stack():
    if not hasattr(_state, "stack"):
        _state.stack = []
    return _state.stack


def _value_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_value_text(v) for v in value)
    return str(value)


def _config_lines(config):
    merged = dict(PassContext.current().config)
    merged.update(config or {})
    return [f"{k}={_value_text(v)}" for k, v in merged.items()]


class Pass:
    """One pass by its registry name (kebab-case or TVM's alias); keyword
    options use the pass's option names with '_' for '-'."""

    def __init__(self, name, **options):
        self.name = name
        self.options = {k.replace("_", "-"): v for k, v in options.items()}

    def pipeline(self):
        if not self.options:
            return self.name
        opts = ",".join(f"{k}={_value_text(v)}" for k, v in self.options.items())
        return f"{self.name}{{{opts}}}"

    def __call__(self, mod):
        ctx = PassContext.current()
        return _core.run_pipeline(mod, self.pipeline(), _config_lines(None), ctx.verify_each)

    def __repr__(self):
        return f"Pass({self.pipeline()!r})"


class Sequential(Pass):
    """Passes run in order, as one pipeline (verify-each between them)."""

    def __init__(self, passes=None, name="sequential"):
        self.passes = list(passes or [])
        self.name = name
        self.options = {}

    def pipeline(self):
        return ",".join(p.pipeline() for p in self.passes)


def pipeline(text):
    """A pipeline written as `graft opt -p` takes it: "a,b{opt=1},finalize"."""
    p = Pass(text)
    return p


def _define_passes():
    """One constructor per registered pass, under its TVM alias."""
    for name, alias, _options, _test_only in _core.passes():
        if not alias or alias in globals():
            continue

        def make(name=name):
            def constructor(**options):
                return Pass(name, **options)
            constructor.__name__ = alias
            constructor.__doc__ = f"The {name} pass (options as keyword arguments)."
            return constructor

        globals()[alias] = make()


_define_passes()
