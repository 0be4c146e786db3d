"""Pass-test files (Before/Expected with `# PIPELINE:`, docs/testing.md), from
Python: the runner `graft test` uses.

    graft.testing.run_pass_test("tests/passes/dead-code-elimination/basic.py")
    graft.testing.run_pass_tests("tests/passes")      # every .py below
"""

import os

from . import _core


class PassTestFailure(AssertionError):
    """A pass-test file that failed: the message is graft test's report."""


def run_pass_test_text(text, name="test.py"):
    """Runs one pass test given as text; raises PassTestFailure on failure."""
    report = _core.run_pass_test(text, name)
    if report:
        raise PassTestFailure(f"{name}: {report}")


def run_pass_test(path):
    """Runs one pass-test file; raises PassTestFailure on failure."""
    with open(path, encoding="utf-8") as f:
        run_pass_test_text(f.read(), str(path))


def collect_pass_tests(root):
    """Every .py file below `root` (or `root` itself), sorted."""
    if os.path.isfile(root):
        return [str(root)]
    found = []
    for dirpath, _dirs, files in os.walk(root):
        found += [os.path.join(dirpath, f) for f in files if f.endswith(".py")]
    return sorted(found)


def run_pass_tests(root):
    """Runs every pass-test file below `root`; returns (passed, failures)
    where failures maps a path to its report."""
    failures = {}
    files = collect_pass_tests(root)
    for path in files:
        try:
            run_pass_test(path)
        except PassTestFailure as err:
            failures[path] = str(err)
    return len(files) - len(failures), failures
