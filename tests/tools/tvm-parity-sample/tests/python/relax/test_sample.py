# A stand-in for a TVM test file, read by check_tvm_parity.py: it exercises each selection rule
# of tools/tvm-parity.py (docs/parity.md) once.
import pytest
import tvm
from tvm import relax
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T
from tvm.relax.testing.runtime_builtin import MatchShapeCode


@I.ir_module
class Plain:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.add(x, x)
        return y


@R.function
def standalone(x: R.Tensor((2, 3), "float32")):
    return x


def test_metaprogramming():
    dtype = "float16"

    @I.ir_module
    class UsesDtype:
        @R.function
        def main(x: R.Tensor((4,), dtype)):
            return x


def test_rejected():
    with pytest.raises(tvm.error.DiagnosticError):

        @I.ir_module
        class Bad:
            @R.function
            def main(x: R.Tensor((4,), "float32")):
                return undefined_thing


def test_does_not_parse_in_graft():
    @I.ir_module
    class UnknownOp:
        @R.function
        def main(x: R.Tensor((4,), "float32")):
            y = R.no_such_op(x)
            return y


def test_dce():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            unused = R.add(x, x)
            return x

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return x

    after = relax.transform.DeadCodeElimination()(Before)
    tvm.ir.assert_structural_equal(after, Expected)


def verify(before, expected):
    tvm.ir.assert_structural_equal(relax.transform.CanonicalizeBindings()(before), expected)


def test_canonicalize_through_helper():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            y = x
            return y

    @I.ir_module
    class Expected:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            return x

    verify(Before, Expected)


def test_shape_code():
    MS = MatchShapeCode

    @I.ir_module
    class Codes:
        @R.function(pure=False)
        def main(x: R.Shape([2])):
            _ = R.call_packed("vm.builtin.match_shape", x, 2, MS.STORE_TO_HEAP, sinfo_args=[R.Tuple()])
            return x


def test_verdict():
    @I.ir_module(check_well_formed=False)
    class ImpureInPure:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            R.print(x, format="x")
            return x

    assert not relax.analysis.well_formed(ImpureInPure)


@pytest.mark.xfail(reason="TVM keeps the copy")
def test_canonicalize_xfail():
    @I.ir_module
    class Before:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            y = x
            return y

    verify(Before, Before)
