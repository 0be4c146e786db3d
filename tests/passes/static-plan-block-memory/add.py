# TVM test_add, with the vm.builtin.reshape alias kept (TVM PR #20134, after
# v0.23; docs/passes.md): out is reshaped by the builtin and returned, so it is
# not planned; relax.memory_plan_dynamic_func_output gives it a storage of
# 32 * vocab_size * 4 bytes (upper-bounded dims, then element bytes). v0.23
# expects the older plan instead: out planned into a 128 * vocab_size storage.
# tmp's single dim is bounded by interval arithmetic, vocab_size being
# non-negative (tir_non_negative_var): 32 * vocab_size * 4 * 2 + 4194304
# (uint8, so no element-size factor).
# PIPELINE: static-plan-block-memory
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Before:
    @T.prim_func(private=True)
    def cumsum(var_a: T.handle, var_tmp: T.handle, var_out: T.handle):
        T.evaluate(0)

    @R.function
    def main(probs: R.Tensor(("batch_size", "vocab_size"), "float32")) -> R.Tensor(("batch_size", "vocab_size"), "float32"):
        batch_size = T.int64()
        vocab_size = T.int64()
        R.func_attr({"relax.force_pure": True, "relax.memory_plan_dynamic_func_output": 1, "tir_var_upper_bound": {"batch_size": 32}, "tir_non_negative_var": ["vocab_size"]})
        cls = Before
        tmp = R.builtin.alloc_tensor(R.shape([2 * (batch_size * vocab_size * 4) + 4194304]), R.dtype("uint8"), R.prim_value(0), R.str("global"))
        out = R.builtin.alloc_tensor(R.shape([batch_size, vocab_size]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        cls.cumsum(probs, tmp, out)
        res = R.call_packed("vm.builtin.reshape", out, R.shape([batch_size, vocab_size]), sinfo_args=(R.Tensor((batch_size, vocab_size), dtype="float32"),))
        return res


@I.ir_module
class Expected:
    @T.prim_func(private=True)
    def cumsum(var_a: T.handle, var_tmp: T.handle, var_out: T.handle):
        T.evaluate(0)

    @R.function
    def main(probs: R.Tensor(("batch_size", "vocab_size"), dtype="float32")) -> R.Tensor(("batch_size", "vocab_size"), dtype="float32"):
        R.func_attr({"relax.force_pure": True, "tir_var_upper_bound": {"batch_size": 32}, "tir_non_negative_var": ["vocab_size"]})
        cls = Expected
        storage: R.Object = R.memory.alloc_storage(R.shape([32 * vocab_size * 4 * 2 + 4194304]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        tmp: R.Tensor((2 * (batch_size * vocab_size * 4) + 4194304,), dtype="uint8") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2 * (batch_size * vocab_size * 4) + 4194304]), R.dtype("uint8"), R.prim_value(0))
        storage_1: R.Object = R.memory.alloc_storage(R.shape([32 * vocab_size * 4]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        out: R.Tensor((batch_size, vocab_size), dtype="float32") = R.memory.alloc_tensor(storage_1, R.prim_value(0), R.shape([batch_size, vocab_size]), R.dtype("float32"), R.prim_value(0))
        cls.cumsum(probs, tmp, out)
        res: R.Tensor((batch_size, vocab_size), dtype="float32") = R.call_packed("vm.builtin.reshape", out, R.shape([batch_size, vocab_size]), sinfo_args=(R.Tensor((batch_size, vocab_size), dtype="float32"),))
        return res
