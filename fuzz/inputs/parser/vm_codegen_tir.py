# Seed for the parser fuzz target: VM-lowered PrimFuncs in the shape TVM's
# VM TIR code generation prints (anylist calls, if/else, nested calls).
@tvm.script.ir_module
class Expected:
    @T.prim_func
    def __vmtir__main(ctx_ptr: T.handle, r: T.handle, c: T.handle, f: T.handle):
        # function attr dict
        T.func_attr({"global_symbol": "__vmtir__main"})
        # body
        T.anylist_setitem_call_packed(
            r,
            T.int32(2),
            "test.vm.add",
            T.anylist_getitem(r, T.int32(0)),
            T.anylist_getitem(r, T.int32(1)),
        )
        T.anylist_setitem_call_packed(
            r, T.int32(3), "vm.builtin.copy", T.anylist_getitem(r, T.int32(2))
        )

    @T.prim_func
    def __vmtir__ife(ctx_ptr: T.handle, r: T.handle, c: T.handle, f: T.handle):
        T.func_attr({"global_symbol": "__vmtir__ife"})
        if T.Call(
            "bool",
            tvm.ir.Op.get("tir.tvm_call_packed"),
            ["vm.builtin.read_if_cond", T.anylist_getitem(r, T.int32(0))],
        ):
            T.anylist_setitem_call_packed(
                r,
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
        )

    @T.prim_func
    def __vmtir__const(ctx_ptr: T.handle, r: T.handle, c: T.handle, f: T.handle):
        T.func_attr({"global_symbol": "__vmtir__const"})
        T.anylist_setitem_call_cpacked(
            r, T.int32(1), "vm.builtin.copy", T.anylist_getitem(c, T.int32(0))
        )
        T.anylist_setitem_call_packed(
            r, T.int32(0), "vm.builtin.make_tuple", T.anylist_getitem(r, T.int32(1)),
            T.anylist_getitem(c, T.int32(1)),
        )
