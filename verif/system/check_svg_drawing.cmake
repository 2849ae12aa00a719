# SPDX-License-Identifier: Apache-2.0
# Runs `wormcast <SUBCOMMAND> ... --svg <OUT> --json` and checks the drawing with check_svg.py: one
# worm group per worm the JSON reports (plan: its worms; run: the worms the RTL carried), one source
# marker and one destination marker per destination.
# Usage: cmake -DWORMCAST=<path> -DPYTHON=<python3> -DCHECKER=<check_svg.py> -DOUT=<file.svg>
#              -DSUBCOMMAND=plan|run "-DARGS=<arguments;...>" -P check_svg_drawing.cmake
file(REMOVE ${OUT})
execute_process(COMMAND ${WORMCAST} ${SUBCOMMAND} ${ARGS} --svg ${OUT} --json OUTPUT_VARIABLE out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "wormcast ${SUBCOMMAND} --svg exited ${rc}: ${err}")
endif()
if(SUBCOMMAND STREQUAL "run")
  string(JSON worms GET "${out}" observed worms)
else()
  string(JSON worms LENGTH "${out}" worms)
endif()
string(JSON destinations LENGTH "${out}" destinations)
execute_process(COMMAND ${PYTHON} ${CHECKER} ${OUT} ${worms} ${destinations} OUTPUT_VARIABLE checked
                ERROR_VARIABLE problem RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the drawing fails the check: ${problem}")
endif()
message(STATUS "${checked}")
