#!/usr/bin/env python3
"""Runs tools/tvm-parity.py on tvm-parity-sample/ and checks what it selects and reports."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    graft, root = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "results.json")
        report = subprocess.run(
            [sys.executable, os.path.join(root, "tools", "tvm-parity.py"), "--tvm",
             os.path.join(HERE, "tvm-parity-sample"), "--graft", graft, "--json", out, "-j", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=True).stdout.decode()
        with open(out) as f:
            results = json.load(f)
    print(report)
    failures = []

    def check(what, ok):
        if not ok:
            failures.append(what)

    modules = {m["where"].split(":")[-1]: m for m in results["modules"]}
    # Plain, standalone, UnknownOp, Codes, ImpureInPure and the four Before/Expected classes; not
    # UsesDtype
    # (reads the Python name dtype) nor Bad (inside pytest.raises).
    check("9 modules selected, got %d" % len(modules), len(modules) == 9)
    check("Plain round-trips", modules.get("13", {}).get("ok"))
    check("the standalone function round-trips", modules.get("21", {}).get("ok"))
    check("MS.STORE_TO_HEAP is read as 1", modules.get("97", {}).get("ok"))
    bad = modules.get("47", {})
    check("UnknownOp fails at parse", bad.get("stage") == "parse"
          and "unknown op R.no_such_op" in (bad.get("error") or ""))
    cases = {c["pass"]: c for c in results["pass_cases"]}
    check("two pass cases", len(results["pass_cases"]) == 2)
    check("the xfail case is not counted",
          "1 cases, in a test marked xfail (TVM does not give Expected)" in report)
    check("the DCE case gives Expected", cases.get("dead-code-elimination", {}).get("ok"))
    check("the helper's case gives Expected", cases.get("canonicalize-bindings", {}).get("ok"))
    check("the report gives the rate", "8 of 9 modules (88.9%)" in report)
    verdicts = results["verdicts"]
    check("one verdict, matching", len(verdicts) == 1 and verdicts[0]["ok"]
          and verdicts[0]["tvm_well_formed"] is False)
    check("the report gives the verdicts", "Well-formed verdicts: 1 of 1 match" in report)
    check("the report counts the metaprogramming module", "1 metaprogramming" in report)
    check("the report groups the failure", "parse: error: unknown op R.no_such_op" in report)
    for f in failures:
        print("FAILED: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
