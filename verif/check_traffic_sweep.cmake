# SPDX-License-Identifier: Apache-2.0
# Runs `wormcast sweep --backend rtl` on a small mesh (two loads x two destination counts) and checks
# its output folder: the CSV's exact header, one row per (K, load), latency rising with load for
# every K, and both plots.
# Usage: cmake -DWORMCAST=<path> -DOUT=<directory> -P check_traffic_sweep.cmake
set(dir ${OUT}/traffic_sweep)
file(REMOVE_RECURSE ${dir})
execute_process(COMMAND ${WORMCAST} sweep --backend rtl -t mesh:4x4 --loads 0.05,0.3 -L 4 -k 1,3
                        --multicast-fraction 0.3 --warmup 200 --measure 800 -o ${dir}
                OUTPUT_VARIABLE log ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "wormcast sweep --backend rtl exited ${rc}:\n${log}${err}")
endif()
file(STRINGS ${dir}/sweep.csv lines)
list(LENGTH lines count)
list(GET lines 0 header)
set(expected_header
    "backend,topology,routing,load,length,multicast_fraction,destinations,seed,offered,accepted,mean_latency,mean_unicast_latency,mean_multicast_latency,mean_destination_latency,max_latency,mean_hops,measured_packets,delivered_packets,saturated,cycles")
if(NOT header STREQUAL expected_header)
  message(FATAL_ERROR "CSV header is '${header}'")
endif()
if(NOT count EQUAL 5)  # header + 2 K values x 2 loads
  message(FATAL_ERROR "CSV has ${count} lines, expected 5:\n${lines}")
endif()
# Rows come K-major: (K=1, 0.05), (K=1, 0.3), (K=3, 0.05), (K=3, 0.3).
foreach(pair "1;2" "3;4")
  list(GET pair 0 low_row)
  list(GET pair 1 high_row)
  list(GET lines ${low_row} low)
  list(GET lines ${high_row} high)
  string(REPLACE "," ";" low "${low}")
  string(REPLACE "," ";" high "${high}")
  list(GET low 0 backend)
  list(GET low 3 low_load)
  list(GET high 3 high_load)
  list(GET low 10 low_latency)
  list(GET high 10 high_latency)
  if(NOT backend STREQUAL "rtl" OR NOT low_load STREQUAL "0.05" OR NOT high_load STREQUAL "0.3")
    message(FATAL_ERROR "rows ${low_row}, ${high_row}: backend ${backend}, loads ${low_load}, ${high_load}")
  endif()
  if(NOT low_latency LESS high_latency)
    message(FATAL_ERROR "latency does not rise with load: ${low_latency} at 0.05, ${high_latency} at 0.3")
  endif()
endforeach()
foreach(plot latency_load.png latency_destinations.png)
  if(NOT EXISTS ${dir}/${plot})
    message(FATAL_ERROR "${dir}/${plot} was not written")
  endif()
endforeach()
message(STATUS "traffic sweep files ok:\n${log}")
