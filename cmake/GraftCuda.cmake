# CUDA is optional: found automatically when nvcc is there (CI has nvcc, no GPU).
set(GRAFT_HAS_CUDA OFF)
if(NOT GRAFT_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(GRAFT_HAS_CUDA ON)
    if(GRAFT_CCACHE)
      set(CMAKE_CUDA_COMPILER_LAUNCHER ${GRAFT_CCACHE})
    endif()
  elseif(GRAFT_CUDA STREQUAL "ON")
    message(FATAL_ERROR "GRAFT_CUDA=ON but no CUDA compiler was found")
  endif()
endif()
message(STATUS "graft CUDA kernels: ${GRAFT_HAS_CUDA}")

# graft_cuda_target(TARGET): the flags every CUDA target of graft builds with.
function(graft_cuda_target target)
  set_target_properties(${target} PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON
                                             POSITION_INDEPENDENT_CODE ON)
  # 186: "pointless comparison of unsigned integer with zero" in the op
  # table's generic expressions instantiated for uint8.
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wno-unused-parameter --Werror=all-warnings -diag-suppress=186>)
endfunction()
