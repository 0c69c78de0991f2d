# Run by CTest (see gtest_suites.cmake): adds "BINARY:Suite" for every suite the binary lists.
if(NOT EXISTS "${UNIFERENCE_GTEST_BINARY}")
  add_test("${UNIFERENCE_GTEST_NAME}:NOT_BUILT" "${UNIFERENCE_GTEST_BINARY}")
  return()
endif()
execute_process(COMMAND "${UNIFERENCE_GTEST_BINARY}" --gtest_list_tests
                OUTPUT_VARIABLE listing RESULT_VARIABLE result TIMEOUT 120)
if(NOT result EQUAL 0)
  # Listing failed: a test that runs the listing again shows why.
  add_test("${UNIFERENCE_GTEST_NAME}:LIST_TESTS" "${UNIFERENCE_GTEST_BINARY}" --gtest_list_tests)
  return()
endif()
string(REPLACE ";" "," listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  # A suite line starts in column 0 and ends its name with a dot ("Suite." or
  # "Prefix/Suite.  # TypeParam = ..."); test lines are indented.
  if(line MATCHES "^([^ ]+)\\.( .*)?$")
    set(name "${UNIFERENCE_GTEST_NAME}:${CMAKE_MATCH_1}")
    add_test("${name}" "${UNIFERENCE_GTEST_BINARY}" "--gtest_filter=${CMAKE_MATCH_1}.*")
    set_tests_properties("${name}" PROPERTIES TIMEOUT ${UNIFERENCE_GTEST_TIMEOUT})
  endif()
endforeach()
