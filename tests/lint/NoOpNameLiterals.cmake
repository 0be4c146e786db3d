# Fails when a source file of the compiler outside ir/ (passes, analyses,
# codegen, tools, the pass library) names an op by a string: a "relax.*"
# literal, or a comparison or prefix check on an op's script name. Passes ask
# the op's traits or compare handles (ir/ops/OpHandles.h); attribute and
# config keys are the named constants of ir/AttrKeys.h.
#
# cmake -DROOT=<source dir> -P NoOpNameLiterals.cmake
if(NOT ROOT)
  message(FATAL_ERROR "pass -DROOT=<source dir>")
endif()

set(folders analysis codegen pass tools transforms viz)
string(CONCAT pattern "\"relax\\.|"
                      "scriptName\\(\\) *(==|!=)|"
                      "scriptName\\(\\)\\.(startswith|starts_with|consume_front|endswith)")

set(found "")
foreach(folder ${folders})
  file(GLOB_RECURSE srcs ${ROOT}/${folder}/*.cpp ${ROOT}/${folder}/*.h)
  foreach(src ${srcs})
    file(STRINGS ${src} lines REGEX "${pattern}")
    foreach(line ${lines})
      file(RELATIVE_PATH rel ${ROOT} ${src})
      string(STRIP "${line}" line)
      string(APPEND found "  ${rel}: ${line}\n")
    endforeach()
  endforeach()
endforeach()

if(found)
  message(FATAL_ERROR "op names spelled as strings outside ir/ (use the op's traits, an "
                      "ir/ops/OpHandles.h handle, or an ir/AttrKeys.h constant):\n${found}")
endif()
message(STATUS "no op-name literals in ${folders}")
