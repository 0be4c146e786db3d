#!/usr/bin/env python3
"""Measure graft against the TVMScript modules of Apache TVM's own Python tests.

The TVM test files are read from the user's TVM checkout (or a tag of a TVM git directory); nothing
of them is stored in this repository. See docs/parity.md for what is measured and how modules are
selected.

    tools/tvm-parity.py --tvm ~/src/tvm --graft build/tools/graft
    tools/tvm-parity.py --tvm-git ~/src/tvm/.git --tag v0.23.0 --graft build/tools/graft

Python 3.8+ standard library only.
"""

import argparse
import ast
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import textwrap

TEST_DIRS = ("tests/python/relax", "tests/python/tvmscript")

# Names a self-contained module may read without defining them: the TVMScript namespaces and the
# Python constants TVMScript gives a meaning. Any other free name is a value of the enclosing
# Python program (metaprogramming) and the module is skipped.
ALLOWED_FREE = {"R", "T", "I", "tvm", "relax", "tir", "True", "False", "None", "range"}

# TVM pass constructors -> graft pass names. Only passes whose TVM Expected is a graft output are
# listed: graft's legalize-ops lowers to graft kernels, not to TVM's TIR, so its cases are not.
GENERAL_PASSES = {
    "CanonicalizeBindings": "canonicalize-bindings",
    "DeadCodeElimination": "dead-code-elimination",
}
LOWERING_PASSES = {
    "ToNonDataflow": "to-non-dataflow",
    "RemovePurityChecking": "remove-purity-checking",
    "CallTIRRewrite": "call-tir-rewrite",
    "StaticPlanBlockMemory": "static-plan-block-memory",
    "RewriteCUDAGraph": "rewrite-cuda-graph",
    "LowerAllocTensor": "lower-alloc-tensor",
    "KillAfterLastUse": "kill-after-last-use",
    "LowerRuntimeBuiltin": "lower-runtime-builtin",
    "VMBuiltinLower": "lower-runtime-builtin",  # the name before TVM renamed the pass
    "ComputePrimValue": "compute-prim-value",
    "VMShapeLower": "vm-shape-lower",
    "AttachGlobalSymbol": "attach-global-symbol",
}
PASSES = dict(GENERAL_PASSES, **LOWERING_PASSES)
# Positional arguments of the TVM constructors, by graft option name.
POSITIONAL_OPTIONS = {
    "dead-code-elimination": ["entry-functions"],
    "vm-shape-lower": ["emit-err-ctx"],
}


# ----------------------------------------------------------------------------------------------
# Selecting modules


