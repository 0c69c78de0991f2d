# libtorch's ATen.h costs about 20 s of compiling in every file that includes it (most of
# this project's), so those targets share one precompiled copy of it. Included at the end of
# the top-level CMakeLists.txt, once every target exists: a target gets the precompiled
# header when it links one of the project's libtorch-using libraries (or libtorch), so a new
# target gets it without a word. -DUNIFERENCE_PCH=OFF compiles without it.
option(UNIFERENCE_PCH "Share one precompiled libtorch header between targets" ON)

if(UNIFERENCE_PCH)
  add_library(uniference_torch_pch STATIC ${CMAKE_CURRENT_LIST_DIR}/torch_pch.cpp)
  target_link_libraries(uniference_torch_pch PRIVATE ${TORCH_LIBRARIES})
  target_precompile_headers(uniference_torch_pch PRIVATE <ATen/ATen.h>)

  # Every target defined in `dir` and below.
  function(uniference_targets_under dir out)
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    foreach(sub IN LISTS subdirs)
      uniference_targets_under(${sub} more)
      list(APPEND targets ${more})
    endforeach()
    set(${out} ${targets} PARENT_SCOPE)
  endfunction()

  set(torch_users uniference_compute uniference_bridge uniference_compute_check uniference_app
                  uniference_deploy ${TORCH_LIBRARIES})
  uniference_targets_under(${PROJECT_SOURCE_DIR} all_targets)
  foreach(target IN LISTS all_targets)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(STATIC_LIBRARY|EXECUTABLE)$" OR target STREQUAL uniference_torch_pch)
      continue()
    endif()
    get_target_property(links ${target} LINK_LIBRARIES)
    set(uses_torch OFF)
    foreach(link IN LISTS links)
      if(link IN_LIST torch_users)
        set(uses_torch ON)
      endif()
    endforeach()
    if(uses_torch)
      target_precompile_headers(${target} REUSE_FROM uniference_torch_pch)
    endif()
  endforeach()
endif()
