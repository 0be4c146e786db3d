# cmake --install: the public headers under include/graft/<folder>, the
# static libraries, the graft tool (and libgraft_cuda.so beside it), and a
# CMake package, so that another project's
#
#   find_package(graft 0.1 REQUIRED)
#   target_link_libraries(mytool PRIVATE graft::transforms graft::codegen)
#   graft_add_pass_plugin(my_passes MyPass.cpp)
#
# works (docs/packaging.md). Targets are exported as graft::<folder>.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# graft::plugin: what a pass plugin compiles against. Headers only: the
# plugin's references resolve to the symbols graft exports (tools/CMakeLists.txt).
add_library(graft_plugin INTERFACE)
target_include_directories(graft_plugin INTERFACE $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}>
                                                  $<INSTALL_INTERFACE:include/graft>)
target_compile_features(graft_plugin INTERFACE cxx_std_20)
set_target_properties(graft_plugin PROPERTIES EXPORT_NAME plugin)
add_library(graft::plugin ALIAS graft_plugin)
get_property(graft_libraries GLOBAL PROPERTY GRAFT_LIBRARIES)
foreach(lib ${graft_libraries})
  string(REGEX REPLACE "^graft_" "" short ${lib})
  add_library(graft::${short} ALIAS ${lib})
endforeach()
add_executable(graft::graft ALIAS graft)
include(cmake/GraftPlugin.cmake)

set(graft_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/graft)
install(TARGETS ${graft_libraries} graft_plugin graft EXPORT graftTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The VM looks for libgraft_cuda.so in ../lib next to the executable.
if(TARGET graft_cuda)
  install(TARGETS graft_cuda LIBRARY DESTINATION lib)
endif()
foreach(dir ir text analysis viz pass transforms codegen vm kernels tools/testing)
  install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/graft/${dir}
          FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*.cuh")
endforeach()
install(EXPORT graftTargets NAMESPACE graft:: DESTINATION ${graft_cmake_dir})

set(GRAFT_CONFIG_HAS_CUDA ${GRAFT_HAS_CUDA})
configure_package_config_file(cmake/graftConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/cmake/graftConfig.cmake
                              INSTALL_DESTINATION ${graft_cmake_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/graftConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/graftConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/graftConfigVersion.cmake cmake/GraftPlugin.cmake
        DESTINATION ${graft_cmake_dir})