def dotted(node):
    """'a.b.c' for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def decorator_name(dec):
    return dotted(dec.func if isinstance(dec, ast.Call) else dec)


def is_module_class(node):
    return isinstance(node, ast.ClassDef) and any(
        (decorator_name(d) or "").split(".")[-1] == "ir_module" for d in node.decorator_list
    )


def is_relax_function(node):
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        decorator_name(d) in ("R.function", "relax.function", "tvm.script.relax.function")
        for d in node.decorator_list
    )


def bound_names(tree):
    """Every name the snippet itself binds: assignments, parameters, defs, loop and with targets."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def metaprogramming_reason(node):
    """Why a module or function is not self-contained TVMScript, or None when it is.

    It is not when it reads a name it does not define (a Python value of the test: a dtype
    variable, a shape list, numpy, metadata), builds text with an f-string or `%`/`.format`,
    unpacks with `*`, or has a decorator argument that is not a literal.
    """
    bound = bound_names(node)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
            if sub.id not in bound and sub.id not in ALLOWED_FREE:
                return "reads the Python name '%s'" % sub.id
        elif isinstance(sub, ast.JoinedStr):
            return "f-string"
        elif isinstance(sub, ast.Starred):
            return "star unpacking"
        elif isinstance(sub, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return "comprehension"
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
            if sub.func.attr in ("format", "meta_var") or dotted(sub.func) in ("T.meta_var",):
                return "meta_var or str.format"
    for dec in getattr(node, "decorator_list", []):
        if isinstance(dec, ast.Call):
            for arg in list(dec.args) + [k.value for k in dec.keywords]:
                if not isinstance(arg, ast.Constant):
                    return "decorator argument is not a literal"
    return None


def expects_error(ancestors):
    """A module written inside `with pytest.raises(...)` is one TVM rejects: not counted."""
    for anc in ancestors:
        if isinstance(anc, (ast.With, ast.AsyncWith)):
            for item in anc.items:
                name = dotted(item.context_expr.func) if isinstance(item.context_expr, ast.Call) else None
                if name and name.split(".")[-1] in ("raises", "raises_regex", "warns"):
                    return True
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in anc.decorator_list:
                if "xfail" in (decorator_name(dec) or ""):
                    return True
    return False


def snippet(lines, node):
    """The source of a decorated class or def, dedented."""
    first = min([d.lineno for d in node.decorator_list] + [node.lineno])
    return textwrap.dedent("\n".join(lines[first - 1 : node.end_lineno])) + "\n"


class Collected:
    def __init__(self):
        self.modules = []  # (where, text)
        self.skipped = collections.Counter()
        self.skip_examples = {}
        self.pass_cases = []  # (where, pass name, options, before text, expected text)
        self.pass_skipped = collections.Counter()
        self.verdicts = []  # (where, module text, expected well-formed)
        self.verdict_skipped = collections.Counter()

    def skip(self, reason, where):
        self.skipped[reason] += 1
        self.skip_examples.setdefault(reason, where)


def walk_with_ancestors(tree):
    stack = [(tree, ())]
    while stack:
        node, ancestors = stack.pop()
        yield node, ancestors
        for child in reversed(list(ast.iter_child_nodes(node))):
            stack.append((child, ancestors + (node,)))


def collect_modules(path, rel, tree, lines, out):
    for node, ancestors in walk_with_ancestors(tree):
        standalone = is_relax_function(node) and not any(
            is_module_class(a) or is_relax_function(a) for a in ancestors
        )
        if not (is_module_class(node) or standalone):
            continue
        where = "%s:%d" % (rel, node.lineno)
        if expects_error(ancestors):
            out.skip("written inside pytest.raises / xfail (TVM rejects it)", where)
            continue
        reason = metaprogramming_reason(node)
        if reason:
            out.skip("metaprogramming", where)
            continue
        out.modules.append((where, snippet(lines, node)))


# ----------------------------------------------------------------------------------------------
# Selecting pass cases


def literal_option(value):
    """A graft option value for a literal TVM argument, or None."""
    try:
        v = ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)):
        return str(v)
    if isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
        return ",".join(v)
    return None


def pass_of(call):
    """(graft pass, options) for `relax.transform.Name(args)`, 'unsupported' for a pass graft
    has with arguments it cannot map, None for anything else."""
    if not isinstance(call, ast.Call):
        return None
    name = (dotted(call.func) or "").split(".")[-1]
    if name not in PASSES:
        return None
    graft = PASSES[name]
    options = []
    positional = POSITIONAL_OPTIONS.get(graft, [])
    if len(call.args) > len(positional):
        return "unsupported"
    pairs = list(zip(positional, call.args)) + [
        (k.arg.replace("_", "-"), k.value) for k in call.keywords if k.arg
    ]
    for key, value in pairs:
        text = literal_option(value)
        if text is None:
            return "unsupported"
        options.append("%s=%s" % (key, text))
    return graft, options


def pass_context_config(stmt):
    """The literal config of `with tvm.transform.PassContext(config={...}):`, else None."""
    if not isinstance(stmt, ast.With):
        return None
    for item in stmt.items:
        call = item.context_expr
        if isinstance(call, ast.Call) and (dotted(call.func) or "").endswith("PassContext"):
            for kw in call.keywords:
                if kw.arg == "config":
                    try:
                        return dict(ast.literal_eval(kw.value))
                    except (ValueError, SyntaxError, TypeError):
                        return None
    return None


def flat_statements(body, with_config=False):
    """The statements of a function body, entering with/if/try blocks but not nested defs; with
    with_config, (statement, PassContext config around it) pairs."""
    out = []
    stack = [(stmt, {}) for stmt in reversed(body)]
    while stack:
        stmt, config = stack.pop()
        out.append((stmt, config) if with_config else stmt)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        inner = dict(config, **(pass_context_config(stmt) or {}))
        for field in ("finalbody", "orelse", "body"):
            stack.extend((s, inner) for s in reversed(getattr(stmt, field, []) or []))
    return out


