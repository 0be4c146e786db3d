# Warnings, sanitizers and the helper that builds one library per folder.

set(GRAFT_WARNINGS -Wall -Wextra -Wno-unused-parameter)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # LLVM 14 headers trip these under g++ 12 even when included as SYSTEM in templates.
  list(APPEND GRAFT_WARNINGS -Wno-maybe-uninitialized -Wno-array-bounds -Wno-stringop-overflow -Wno-restrict)
endif()

if(GRAFT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

if(GRAFT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GRAFT_FUZZ needs clang (CC=clang-14 CXX=clang++-14)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

# graft_add_library(NAME DIR DEPS...): a static library of every .cpp in DIR
# (CONFIGURE_DEPENDS, so a new file needs no CMake edit). Each one is
# installed and exported as graft::<NAME without graft_> (cmake/GraftInstall.cmake);
# headers are included as "<folder>/<file>.h" from the source root, or from
# include/graft once installed.
function(graft_add_library name dir)
  file(GLOB srcs CONFIGURE_DEPENDS ${dir}/*.cpp ${dir}/*/*.cpp)
  string(REGEX REPLACE "^graft_" "" export_name ${name})
  set_property(GLOBAL APPEND PROPERTY GRAFT_LIBRARIES ${name})
  if(NOT srcs)
    # A folder whose first source has not landed yet still names its dependencies.
    add_library(${name} INTERFACE)
    target_link_libraries(${name} INTERFACE ${ARGN})
    set_target_properties(${name} PROPERTIES EXPORT_NAME ${export_name})
    return()
  endif()
  add_library(${name} STATIC ${srcs})
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${GRAFT_WARNINGS}>)
  if(GRAFT_HAS_PYTHON)
    # The libraries link into the Python module too (python/CMakeLists.txt):
    # position-independent code. Without semantic interposition, calls
    # inside a library stay direct and inlinable, as in executable code.
    set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-semantic-interposition>)
  endif()
  target_link_libraries(${name} PUBLIC ${ARGN})
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}>
                                            $<INSTALL_INTERFACE:include/graft>)
  target_compile_features(${name} PUBLIC cxx_std_20)
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${export_name})
endfunction()

# LLVM Support for a whole-archive link: Debian's libLLVMSupport.a also holds
# LLVM's binding of the Z3 solver, which nothing in graft calls but which,
# linked whole, would make every such binary need libz3 at run time. The
# copy below leaves that one object out; its other dependencies stay.
function(graft_add_llvm_support_whole)
  get_target_property(archive LLVMSupport LOCATION)
  get_target_property(deps LLVMSupport INTERFACE_LINK_LIBRARIES)
  set(copy ${CMAKE_BINARY_DIR}/llvm/libLLVMSupportWhole.a)
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/llvm)
  file(COPY_FILE ${archive} ${copy} ONLY_IF_DIFFERENT)
  execute_process(COMMAND ${CMAKE_AR} t ${copy} OUTPUT_VARIABLE members)
  if(members MATCHES "Z3Solver.cpp.o")
    execute_process(COMMAND ${CMAKE_AR} d ${copy} Z3Solver.cpp.o COMMAND_ERROR_IS_FATAL ANY)
  endif()
  list(FILTER deps EXCLUDE REGEX "z3")
  # The plain archive reaches the same links through graft's libraries:
  # without this, a link that does not default to --as-needed (sanitizer
  # builds) records libz3 as needed although no object uses it.
  set_target_properties(LLVMSupport PROPERTIES INTERFACE_LINK_LIBRARIES "${deps}")
  add_library(graft_llvm_support_whole STATIC IMPORTED GLOBAL)
  set_target_properties(graft_llvm_support_whole PROPERTIES IMPORTED_LOCATION ${copy}
                                                            INTERFACE_LINK_LIBRARIES "${deps}")
endfunction()

# graft_link_whole_archive(TARGET [LIBS...]): links every object of graft's
# libraries (and LIBS, and LLVM Support) into TARGET and exports their
# symbols, so pass plugins loaded into it bind to one copy of everything
# (pass/PassPlugin.h, docs/packaging.md): a plugin may call any public
# function, not only those TARGET happens to use.
function(graft_link_whole_archive target)
  set(libs ${ARGN} graft_codegen graft_transforms graft_pass graft_analysis graft_text graft_ir
           graft_vm graft_kernels graft_llvm_support_whole)
  string(REPLACE ";" "," list "${libs}")
  target_link_libraries(${target} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${list}>")
  # The libraries also reach the link as each other's dependencies; the
  # override makes every appearance whole-archive.
  set_target_properties(${target} PROPERTIES LINK_LIBRARY_OVERRIDE "WHOLE_ARCHIVE,${list}")
endfunction()
