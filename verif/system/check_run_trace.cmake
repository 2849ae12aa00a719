# SPDX-License-Identifier: Apache-2.0
# Runs `wormcast run ... --trace <OUT>` and reads the waveform back with fst_summary (the FST reader
# Verilator ships): one top scope per router of the network, and the routers' in_valid_i inputs
# change (the worms' flits went through them).
# Usage: cmake -DWORMCAST=<path> -DFST_SUMMARY=<path> -DOUT=<file.fst> -DROUTERS=<count>
#              "-DARGS=<arguments;...>" -P check_run_trace.cmake
file(REMOVE ${OUT})
execute_process(COMMAND ${WORMCAST} run ${ARGS} --trace ${OUT} OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "check: pass")
  message(FATAL_ERROR "wormcast run --trace exited ${rc}: ${out}${err}")
endif()
file(SIZE ${OUT} size)
if(size EQUAL 0)
  message(FATAL_ERROR "${OUT} is empty")
endif()
execute_process(COMMAND ${FST_SUMMARY} ${OUT} in_valid_i OUTPUT_VARIABLE summary ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fst_summary cannot read ${OUT}: ${err}")
endif()
if(NOT summary MATCHES "top scopes \\(${ROUTERS}\\): router0 ")
  message(FATAL_ERROR "expected ${ROUTERS} router scopes in the waveform:\n${summary}")
endif()
if(NOT summary MATCHES "variables named in_valid_i: [1-9][0-9]*, their changes: [1-9]")
  message(FATAL_ERROR "no router input changes in the waveform:\n${summary}")
endif()
message(STATUS "${OUT} (${size} bytes):\n${summary}")