class PassScan:
    """Finds `after = Pass()(Before)` + `assert_structural_equal(after, Expected)` in a body."""

    def __init__(self, modules, helpers):
        self.modules = modules  # name -> ClassDef, for this scope
        self.helpers = helpers  # name -> (pass, options, input index, expected index)

    def resolve(self, env, node, config=None):
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            if node.id in self.modules:
                return ("module", node.id)
            return None
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            p = pass_of(node.func)
            if p is not None:
                inner = self.resolve(env, node.args[0])
                if inner and inner[0] in ("module", "param"):
                    return ("result", p, inner, config or {})
        return None

    def scan(self, body, env=None):
        env = dict(env or {})
        found = []
        for stmt, config in flat_statements(body, with_config=True):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                if isinstance(target, ast.Name):
                    value = self.resolve(env, stmt.value, config)
                    if value is not None:
                        env[target.id] = value
                    else:
                        env.pop(target.id, None)
            call = stmt.value if isinstance(stmt, ast.Expr) else None
            if not isinstance(call, ast.Call):
                continue
            fname = (dotted(call.func) or "").split(".")[-1]
            if fname == "assert_structural_equal" and len(call.args) >= 2:
                a = self.resolve(env, call.args[0], config)
                b = self.resolve(env, call.args[1], config)
                if a and b and a[0] != "result":
                    a, b = b, a
                if a and b and a[0] == "result" and b[0] in ("module", "param"):
                    found.append((a[1], a[2], b, a[3]))
            elif fname in self.helpers:
                p, in_idx, exp_idx = self.helpers[fname]
                if max(in_idx, exp_idx) < len(call.args):
                    a = self.resolve(env, call.args[in_idx])
                    b = self.resolve(env, call.args[exp_idx])
                    if a and b and a[0] == "module" and b[0] == "module":
                        found.append((p, a, b, config))
        return found


def module_classes(body):
    return {n.name: n for n in body if is_module_class(n)}


def is_xfail(fn):
    return any("xfail" in (decorator_name(d) or "") for d in fn.decorator_list)


def collect_verdicts(rel, tree, lines, out):
    """`assert [not] relax.analysis.well_formed(Module)` on a module class or standalone function
    of the test; an xfail test's assertion is TVM's verdict reversed."""
    top = {n.name: n for n in tree.body if is_module_class(n) or is_relax_function(n)}
    for fn in ast.walk(tree):
        if not (isinstance(fn, ast.FunctionDef) and fn.name.startswith("test")):
            continue
        scope = dict(top)
        aliases = {}
        for stmt in flat_statements(fn.body):
            if is_module_class(stmt) or is_relax_function(stmt):
                scope[stmt.name] = stmt
            elif (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                  and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Name)):
                aliases[stmt.targets[0].id] = stmt.value.id
            if not isinstance(stmt, ast.Assert):
                continue
            test, negated = stmt.test, False
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                test, negated = test.operand, True
            if not (isinstance(test, ast.Call)
                    and (dotted(test.func) or "").endswith("analysis.well_formed")
                    and test.args and isinstance(test.args[0], ast.Name)):
                continue
            where = "%s:%d" % (rel, stmt.lineno)
            name = aliases.get(test.args[0].id, test.args[0].id)
            if name not in scope:
                out.verdict_skipped["the module is built in Python"] += 1
                continue
            if any(k.arg == "check_struct_info" and not (isinstance(k.value, ast.Constant)
                                                         and k.value.value is True)
                   for k in test.keywords):
                out.verdict_skipped["check_struct_info=False (graft always checks it)"] += 1
                continue
            node = scope[name]
            if metaprogramming_reason(node):
                out.verdict_skipped["metaprogramming"] += 1
                continue
            out.verdicts.append((where, snippet(lines, node), negated == is_xfail(fn)))


