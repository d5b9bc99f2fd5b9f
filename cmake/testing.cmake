# The tests' build: the harness every test folder shares (tests/harness/drape_test.h), the one test
# program per folder built from its test_list.h, and the reading of that list, so that C and CMake
# take the tests from the same lines. Included when BUILD_TESTING is ON.
include_guard(GLOBAL)
get_filename_component(DRAPE_TEST_HARNESS_DIR "${CMAKE_CURRENT_LIST_DIR}/../tests/harness" ABSOLUTE)

if(NOT TARGET drape_test_harness)
  add_library(drape_test_harness STATIC "${DRAPE_TEST_HARNESS_DIR}/harness.c")
  target_include_directories(drape_test_harness PUBLIC "${DRAPE_TEST_HARNESS_DIR}")
  target_link_libraries(drape_test_harness PUBLIC m)
  if(TARGET drape_warnings)
    target_link_libraries(drape_test_harness PUBLIC drape_warnings)
  endif()
endif()

# drape_test_list(FILE MACRO OUT): the names of the X(name) entries of `#define MACRO(X)` in FILE
# (a test_list.h), in their order. A change to FILE re-runs CMake.
function(drape_test_list file macro out)
  get_filename_component(file "${file}" ABSOLUTE)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
  file(READ "${file}" text)
  string(REGEX MATCH "#define ${macro}\\(X\\)([^\n]*\\\\\n)*[^\n]*" block "${text}")
  if(NOT block)
    message(FATAL_ERROR "${file}: no `#define ${macro}(X)` list")
  endif()
  string(REGEX REPLACE "#define ${macro}\\(X\\)" "" block "${block}")
  string(REGEX MATCHALL "X\\([a-z0-9_]+\\)" entries "${block}")
  set(names)
  foreach(entry IN LISTS entries)
    string(REGEX REPLACE "X\\(([a-z0-9_]+)\\)" "\\1" name "${entry}")
    list(APPEND names ${name})
  endforeach()
  set(${out} ${names} PARENT_SCOPE)
endfunction()

# drape_test_program(TARGET SOURCES...): the test program of the calling folder: the harness's main
# over the folder's test_list.h (TEST_LIST(X)) and the given sources.
function(drape_test_program target)
  add_executable(${target} "${DRAPE_TEST_HARNESS_DIR}/test_main.c" ${ARGN})
  target_include_directories(${target} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
  target_link_libraries(${target} PRIVATE drape_test_harness)
endfunction()
