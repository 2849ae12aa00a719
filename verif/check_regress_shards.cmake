# SPDX-License-Identifier: Apache-2.0
# `make regress` honours GoogleTest's sharding variables. Runs the regression's
# run step (`make regress-run`, the build already done) on a cheap filter of its tests, unsharded
# and as shards 0/2 and 1/2: each shard says which it is and runs some of the tests, and together
# they run exactly as many as the unsharded run.
# Usage: cmake -DSOURCE=<repository> -DBUILD=<build directory> -P check_regress_shards.cmake
set(filter "REGRESS_ARGS=--gtest_filter=RandomMixGenerator.*")
function(passed_tests out_var)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ARGN} make -s -C ${SOURCE} regress-run BUILD=${BUILD}
                          REGRESS_SCALE=1 ${filter}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\\[  PASSED  \\] ([0-9]+) tests?\\.")
    message(FATAL_ERROR "make regress-run (${ARGN}) exited ${rc}:\n${out}${err}")
  endif()
  set(${out_var} ${CMAKE_MATCH_1} PARENT_SCOPE)
  set(${out_var}_log "${out}" PARENT_SCOPE)
endfunction()

passed_tests(all --unset=GTEST_TOTAL_SHARDS --unset=GTEST_SHARD_INDEX)
passed_tests(first GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=0)
passed_tests(second GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=1)
if(NOT first_log MATCHES "regress: GoogleTest shard 0 of 2" OR NOT second_log MATCHES "regress: GoogleTest shard 1 of 2")
  message(FATAL_ERROR "the shards do not say which they are:\n${first_log}\n${second_log}")
endif()
math(EXPR together "${first} + ${second}")
if(all LESS 2 OR first EQUAL 0 OR second EQUAL 0 OR NOT together EQUAL all)
  message(FATAL_ERROR "unsharded ${all} tests; shards 0/2 and 1/2 ran ${first} and ${second}")
endif()
message(STATUS "make regress: ${all} tests unsharded = ${first} (shard 0/2) + ${second} (shard 1/2)")