def collect_pass_cases(rel, tree, lines, out):
    top_modules = module_classes(tree.body)
    helpers = {}
    # Helpers: `def verify(before, expected): assert_structural_equal(Pass()(before), expected)`.
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and not fn.name.startswith("test"):
            params = [a.arg for a in fn.args.args]
            env = {name: ("param", i) for i, name in enumerate(params)}
            for p, a, b, _ in PassScan({}, {}).scan(fn.body, env):
                if a[0] == "param" and b[0] == "param":
                    helpers[fn.name] = (p, a[1], b[1])

    def emit(where, p, before_node, expected_node, config):
        if p == "unsupported":
            out.pass_skipped["pass arguments graft cannot map"] += 1
            return
        for node in (before_node, expected_node):
            if metaprogramming_reason(node):
                out.pass_skipped["metaprogramming in Before or Expected"] += 1
                return
        graft, options = p
        out.pass_cases.append(
            (where, graft, options, snippet(lines, before_node), snippet(lines, expected_node),
             before_node.name, expected_node.name, config)
        )

    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and fn.name.startswith("test"):
            modules = dict(top_modules)
            modules.update(module_classes(flat_statements(fn.body)))
            scan = PassScan(modules, helpers)
            if is_xfail(fn):
                # TVM's own output is not Expected here (the test says so).
                n = sum(1 for _ in scan.scan(fn.body))
                out.pass_skipped["in a test marked xfail (TVM does not give Expected)"] += n
                continue
            for p, a, b, config in scan.scan(fn.body):
                emit("%s:%d" % (rel, fn.lineno), p, modules[a[1]], modules[b[1]], config)
        elif isinstance(fn, ast.ClassDef) and fn.bases:
            collect_compare_class(rel, tree, fn, emit, out)


def class_transform(tree, cls, depth=0):
    """The `transform = Pass()` of a tvm.testing.CompareBeforeAfter class or of its bases."""
    for stmt in cls.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "transform" for t in stmt.targets
        ):
            return pass_of(stmt.value) or "unknown"
    if depth > 4:
        return None
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for base in cls.bases:
        name = dotted(base)
        if name in classes:
            t = class_transform(tree, classes[name], depth + 1)
            if t:
                return t
    return None


def is_compare_class(tree, cls, depth=0):
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for base in cls.bases:
        name = dotted(base) or ""
        if name.endswith("CompareBeforeAfter"):
            return True
        if depth < 4 and name in classes and is_compare_class(tree, classes[name], depth + 1):
            return True
    return False


def collect_compare_class(rel, tree, cls, emit, out):
    if not is_compare_class(tree, cls):
        return
    found = {}
    for stmt in cls.body:
        if is_module_class(stmt) and stmt.name.lower() in ("before", "expected"):
            found[stmt.name.lower()] = stmt
    for stmt in cls.body:
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id.lower() == "expected"
                and isinstance(stmt.value, ast.Name)
                and stmt.value.id.lower() == "before" and "before" in found):
            found["expected"] = found["before"]
    if "before" not in found or "expected" not in found:
        return
    t = class_transform(tree, cls)
    if t is None or t == "unknown":
        return
    emit("%s:%d" % (rel, cls.lineno), t, found["before"], found["expected"], {})


ENUM_FILE = "python/tvm/relax/testing/runtime_builtin.py"


def load_enums(tvm_root):
    """{class: {member: value}} of the IntEnums in ENUM_FILE (the VM shape codes)."""
    path = os.path.join(tvm_root, ENUM_FILE)
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    enums = {}
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef):
            members = {}
            for stmt in cls.body:
                if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                        and isinstance(stmt.targets[0], ast.Name)
                        and isinstance(stmt.value, ast.Constant)):
                    members[stmt.targets[0].id] = stmt.value.value
            if members:
                enums[cls.name] = members
    return enums


def substitute_enums(text, enums):
    """Writes `MS.STORE_TO_HEAP` (MS = MatchShapeCode) as its value, as mod.script() prints it."""
    for name, members in enums.items():
        if name not in text:
            continue
        aliases = {name} | set(re.findall(r"^\s*(\w+)\s*=\s*%s\s*$" % name, text, re.M))
        pattern = r"\b(%s)\.(%s)\b" % ("|".join(sorted(aliases)), "|".join(members))
        text = re.sub(pattern, lambda m: str(members[m.group(2)]), text)
    return text


def collect(tvm_root):
    out = Collected()
    enums = load_enums(tvm_root)
    for test_dir in TEST_DIRS:
        base = os.path.join(tvm_root, test_dir)
        for dirpath, _, files in sorted(os.walk(base)):
            for fname in sorted(files):
                if not fname.endswith(".py"):
                    continue
                path = os.path.join(dirpath, fname)
                rel = os.path.relpath(path, tvm_root)
                with open(path, encoding="utf-8") as f:
                    text = substitute_enums(f.read(), enums)
                try:
                    tree = ast.parse(text)
                except SyntaxError:
                    continue
                lines = text.split("\n")
                collect_modules(path, rel, tree, lines, out)
                collect_pass_cases(rel, tree, lines, out)
                collect_verdicts(rel, tree, lines, out)
    return out


# ----------------------------------------------------------------------------------------------
# Running graft

