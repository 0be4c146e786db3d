# ERROR: closing parenthesis ']' does not match opening parenthesis '('
# A PrimFunc body kept as tokens with a mismatched bracket (a parser fuzz finding).
@tvm.script.ir_module
class Expected:
    @T.prim_func
    def __vmtir__ife(ctx_ptr: T.handle, r: T.handle, c: T.handle, f: T.handle):
        T.func_attr({"global_symbol": "__vmtir__ife"})
         fiT.Call(
            "bool",
            tvm.ir.Op.get("ond", T.anylist_getitem(r, T.int56(0))],
        ):
            T.anylist_setitem_call_packed(
                r,
                T.int32(            r,
                T.int32(4),
                "test.vm.add",
                T.anylist_getitem(r, T.int32(1)),
                T.anylist_getitem(r, T.int32(1)),
            )
            T.anylist_setitem_call_packed(
                r, T.int32(3), "vm.builtin.copy", T.anylist_getitem(r, T.int32(4))
            )
        else:
            T.anylist_setitem_call_packed(
                r,
                T.int32(5),
                "test.vm.mul",
                T.anylist_getitem(r, T.int32(1)),
                T.anylist_getitem(r, T.int32(1)),
            )
            T.anylist_setitem_call_packed(
                r, T.int32(3), "vm.builtin.copy", T.anylist_getitem(r, T.int32(5))
            )
        T.anylist_setitem_call_packed(
            r, T.int32(2), "vm.builtin.copy", T.anylist_getitem(r, T.int32(3))
        4),
                "test.vm.add",
                T.anylist_getitem(r, T.int32(1)),
+                T.anylist_getitem(r, T.int32(1)),
            )
            T.anylist_setitem_call_packed(
                r, T.int32(3), "vm.builtin.copy", T.anylist_getitem(r, T.int32(4))
            )
        elne:
        T.func_attr({"global_symbol": "add5", "tir.noalias": True})
        for i0, i1, i2, i3 in T.grid(1, 64, 112, 112):
            with T.block("T_add"):
                ax0, ax1, ax2, ax3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(A[ax0, ax1, ax2, ax3], B[ax1, 0, 0])
                T.writes(C[ax0, ax1, ax2, ax3])
                C[ax0,        )
        T.anylist_setitem_call_packed(
            r, T.int32(2), "vm.builtin.copy", T.anylist_getitem(r, T.int32(3))
        )
