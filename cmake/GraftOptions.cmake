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
# (CONFIGURE_DEPENDS, so a new file needs no CMake edit).
function(graft_add_library name dir)
  file(GLOB srcs CONFIGURE_DEPENDS ${dir}/*.cpp ${dir}/*/*.cpp)
  if(NOT srcs)
    # A folder whose first source has not landed yet still names its dependencies.
    add_library(${name} INTERFACE)
    target_link_libraries(${name} INTERFACE ${ARGN})
    return()
  endif()
  add_library(${name} STATIC ${srcs})
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${GRAFT_WARNINGS}>)
  target_link_libraries(${name} PUBLIC ${ARGN})
endfunction()
