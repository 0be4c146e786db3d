# The Python module `graft` (python/, docs/python.md) is optional: built when
# pybind11 and the Python headers are found (GRAFT_PYTHON=AUTO), skipped with
# a message otherwise. Debian's python3-pybind11 and python3-dev provide them;
# the interpreter is Debian's /usr/bin/python3 unless Python3_EXECUTABLE says
# otherwise (a python3 earlier on PATH may lack numpy).
set(GRAFT_PYTHON "AUTO" CACHE STRING "Build the Python module: ON, OFF or AUTO (when pybind11 is found)")
set(GRAFT_HAS_PYTHON OFF)
set(graft_python_mode ${GRAFT_PYTHON})
if(GRAFT_FUZZ AND GRAFT_PYTHON STREQUAL "AUTO")
  set(graft_python_mode OFF) # A libFuzzer build is for the fuzz targets only.
endif()
if(NOT graft_python_mode STREQUAL "OFF")
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python3 COMPONENTS Interpreter Development.Module)
  if(Python3_FOUND)
    find_package(pybind11 CONFIG)
  endif()
  if(Python3_FOUND AND pybind11_FOUND)
    set(GRAFT_HAS_PYTHON ON)
  elseif(GRAFT_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "GRAFT_PYTHON=ON but pybind11 or the Python headers were not found "
                        "(tools/setup.sh installs python3-pybind11 and python3-dev)")
  endif()
endif()
if(GRAFT_HAS_PYTHON)
  message(STATUS "graft Python module: ON (${Python3_EXECUTABLE}, pybind11 ${pybind11_VERSION})")
elseif(GRAFT_FUZZ AND graft_python_mode STREQUAL "OFF")
  message(STATUS "graft Python module: OFF (a libFuzzer build)")
elseif(graft_python_mode STREQUAL "OFF")
  message(STATUS "graft Python module: OFF (GRAFT_PYTHON=OFF)")
else()
  message(STATUS "graft Python module: OFF (needs pybind11 and the Python headers: "
                 "tools/setup.sh installs python3-pybind11 python3-dev)")
endif()
