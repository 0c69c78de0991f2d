# What the ns-3 that find_package found was built with, for everything that includes its
# headers. Logging changes the layout of some public classes (UdpClient, for one), so a
# program must define NS3_LOG_ENABLE exactly when its ns-3 did: Debian's package did, the
# release build of scripts/build-ns3.sh did not. The installed ns-3 does not record it, so a
# probe linked against it is run once and the answer cached (UNIFERENCE_NS3_LOGGING).
#
# Asserts follow logging: where ns-3 kept its checks (Debian's package), the module and the
# project keep NS_ASSERT too, as an ns-3 debug build would; a release ns-3 gets none.
#
# Sets: UNIFERENCE_NS3_LOGGING (ON/OFF), UNIFERENCE_NS3_DEFINITIONS (what every program that
# includes ns-3 headers defines), UNIFERENCE_NS3_CHECK_DEFINITIONS (asserts, private to each
# target that wants them), UNIFERENCE_NS3_PREFIX (the ns-3 install prefix).
include_guard(GLOBAL)

get_filename_component(UNIFERENCE_NS3_PREFIX "${ns3_DIR}/../../.." ABSOLUTE)
if(NOT DEFINED UNIFERENCE_NS3_LOGGING OR NOT UNIFERENCE_NS3_LOGGING_PROBED_DIR STREQUAL ns3_DIR)
  set(probe_dir ${CMAKE_BINARY_DIR}/ns3-logging-probe)
  try_run(probe_ran probe_compiled ${probe_dir} ${CMAKE_CURRENT_LIST_DIR}/ns3-logging-probe.cc
          CXX_STANDARD 17
          LINK_LIBRARIES ns3::libcore
          COMPILE_OUTPUT_VARIABLE probe_compile_output
          RUN_OUTPUT_VARIABLE probe_output)
  if(NOT probe_compiled OR NOT probe_ran EQUAL 0)
    message(FATAL_ERROR "could not build and run a program against ns-3 ${ns3_VERSION} "
                        "(${ns3_DIR}) to learn whether it has logging:\n${probe_compile_output}")
  endif()
  if(probe_output MATCHES "Destroy")
    set(logging ON)
  else()
    set(logging OFF)
  endif()
  set(UNIFERENCE_NS3_LOGGING ${logging} CACHE BOOL "ns-3 was built with logging compiled in" FORCE)
  set(UNIFERENCE_NS3_LOGGING_PROBED_DIR ${ns3_DIR} CACHE INTERNAL "")
endif()
set(UNIFERENCE_NS3_DEFINITIONS "")
set(UNIFERENCE_NS3_CHECK_DEFINITIONS "")
if(UNIFERENCE_NS3_LOGGING)
  set(UNIFERENCE_NS3_DEFINITIONS NS3_LOG_ENABLE)
  set(UNIFERENCE_NS3_CHECK_DEFINITIONS NS3_ASSERT_ENABLE)
endif()
message(STATUS "ns-3 ${ns3_VERSION} in ${UNIFERENCE_NS3_PREFIX}: logging ${UNIFERENCE_NS3_LOGGING}")
