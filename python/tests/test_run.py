import numpy as np
import pytest

import graft

MLP = """
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), w: R.Tensor((3, 4), dtype="float32")):
        with R.dataflow():
            y = R.matmul(x, w)
            z = R.nn.relu(y)
            R.output(z, y)
        return (z, y)
"""


def test_build_and_run_with_numpy_through_dlpack(tmp_path):
    exe = graft.build(graft.parse(MLP))
    assert "main" in exe.functions
    vm = graft.VirtualMachine(exe)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3), dtype=np.float32)
    w = rng.standard_normal((3, 4), dtype=np.float32)
    z, y = vm["main"](x, w)
    assert isinstance(z, np.ndarray) and z.dtype == np.float32 and z.shape == (2, 4)
    np.testing.assert_allclose(y, x @ w, rtol=1e-5)
    np.testing.assert_allclose(z, np.maximum(x @ w, 0), rtol=1e-5)

    path = tmp_path / "mlp.gexe"
    exe.save(str(path))
    again = graft.VirtualMachine(graft.load_executable(path))["main"](x, w)
    np.testing.assert_array_equal(again[0], z)


def test_non_contiguous_input_is_made_contiguous():
    exe = graft.build(graft.parse(MLP))
    x = np.arange(6, dtype=np.float32).reshape(3, 2).T  # a transposed view
    w = np.ones((3, 4), dtype=np.float32)
    z, y = graft.VirtualMachine(exe)["main"](x, w)
    np.testing.assert_allclose(y, x @ w)


def test_runtime_errors_raise():
    exe = graft.build(graft.parse(MLP))
    vm = graft.VirtualMachine(exe)
    w = np.ones((3, 4), np.float32)
    with pytest.raises(graft.GraftError) as err:
        vm["main"](np.ones((5, 3), np.float32), w)
    assert str(err.value) == "function 'main' parameter 'x' dim 0: expected size 2 but got 5"
    with pytest.raises(graft.GraftError, match="expected dtype float32 but got float64"):
        vm["main"](np.ones((2, 3), np.float64), w)
    with pytest.raises(graft.GraftError) as err:
        vm["main"](object(), w)
    assert str(err.value) == ("cannot pass a value of type 'object' to the VM (numpy arrays, "
                              "int, float, bool, str and tuples of them)")
    with pytest.raises(graft.GraftError, match="no function 'nope'"):
        vm["nope"]()


def test_outputs_are_read_only_views():
    exe = graft.build(graft.parse(MLP))
    z, _ = graft.VirtualMachine(exe)["main"](np.ones((2, 3), np.float32),
                                             np.ones((3, 4), np.float32))
    assert not z.flags.writeable  # np.from_dlpack: the VM's memory, not a copy
    z = z.copy()
    z[0, 0] = 1.0


def test_build_error_is_raised():
    with pytest.raises(graft.GraftError, match="target"):
        graft.build(graft.parse(MLP), target="tpu")


def test_the_docs_mlp_example(source_dir):
    rng = np.random.default_rng(0)
    x, w1, b1, w2 = (rng.standard_normal(s, dtype=np.float32)
                     for s in [(4, 784), (784, 128), (128,), (128, 10)])
    exe = graft.build(graft.parse_file(source_dir / "examples" / "mlp.py"))
    probs = graft.VirtualMachine(exe)["main"](x, w1, b1, w2)
    h = np.maximum(x @ w1 + b1, 0) @ w2
    e = np.exp(h - h.max(axis=1, keepdims=True))
    np.testing.assert_allclose(probs, e / e.sum(axis=1, keepdims=True), rtol=1e-4, atol=1e-6)
