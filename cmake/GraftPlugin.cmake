# graft_add_pass_plugin(NAME SOURCES...): a pass plugin (pass/PassPlugin.h)
# that `graft opt --load-pass-plugin=$<TARGET_FILE:NAME>` loads. It links no
# graft library: its references bind, when graft loads it, to the symbols the
# graft executable exports (docs/packaging.md). Default visibility, so that
# inline functions and template instances it shares with graft (a static
# local, a type's info) bind to graft's one copy. Used in-tree
# (examples/plugin, tests/plugin) and by the installed graftConfig.cmake.
function(graft_add_pass_plugin name)
  add_library(${name} MODULE ${ARGN})
  target_link_libraries(${name} PRIVATE graft::plugin)
  set_target_properties(${name} PROPERTIES PREFIX "")
endfunction()