LOCATION = re.compile(r"^\S+?:\d+:\d+: ")


def first_error(text):
    """The first error line of graft's output, without the file location."""
    for line in text.splitlines():
        if "error" in line:
            return LOCATION.sub("", line.strip())
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0].strip() if lines else "(no output)"


def error_class(message):
    """Groups messages that differ only in names and numbers."""
    message = re.sub(r"'[^']*'", "'_'", message)
    message = re.sub(r'"[^"]*"', '"_"', message)
    message = re.sub(r"\b\d+\b", "N", message)
    return message[:160]


def run(cmd, timeout=60):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return 124, "error: timed out after %ds" % timeout


def round_trip(graft, workdir, index, text):
    """None when the module parses, verifies, prints, parses back and compares equal; else
    (stage, message)."""
    src = os.path.join(workdir, "m%05d.py" % index)
    printed = os.path.join(workdir, "m%05d.printed.py" % index)
    with open(src, "w", encoding="utf-8") as f:
        f.write(text)
    rc, output = run([graft, "print", src])
    if rc != 0:
        return ("parse", first_error(output))
    with open(printed, "w", encoding="utf-8") as f:
        f.write(output)
    rc, output2 = run([graft, "print", printed])
    if rc != 0:
        return ("reparse", first_error(output2))
    rc, diff = run([graft, "diff", src, printed])
    if rc != 0:
        return ("compare", first_error(diff))
    if output2 != output:
        return ("compare", "printing the printed text changes it")
    return None


def rename_class(text, old, new):
    return re.sub(r"\b%s\b" % re.escape(old), new, text) if old != new else text


def pass_case(graft, workdir, index, case):
    where, name, options, before, expected, before_name, expected_name, config = case
    pipeline = name + ("{%s}" % ",".join(options) if options else "")
    path = os.path.join(workdir, "p%05d.py" % index)
    with open(path, "w", encoding="utf-8") as f:
        f.write("# PIPELINE: %s\n" % pipeline)
        for key, value in sorted(config.items()):
            f.write("# CONFIG: %s=%s\n" % (key, str(value).lower() if isinstance(value, bool)
                                            else value))
        f.write("\n")
        f.write(rename_class(before, before_name, "Before"))
        f.write("\n\n")
        f.write(rename_class(expected, expected_name, "Expected"))
    rc, output = run([graft, "test", path])
    if rc == 0:
        return None
    for line in output.splitlines():
        m = re.search(r"caused by lhs at (\S+)", line)
        if m:
            return "differs from Expected at " + m.group(1).rstrip(":")
        if "error:" in line:
            return first_error(line)
    return first_error(output)


