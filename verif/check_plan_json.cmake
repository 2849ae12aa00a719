# SPDX-License-Identifier: Apache-2.0
# Runs `wormcast plan ... --json` on the V4 example and checks that the output parses and holds the
# documented fields (docs/algorithms.md, "Command line: plan and sweep").
# Usage: cmake -DWORMCAST=<path> -P check_plan_json.cmake
execute_process(
  COMMAND ${WORMCAST} plan -t mesh:6x6 -a two-port -p two -s 3,3 -d 0,1 3,1 2,2 5,2 2,5 -L 10 --json
  OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "wormcast plan --json exited ${rc}")
endif()
string(JSON steps ERROR_VARIABLE error GET "${out}" steps)
if(error)
  message(FATAL_ERROR "the output is not the plan JSON: ${error}\n${out}")
endif()
if(NOT steps EQUAL 2)
  message(FATAL_ERROR "V4 takes 2 steps, the JSON says ${steps}")
endif()
string(JSON worms LENGTH "${out}" worms)
string(JSON destinations LENGTH "${out}" destinations)
string(JSON source GET "${out}" request source)
string(JSON algorithm GET "${out}" request algorithm)
string(JSON first_mode GET "${out}" worms 0 header mode)
string(JSON first_route LENGTH "${out}" worms 0 route)
string(JSON first_keeps GET "${out}" worms 0 keeps_copy 0)
string(JSON first_relays LENGTH "${out}" worms 0 relays)
string(JSON traffic GET "${out}" traffic)
string(JSON additional GET "${out}" additional_traffic)
string(JSON latency GET "${out}" latency)
string(JSON stepwise GET "${out}" stepwise_contention)
string(JSON alpha GET "${out}" request latency_parameters alpha)
string(JSON first_node GET "${out}" destinations 0 node)
string(JSON first_hops GET "${out}" destinations 0 hops)
string(JSON first_latency GET "${out}" destinations 0 latency)
# V4(b): the first destination in request order, (0,1), is reached in step 1 over 5 hops.
if(NOT first_node STREQUAL "0,1" OR NOT first_hops EQUAL 5)
  message(FATAL_ERROR "destination 0: node ${first_node}, hops ${first_hops} (expected 0,1 over 5 hops)")
endif()
if(NOT worms EQUAL 5 OR NOT destinations EQUAL 5 OR NOT source STREQUAL "3,3" OR NOT algorithm STREQUAL "two-port"
   OR NOT first_mode STREQUAL "hamiltonian-path" OR first_route LESS 2 OR NOT stepwise EQUAL 0
   OR NOT first_relays EQUAL 0)
  message(FATAL_ERROR "unexpected plan JSON: worms=${worms} destinations=${destinations} source=${source} "
                      "algorithm=${algorithm} mode=${first_mode} route=${first_route} stepwise=${stepwise} "
                      "relays=${first_relays}")
endif()
math(EXPR expected_additional "${traffic} - 5")
if(NOT additional EQUAL expected_additional)
  message(FATAL_ERROR "additional traffic ${additional} is not traffic ${traffic} - K")
endif()
message(STATUS "plan JSON ok: ${worms} worms, steps ${steps}, traffic ${traffic}, latency ${latency}, alpha ${alpha}, "
               "first delivery ${first_keeps}")
