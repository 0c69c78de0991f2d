# One CTest test per GoogleTest suite instead of one per test, for test binaries that link
# libtorch: every such process spends about a second registering libtorch's operators before
# its first test runs, which over bridge_tests' ~190 tests was three minutes of CPU per run.
# The suites are listed when CTest runs (as gtest_discover_tests' PRE_TEST mode does), so a
# new test or suite needs no CMake change. A failing suite's output names the failing test.
#
#   uniference_gtest_suites(TARGET [TIMEOUT seconds])
set(UNIFERENCE_GTEST_SUITES_DIR ${CMAKE_CURRENT_LIST_DIR})

function(uniference_gtest_suites target)
  cmake_parse_arguments(arg "" "TIMEOUT" "" ${ARGN})
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 600)
  endif()
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake")
  file(GENERATE OUTPUT "${include_file}" CONTENT
"set(UNIFERENCE_GTEST_BINARY \"$<TARGET_FILE:${target}>\")
set(UNIFERENCE_GTEST_NAME \"${target}\")
set(UNIFERENCE_GTEST_TIMEOUT ${arg_TIMEOUT})
include(\"${UNIFERENCE_GTEST_SUITES_DIR}/gtest_suites_add.cmake\")
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
