# VERIFY: ok
# TVM's test_call_tir_with_dtensor_arguments: R.dist.call_tir takes DTensors
# and is not checked against the PrimFunc's buffers (they see local shards).
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    I.module_attrs({"device_num": 4})
    I.module_global_infos({"mesh": [R.dist.device_mesh([4], I.Range(0, 4))]})

    @R.function
    def main(A: R.dist.DTensor([8, 4], "float16", "mesh[0]", "S[0]")):
        B = R.dist.call_tir(Module.flatten, A, out_sinfo=R.dist.DTensor([64], "float16", "mesh[0]", "S[0]"))
        return B

    @T.prim_func
    def flatten(A_handle: T.handle, B_handle: T.handle):
        M = T.int64()
        N = T.int64()
        A = T.match_buffer(A_handle, [M, N], dtype="float16")
        B = T.match_buffer(B_handle, [M * N], dtype="float16")
        for i in T.grid(M * N):
            with T.block("compute"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi // N, vi % N]
