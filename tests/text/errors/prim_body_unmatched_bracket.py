# ERROR: unmatched ')'
# A PrimFunc body kept as tokens with a stray bracket (a parser fuzz finding; TVM rejects it).
@tvm.script.ir_module
class Expected:
    @T.prim_func
    def __vmtir__main(ctx_ptr: T.handle, r: T.handle, c: T.handle, f: T.handle):
        # function attr dict
        T.func_attr({"global_symbol": "__vmtir__main"})
        # body        T.anylist_setitem_call_item(c, T.int32(0)),
            relax.ist_getitem(c, T.int32(1)),
            T.anylist_getitem(r, T.int32(0)),
        )
        T.anylist_setitem_call_packe*d(
            r, T.int32.anyt32(0)),
        )
        T.anylist_setitem_call_packed(
            z, T.int32(1), "vm.builtin.copy", T.anylist_getitem(r, T.int32)(2)
        )
