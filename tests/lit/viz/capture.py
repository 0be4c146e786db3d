# graft viz -o - prints the DOT text: FileCheck can check the structure of a
# picture. After rewrite-cuda-graph the capture function's bindings are a
# cluster; s0 backs t0 and t2 (one colour); each kill follows its binding.
# RUN: %graft viz %s -p rewrite-cuda-graph -o - | FileCheck %s
from tvm.script import ir as I, relax as R, tir as T


@I.ir_module
class Module:
    @T.prim_func
    def sigmoid(a: T.Buffer((T.int64(2), T.int64(4)), "float32"), b: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"global_symbol": "sigmoid", "tir.noalias": True})
        for i, j in T.grid(T.int64(2), T.int64(4)):
            b[i, j] = T.sigmoid(a[i, j])

    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        s0: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        t0: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s0, 0, R.shape([2, 4]), "float32")
        k0: R.Tuple = cls.sigmoid(x, t0)
        s1: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        t1: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s1, 0, R.shape([2, 4]), "float32")
        k1: R.Tuple = cls.sigmoid(t0, t1)
        d0: R.Tuple = R.memory.kill_tensor(t0)
        t2: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s0, 0, R.shape([2, 4]), "float32")
        k2: R.Tuple = cls.sigmoid(t1, t2)
        d1: R.Tuple = R.memory.kill_tensor(t1)
        s2: R.Object = R.memory.alloc_storage(R.shape([32]), 0, "global", "float32")
        t3: R.Tensor((2, 4), dtype="float32") = R.memory.alloc_tensor(s2, 0, R.shape([2, 4]), "float32")
        k3: R.Tuple = cls.sigmoid(t2, t3)
        d2: R.Tuple = R.memory.kill_tensor(t2)
        out: R.Tensor((2, 4), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 4]), "float32", 0)
        k4: R.Tuple = cls.sigmoid(t3, out)
        d3: R.Tuple = R.memory.kill_tensor(t3)
        d4: R.Tuple = R.memory.kill_storage(s0)
        d5: R.Tuple = R.memory.kill_storage(s1)
        d6: R.Tuple = R.memory.kill_storage(s2)
        return out

# CHECK: digraph "main" {
# CHECK: [[T0:n[0-9]+]] [label="t0\nR.memory.alloc_tensor\nTensor((2, 4), float32)", shape=box, style="filled,rounded", fillcolor="[[S0:#[0-9a-f]+]]"];
# CHECK: [[T1:n[0-9]+]] [label="t1\nR.memory.alloc_tensor
# CHECK: subgraph cluster_0 {
# CHECK-NEXT: label="CUDA graph capture main_cuda_graph_capture (launch 0, bound to gv_1)";
# CHECK: [[W1:n[0-9]+]] [label="t1\ncls.sigmoid\nTensor((2, 4), float32)"
# CHECK: [[T2:n[0-9]+]] [label="t2\nR.memory.alloc_tensor\nTensor((2, 4), float32)", shape=box, style="filled,rounded", fillcolor="[[S0]]"];
# CHECK: {{^  }}}
# CHECK-DAG: [[T1]] -> [[W1]] [style=dotted, arrowhead=empty];
# CHECK-DAG: [[W1]] -> [[K:n[0-9]+]] [style=dashed, color="#999999", arrowhead=tee];
# CHECK: label="s0: 2 tensors"
