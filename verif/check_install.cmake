# SPDX-License-Identifier: Apache-2.0
# Installs the build into a fresh prefix (cmake --install) and runs the installed binary's traffic
# sweep on the timing model: exit 0 and both plots drawn, so it found the plot script beside it in
# <prefix>/share/wormcast/. A copy of the binary in a folder without share/ must exit 2 naming the
# missing script, before it simulates anything.
# Usage: cmake -DBUILD=<build tree> -DOUT=<scratch folder> -P check_install.cmake
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${OUT}/prefix OUTPUT_VARIABLE log
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install exited ${rc}:\n${log}${err}")
endif()
set(sweep sweep --backend model -t mesh:4x4 --loads 0.05,0.2 -k 1,3 --multicast-fraction 0.3 -L 4 --warmup 100
          --measure 300)
execute_process(COMMAND ${OUT}/prefix/bin/wormcast ${sweep} -o ${OUT}/sweep OUTPUT_VARIABLE log ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the installed wormcast sweep exited ${rc}:\n${log}${err}")
endif()
foreach(plot latency_load.png latency_destinations.png)
  if(NOT EXISTS ${OUT}/sweep/${plot})
    message(FATAL_ERROR "the installed wormcast did not draw ${plot}:\n${log}${err}")
  endif()
endforeach()
file(COPY ${OUT}/prefix/bin/wormcast DESTINATION ${OUT}/alone/bin)
execute_process(COMMAND ${OUT}/alone/bin/wormcast ${sweep} -o ${OUT}/alone_sweep OUTPUT_VARIABLE log
                ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "^wormcast: the plot script [^\n]*/alone/share/wormcast/plot_traffic.py is missing"
   OR EXISTS ${OUT}/alone_sweep)
  message(FATAL_ERROR "a wormcast without its plot script: exit ${rc}, expected 2 and the missing script named:\n${log}${err}")
endif()
message(STATUS "installed wormcast drew the plots:\n${log}")
