# relax.distributed: device meshes in the global infos, DTensor struct info
# (positional and keyword forms, a mesh written inline), the sharding ops,
# the distributed call_tir forms, R.dist.const, the collectives, and ops
# inferred on DTensor arguments (ir/ops/DistributedOps.cpp).
from tvm.script import ir as I, relax as R, tir as T

@I.ir_module
class Sharded:
    I.module_attrs({"device_num": 10})
    I.module_global_infos({"mesh": [R.device_mesh((2,), I.Range(0, 2)), R.dist.device_mesh([2, 2], [4, 5, 6, 7])]})

    @T.prim_func
    def copy(A: T.Buffer((T.int64(128), T.int64(128)), "float32"), B: T.Buffer((T.int64(128), T.int64(128)), "float32")):
        for i, j in T.grid(T.int64(128), T.int64(128)):
            with T.block("copy"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj]

    @R.function
    def mlp(x: R.DTensor((128, 128), "float32", "mesh[0]", "R"), w1: R.DTensor((128, 128), "float32", "mesh[0]", "S[1]"), w2: R.dist.DTensor([128, 128], "float32", device_mesh="mesh[0]", placement="S[0]")) -> R.DTensor((128, 128), "float32", "mesh[0]", "R"):
        lv0 = R.matmul(x, w1)
        lv1: R.DTensor((128, 128), "float32", "mesh[0]", "S[1]") = R.nn.gelu(lv0)
        lv2 = R.add(lv1, R.dist.const(2, R.DTensor((), "float32", "mesh[0]", "R")))
        lv3: R.DTensor((128, 128), "float32", "mesh[0]", "R") = R.matmul(lv2, w2, out_dtype="void")
        return lv3

    @R.function
    def moves(x: R.DTensor((128, 128), "float32", "mesh[0]", "R"), y: R.DTensor((128, 128), "float32", "mesh[1]", "S[0],R")):
        a = R.dist.redistribute(x, "mesh[0]", "S[1]")
        b = R.dist.redistribute_replica_to_shard(x, num_workers=2, axis=0)
        c = R.dist.call_tir(Sharded.copy, (x,), out_sinfo=R.DTensor((128, 128), "float32", "mesh[0]", "S[0]"))
        d = R.dist.call_tir_local_view(Sharded.copy, (x,), out_sinfo=R.DTensor((64, 128), "float32", "mesh[0]", "S[0]"))
        e = R.permute_dims(y)
        return (a, b, c, d, e)

    @R.function
    def annotate(x: R.Tensor((128, 128), "float32")) -> R.Tensor((128, 128), "float32"):
        a = R.dist.annotate_sharding(x, device_mesh="mesh[0]", placement="S[1]")
        b = R.ccl.allreduce(a, op_type="sum")
        c = R.ccl.allgather(b, num_workers=2)
        d = R.ccl.broadcast_from_worker0(c)
        e = R.ccl.scatter_from_worker0(d, num_workers=2, axis=1)
        return a

    @R.function
    def unknown_shape(x: R.DTensor(dtype="float32", device_mesh=R.device_mesh((2,), R.Range(0, 2)), placement="R", ndim=2), y: R.DTensor(("n", 4), "float16", R.device_mesh((2,), [0, 1]), "S[0]")):
        n = T.int64()
        return x
