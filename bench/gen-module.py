#!/usr/bin/env python3
"""Writes the benchmark module of bench/ModuleGen.h as text (for `graft print`
timings) and the MLIR module of the same op count (for mlir-opt-14).

usage: bench/gen-module.py relax N > big.py
       bench/gen-module.py mlir N > big.mlir
       bench/gen-module.py calltir N > big.py   (input for `graft opt -p finalize`)
       bench/gen-module.py build N > big.py     (input for `graft build`, bench/build-scale.sh)
"""
import sys

def relax(n):
    out = ['@I.ir_module', 'class Module:', '    @R.function',
           '    def f0(x: R.Tensor(("n", 16), dtype="float32"), y: R.Tensor(("n", 16), '
           'dtype="float32")) -> R.Tensor(("n", 16), dtype="float32"):',
           '        n = T.int64()', '        with R.dataflow():',
           '            v0: R.Tensor((n, 16), dtype="float32") = R.add(x, y)']
    binary = ['R.add', 'R.multiply', 'R.subtract', 'R.maximum']
    unary = ['R.exp', 'R.nn.relu', 'R.tanh']
    for i in range(1, n):
        rhs = (f'{unary[i % 3]}(v{i-1})' if i % 3 == 0 else
               f'{binary[i % 4]}(v{i-1}, {"y" if i % 2 else f"v{i // 2}"})')
        out.append(f'            v{i}: R.Tensor((n, 16), dtype="float32") = {rhs}')
    out += [f'            gv: R.Tensor((n, 16), dtype="float32") = v{n-1}',
            '            R.output(gv)', '        return gv', '']
    return '\n'.join(out)

def mlir(n):
    t = 'tensor<?x16xf32>'
    out = [f'func @f0(%x: {t}, %y: {t}) -> {t} {{',
           f'  %v0 = arith.addf %x, %y : {t}']
    binary = ['arith.addf', 'arith.mulf', 'arith.subf', 'arith.maxf']
    unary = ['math.exp', 'math.exp', 'math.tanh']
    for i in range(1, n):
        if i % 3 == 0:
            out.append(f'  %v{i} = {unary[i % 3]} %v{i-1} : {t}')
        else:
            other = '%y' if i % 2 else f'%v{i // 2}'
            out.append(f'  %v{i} = {binary[i % 4]} %v{i-1}, {other} : {t}')
    out += [f'  return %v{n-1} : {t}', '}', '']
    return '\n'.join(out)

def calltir(n):
    """N call_tir bindings over a static shape: what finalize lowers."""
    out = ['@I.ir_module', 'class Module:', '    @T.prim_func(private=True)',
           '    def add(A: T.Buffer((T.int64(16), T.int64(16)), "float32"), '
           'B: T.Buffer((T.int64(16), T.int64(16)), "float32"), '
           'C: T.Buffer((T.int64(16), T.int64(16)), "float32")):',
           '        for i, j in T.grid(T.int64(16), T.int64(16)):',
           '            C[i, j] = A[i, j] + B[i, j]', '',
           '    @R.function',
           '    def main(x: R.Tensor((16, 16), dtype="float32"), y: R.Tensor((16, 16), '
           'dtype="float32")) -> R.Tensor((16, 16), dtype="float32"):',
           '        cls = Module', '        with R.dataflow():',
           '            v0 = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((16, 16), '
           'dtype="float32"))']
    for i in range(1, n):
        other = 'y' if i % 2 else f'v{i // 2}'
        out.append(f'            v{i} = R.call_tir(cls.add, (v{i-1}, {other}), '
                   'out_sinfo=R.Tensor((16, 16), dtype="float32"))')
    out += [f'            gv = v{n-1}', '            R.output(gv)', '        return gv', '']
    return '\n'.join(out)

def build(n):
    """N ops over a symbolic batch that `graft build` cannot fold away: a
    matmul every third op breaks fusion, so fuse-elementwise makes N/3 fused
    kernels of an add and a unary op, and codegen emits N/3 matmul calls, N/3
    fused-kernel calls and their allocations and kills."""
    t = 'R.Tensor((n, 16), dtype="float32")'
    out = ['@I.ir_module', 'class Module:', '    @R.function',
           f'    def main(x: {t}, y: {t}, w: R.Tensor((16, 16), dtype="float32")) -> {t}:',
           '        n = T.int64()', '        with R.dataflow():',
           f'            v0: {t} = R.matmul(x, w)']
    unary = ['R.nn.relu', 'R.exp', 'R.tanh', 'R.negative']
    for i in range(1, n):
        if i % 3 == 0:
            rhs = f'R.matmul(v{i-1}, w)'
        elif i % 3 == 1:
            rhs = f'R.add(v{i-1}, y)'
        else:
            rhs = f'{unary[(i // 3) % 4]}(v{i-1})'
        out.append(f'            v{i}: {t} = {rhs}')
    out += [f'            gv: {t} = v{n-1}', '            R.output(gv)', '        return gv', '']
    return '\n'.join(out)

if __name__ == '__main__':
    kind, n = sys.argv[1], int(sys.argv[2])
    sys.stdout.write({'relax': relax, 'mlir': mlir, 'calltir': calltir, 'build': build}[kind](n))
