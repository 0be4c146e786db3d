# The lit suite (docs/testing.md): each .py file under tests/lit is a test
# whose `# RUN:` lines run graft and check its output with FileCheck. ctest
# runs it through LLVM 14's lit with the paths of graft and FileCheck:
#
#   python3 /usr/lib/llvm-14/build/utils/lit/lit.py -sv tests/lit \
#       --param graft=build/tools/graft --param filecheck=/usr/bin/FileCheck-14
import os

import lit.formats

config.name = "graft"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".py"]
config.excludes = ["lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = lit_config.params.get(
    "exec_root", os.path.join(config.test_source_root, "Output"))


def tool(param):
    path = lit_config.params.get(param)
    if not path:
        lit_config.fatal("give --param %s=PATH" % param)
    return os.path.abspath(path)


config.substitutions.append(("%graft", tool("graft")))
config.substitutions.append(("FileCheck", tool("filecheck")))
