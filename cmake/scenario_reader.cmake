# The scenario reader and what it needs, in plain C++ (no ns-3, no libtorch): the sources of
# uniference_registries (compute/), uniference_trace (bridge/) and uniference_scenario
# (apps/), relative to the source root. The main build and the fuzzers' clang build
# (tests/fuzz/) both take them from here.
set(UNIFERENCE_REGISTRIES_SOURCES
  compute/serving/requests.cpp compute/serving/scheduler.cpp compute/replay_table.cpp
  compute/device_profile.cpp)
set(UNIFERENCE_TRACE_SOURCES bridge/chrome_trace.cpp bridge/trace_time.cpp bridge/run_recorder.cpp
                             bridge/job_record.cpp)
set(UNIFERENCE_SCENARIO_SOURCES
  apps/scenario_error.cpp
  apps/units.cpp
  apps/json_checker.cpp
  apps/scenario_keys.cpp
  apps/scenario_keys/top_level.cpp
  apps/scenario_keys/model.cpp
  apps/scenario_keys/parallel.cpp
  apps/scenario_keys/workload.cpp
  apps/scenario_keys/devices.cpp
  apps/scenario_keys/compute.cpp
  apps/scenario_keys/network.cpp
  apps/scenario_keys/collectives.cpp
  apps/scenario_keys/faults.cpp
  apps/scenario_keys/outputs.cpp
  apps/scenario_keys/jobs.cpp
  apps/scenario_jobs.cpp
  apps/scenario_key_reference.cpp
  apps/scenario_values.cpp
  apps/scenario.cpp
  apps/scenario_network.cpp
  apps/scenario_files.cpp
  apps/report.cpp
  apps/svg_plot.cpp
  apps/html_report.cpp
  apps/serving_report.cpp
  apps/record_json.cpp
  apps/alpha_beta_fit.cpp
  apps/wake_latency_file.cpp
  apps/format_file.cpp
  apps/atomic_file.cpp
)

# The device profile presets, devices/*.json, built into the registries: their texts become a
# generated source in the calling directory's binary folder, regenerated when a file changes
# (re-running CMake). Sets `out_var` to its path.
function(uniference_device_profile_files out_var)
  file(GLOB UNIFERENCE_DEVICE_FILES CONFIGURE_DEPENDS ${UNIFERENCE_SOURCE_ROOT}/devices/*.json)
  list(SORT UNIFERENCE_DEVICE_FILES)
  set(device_files_source "// Generated from devices/*.json by cmake/scenario_reader.cmake.\n#include <string>\n#include <utility>\n#include <vector>\nnamespace uniference {\nextern const std::vector<std::pair<std::string, std::string>> kDeviceProfileFiles;\nconst std::vector<std::pair<std::string, std::string>> kDeviceProfileFiles = {\n")
  foreach(device_file IN LISTS UNIFERENCE_DEVICE_FILES)
    get_filename_component(device_file_name ${device_file} NAME)
    file(READ ${device_file} device_file_text)
    string(APPEND device_files_source "  {\"${device_file_name}\", R\"uniference_json(${device_file_text})uniference_json\"},\n")
  endforeach()
  string(APPEND device_files_source "};\n}  // namespace uniference\n")
  file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/device_profile_files.cpp
       CONTENT "${device_files_source}" @ONLY)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${UNIFERENCE_DEVICE_FILES})
  set(${out_var} ${CMAKE_CURRENT_BINARY_DIR}/device_profile_files.cpp PARENT_SCOPE)
endfunction()

# Prefixes a list of source-root-relative paths with the source root.
function(uniference_sources out_var)
  set(paths)
  foreach(source IN LISTS ARGN)
    list(APPEND paths ${UNIFERENCE_SOURCE_ROOT}/${source})
  endforeach()
  set(${out_var} ${paths} PARENT_SCOPE)
endfunction()