def verdict(graft, workdir, index, case):
    """None when `graft verify` agrees with TVM's verdict, else what graft said."""
    where, text, expected = case
    path = os.path.join(workdir, "w%05d.py" % index)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    rc, output = run([graft, "verify", path])
    if rc == 2:
        return "graft cannot read it: " + first_error(output)
    if (rc == 0) == expected:
        return None
    return ("graft says well-formed, TVM ill-formed" if rc == 0
            else "graft says ill-formed, TVM well-formed: " + first_error(output))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--tvm", help="a TVM source checkout")
    src.add_argument("--tvm-git", help="a TVM git directory (with --tag)")
    ap.add_argument("--tag", default="v0.23.0", help="the tag of --tvm-git to read (v0.23.0)")
    ap.add_argument("--graft", default="build/tools/graft", help="the graft binary")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="parallel graft runs (2)")
    ap.add_argument("--keep", help="write every extracted module and pass case to this folder")
    ap.add_argument("--show", type=int, default=25, help="failure classes to list (25)")
    ap.add_argument("--examples", type=int, default=1, help="examples per failure class (1)")
    ap.add_argument("--json", help="write the full results as JSON to this file")
    ap.add_argument("--filter", help="only modules and cases whose test file contains this")
    args = ap.parse_args()

    tmp = tempfile.TemporaryDirectory(prefix="tvm-parity-")
    root = args.tvm
    if args.tvm_git:
        root = os.path.join(tmp.name, "tvm")
        os.makedirs(root)
        archive = os.path.join(tmp.name, "tests.tar")
        with open(archive, "wb") as f:
            subprocess.run(["git", "--git-dir", args.tvm_git, "archive", "refs/tags/" + args.tag]
                           + list(TEST_DIRS) + [ENUM_FILE], stdout=f, check=True)
        with tarfile.open(archive) as t:
            t.extractall(root)
    graft = os.path.abspath(args.graft)
    collected = collect(root)
    modules = collected.modules
    cases = collected.pass_cases
    verdicts = collected.verdicts
    if args.filter:
        verdicts = [v for v in verdicts if args.filter in v[0]]
        modules = [m for m in modules if args.filter in m[0]]
        cases = [c for c in cases if args.filter in c[0]]
    workdir = args.keep or os.path.join(tmp.name, "work")
    os.makedirs(workdir, exist_ok=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        rt = list(pool.map(lambda im: round_trip(graft, workdir, im[0], im[1][1]),
                           enumerate(modules)))
        pr = list(pool.map(lambda ic: pass_case(graft, workdir, ic[0], ic[1]), enumerate(cases)))
        vr = list(pool.map(lambda iv: verdict(graft, workdir, iv[0], iv[1]), enumerate(verdicts)))

    results = {"modules": [], "pass_cases": [], "verdicts": []}
    classes = collections.defaultdict(list)
    for (where, _), r in zip(modules, rt):
        results["modules"].append({"where": where, "ok": r is None,
                                   "stage": r and r[0], "error": r and r[1]})
        if r:
            classes["%s: %s" % (r[0], error_class(r[1]))].append("%s: %s" % (where, r[1][:200]))
    ok = sum(1 for r in rt if r is None)
    print("TVM parity: %s" % (args.tvm or "%s at %s" % (args.tvm_git, args.tag)))
    print()
    print("Round trip (parse, verify, print, parse back, equal): %d of %d modules (%.1f%%)"
          % (ok, len(modules), 100.0 * ok / max(1, len(modules))))
    for reason, n in collected.skipped.most_common():
        print("  not counted: %d %s (e.g. %s)" % (n, reason, collected.skip_examples[reason]))
    print()
    print("Failure classes (count, stage: first error line):")
    for cls, wheres in sorted(classes.items(), key=lambda kv: -len(kv[1]))[: args.show]:
        print("  %4d  %s" % (len(wheres), cls))
        for w in wheres[: args.examples]:
            print("          e.g. %s" % w)
    if len(classes) > args.show:
        rest = sorted(classes.items(), key=lambda kv: -len(kv[1]))[args.show:]
        print("  ... %d more classes, %d modules" % (len(rest), sum(len(w) for _, w in rest)))

    print()
    per_pass = collections.defaultdict(lambda: [0, 0])
    pass_classes = collections.defaultdict(list)
    for case, r in zip(cases, pr):
        per_pass[case[1]][1] += 1
        if r is None:
            per_pass[case[1]][0] += 1
        else:
            pass_classes["%s: %s" % (case[1], error_class(r))].append("%s: %s" % (case[0], r[:200]))
        results["pass_cases"].append({"where": case[0], "pass": case[1], "ok": r is None,
                                      "error": r})
    for title, group in (("General passes", GENERAL_PASSES), ("Lowering passes", LOWERING_PASSES)):
        names = sorted(set(group.values()))
        good = sum(per_pass[n][0] for n in names)
        total = sum(per_pass[n][1] for n in names)
        print("%s: %d of %d cases give Expected (%.1f%%)"
              % (title, good, total, 100.0 * good / max(1, total)))
        for n in names:
            if per_pass[n][1]:
                print("  %-26s %d of %d" % (n, per_pass[n][0], per_pass[n][1]))
    for reason, n in collected.pass_skipped.most_common():
        print("  not counted: %d cases, %s" % (n, reason))
    if pass_classes:
        print()
        print("Pass failures:")
        for cls, wheres in sorted(pass_classes.items(), key=lambda kv: -len(kv[1])):
            print("  %4d  %s" % (len(wheres), cls))
            for w in wheres[: args.examples]:
                print("          e.g. %s" % w)
    print()
    good = sum(1 for r in vr if r is None)
    print("Well-formed verdicts: %d of %d match TVM's (%.1f%%)"
          % (good, len(vr), 100.0 * good / max(1, len(vr))))
    for reason, n in collected.verdict_skipped.most_common():
        print("  not counted: %d, %s" % (n, reason))
    for (where, _, expected), r in zip(verdicts, vr):
        results["verdicts"].append({"where": where, "tvm_well_formed": expected, "ok": r is None,
                                    "error": r})
        if r:
            print("  differs: %s: %s" % (where, r[:200]))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
