# Module-level forms: attrs, global infos, ExternFunc (with R.Callable struct info too), private and impure
# functions, force_pure, check_well_formed=False, cls = Module, forward refs,
# tvm.script.ir_module, several modules per file.
import tvm
from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T

@I.ir_module
class WithAttrs:
    I.module_attrs({"system_lib_prefix": "lib_", "external_mods": [], "flag": True, "n": 3})
    I.module_global_infos({"vdevice": [I.vdevice({"kind": "cuda", "arch": "sm_90", "max_num_threads": 1024}, 0, "global"), I.vdevice("llvm")]})

    ext = R.ExternFunc("my_extern")

    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        # a forward reference to a function defined below
        cls = WithAttrs
        y = cls.later(x)
        z = WithAttrs.later(y)
        return z

    @R.function(private=True)
    def later(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        return x


@I.ir_module
class Dummy:
    I.module_global_infos({"dummy": [I.dummy_global_info(), I.dummy_global_info()]})

    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        return x


@tvm.script.ir_module
class OldDecorator:
    @R.function(pure=False)
    def impure(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        y = R.call_packed("my_print", x, sinfo_args=R.Tuple())
        return x

    @R.function
    def force_pure(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        R.func_attr({"relax.force_pure": True})
        y = R.call_packed("my_side_effect", x, sinfo_args=R.Tensor((2,), "float32"))
        return y

    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        cls = OldDecorator
        y = cls.force_pure(x)
        return y


@I.ir_module(check_well_formed=False)
class NotWellFormed:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        y = R.call_packed("effect", x, sinfo_args=R.Tensor((2,), "float32"))
        return y

    @R.function(check_well_formed=False)
    def undefined_sym(x: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor(ndim=1, dtype="float32"):
        n = T.int64()
        y: R.Tensor((n,), "float32") = R.exp(x)
        return y


@I.ir_module
class ExternOnly:
    f = R.ExternFunc("f_impl")
    g = R.ExternFunc("g_impl")


@I.ir_module
class Empty:
    pass


@I.ir_module
class CallsExtern:
    ext = R.ExternFunc("ext_sym")

    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        cls = CallsExtern
        y = R.call_dps_packed(cls.ext, (x,), out_sinfo=R.Tensor((2,), "float32"))
        f = R.ExternFunc("inline_ext")
        g = R.ExternFunc("typed_ext", R.Callable((R.Tensor((2,), "float32"),), R.Tensor((2,), "float32")))
        h = R.ExternFunc("impure_ext", struct_info=R.Callable((R.Tensor,), R.Tensor, False))
        z = R.call_dps_packed(R.ExternFunc("arg_ext", R.Callable((R.Tensor, R.Tensor), R.Tuple, False)), (y,), out_sinfo=R.Tensor((2,), "float32"))
        return y
