# The NCCL backend. nccl_comm.cpp is always part of uniference_compute; it talks to NCCL
# only where the CUDA runtime and NCCL are both found, and otherwise compiles to functions
# that say the backend is unavailable, so a machine without CUDA builds everything.
#
# Where to look (docs/nccl.md): -DCUDAToolkit_ROOT=..., -DNCCL_ROOT=... (or the environment
# variables of those names, or CUDA_HOME), then /usr/local/cuda and the system's paths.
# -DUNIFERENCE_NCCL=OFF builds without the backend even where NCCL is found.
# find_path/find_library rather than FindCUDAToolkit: that module needs CMake 3.17, and
# all this needs is one header and one library of each.

option(UNIFERENCE_NCCL "Build the NCCL backend where the CUDA runtime and NCCL are found" ON)

target_sources(uniference_compute PRIVATE ${CMAKE_CURRENT_LIST_DIR}/nccl_comm.cpp)

set(_uniference_cuda_hints
  ${CUDAToolkit_ROOT} $ENV{CUDAToolkit_ROOT} $ENV{CUDA_HOME} $ENV{CUDA_PATH} /usr/local/cuda)
set(_uniference_nccl_hints ${NCCL_ROOT} $ENV{NCCL_ROOT} $ENV{NCCL_HOME} ${_uniference_cuda_hints})
set(_uniference_include_suffixes
  include targets/x86_64-linux/include targets/sbsa-linux/include)
set(_uniference_library_suffixes
  lib64 lib lib/x86_64-linux-gnu targets/x86_64-linux/lib targets/sbsa-linux/lib)

set(_uniference_nccl_why "")
if(NOT UNIFERENCE_NCCL)
  set(_uniference_nccl_why "UNIFERENCE_NCCL is OFF")
else()
  find_path(UNIFERENCE_CUDART_INCLUDE_DIR cuda_runtime.h
    HINTS ${_uniference_cuda_hints} PATH_SUFFIXES ${_uniference_include_suffixes})
  find_library(UNIFERENCE_CUDART_LIBRARY cudart
    HINTS ${_uniference_cuda_hints} PATH_SUFFIXES ${_uniference_library_suffixes})
  find_path(UNIFERENCE_NCCL_INCLUDE_DIR nccl.h
    HINTS ${_uniference_nccl_hints} PATH_SUFFIXES ${_uniference_include_suffixes})
  find_library(UNIFERENCE_NCCL_LIBRARY nccl
    HINTS ${_uniference_nccl_hints} PATH_SUFFIXES ${_uniference_library_suffixes})
  foreach(_found IN ITEMS UNIFERENCE_CUDART_INCLUDE_DIR UNIFERENCE_CUDART_LIBRARY
                          UNIFERENCE_NCCL_INCLUDE_DIR UNIFERENCE_NCCL_LIBRARY)
    if(NOT ${_found})
      string(APPEND _uniference_nccl_why " ${_found}")
    endif()
  endforeach()
  if(_uniference_nccl_why)
    set(_uniference_nccl_why "not found:${_uniference_nccl_why} (see docs/nccl.md)")
  endif()
endif()

if(_uniference_nccl_why STREQUAL "")
  # The version, from the header, for the configure log.
  file(STRINGS ${UNIFERENCE_NCCL_INCLUDE_DIR}/nccl.h _uniference_nccl_defines
    REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) ")
  string(REGEX REPLACE "[^0-9;]" "" _uniference_nccl_version "${_uniference_nccl_defines}")
  string(REPLACE ";" "." _uniference_nccl_version "${_uniference_nccl_version}")
  # The header names no CUDA types, so CUDA stays private; the definition is public so
  # that code linking the library can ask whether the backend was built.
  target_compile_definitions(uniference_compute PUBLIC UNIFERENCE_HAVE_NCCL=1)
  target_include_directories(uniference_compute PRIVATE
    ${UNIFERENCE_CUDART_INCLUDE_DIR} ${UNIFERENCE_NCCL_INCLUDE_DIR})
  target_link_libraries(uniference_compute PRIVATE
    ${UNIFERENCE_NCCL_LIBRARY} ${UNIFERENCE_CUDART_LIBRARY})
  message(STATUS "NCCL backend: built (NCCL ${_uniference_nccl_version}: "
                 "${UNIFERENCE_NCCL_LIBRARY}; CUDA runtime: ${UNIFERENCE_CUDART_LIBRARY})")
else()
  message(STATUS "NCCL backend: not built, ${_uniference_nccl_why}")
endif()

# Built everywhere: without a GPU its tests report why they skip.
add_executable(nccl_tests ${CMAKE_CURRENT_LIST_DIR}/../test/nccl_comm_test.cpp)
target_link_libraries(nccl_tests PRIVATE uniference_compute GTest::gtest GTest::gtest_main)
include(GoogleTest)
gtest_discover_tests(nccl_tests DISCOVERY_TIMEOUT 60)
