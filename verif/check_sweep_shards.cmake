# SPDX-License-Identifier: Apache-2.0
# A sweep split into shards (`wormcast sweep --shard i/n`) and put back together
# (`wormcast merge`) gives exactly the file the unsharded sweep writes, byte for byte: the planning
# sweep (3 and 5 shards, the fifth with no point of its own), and the traffic sweep on both backends
# (3 shards), and the multicast sweep on both backends (3 shards). Then merge's refusals: a missing shard, shards of two sweeps, a shard flag without --csv.
# Usage: cmake -DWORMCAST=<path> -DOUT=<directory> -P check_sweep_shards.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

function(run_ok)
  execute_process(COMMAND ${WORMCAST} ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "wormcast ${ARGN} exited ${rc}:\n${out}${err}")
  endif()
endfunction()

# Exit 2 and a message on stderr matching `pattern`.
function(run_refused pattern)
  execute_process(COMMAND ${WORMCAST} ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "${pattern}")
    message(FATAL_ERROR "wormcast ${ARGN} exited ${rc}, expected 2 with '${pattern}':\n${out}${err}")
  endif()
endfunction()

function(expect_same_bytes merged whole)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${merged} ${whole} RESULT_VARIABLE differ)
  file(READ ${merged} merged_text)
  file(READ ${whole} whole_text)
  if(differ OR NOT merged_text STREQUAL whole_text)
    message(FATAL_ERROR "${merged} differs from the unsharded ${whole}:\n${merged_text}\n---\n${whole_text}")
  endif()
endfunction()

# --- The planning sweep: four K values (points), two algorithms each, random sources.
set(planning sweep -t mesh:8x8 -a vh,dds -k 5,10,20,all -n 30 --seed 3 --source random)
run_ok(${planning} --csv ${OUT}/planning.csv)
foreach(n 3 5)
  set(shards "")
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    run_ok(${planning} --shard ${i}/${n} --csv ${OUT}/planning-${i}-of-${n}.csv)
    list(PREPEND shards ${OUT}/planning-${i}-of-${n}.csv)  # reversed: merge restores the order
  endforeach()
  run_ok(merge ${shards} -o ${OUT}/planning-merged-${n}.csv)
  expect_same_bytes(${OUT}/planning-merged-${n}.csv ${OUT}/planning.csv)
endforeach()
# Shard 4 of 5 has no K of its own: its file is the header lines and the end line alone.
file(STRINGS ${OUT}/planning-4-of-5.csv empty_shard)
list(LENGTH empty_shard lines)
if(NOT lines EQUAL 3)
  message(FATAL_ERROR "shard 4/5 of a four-point sweep should hold no row:\n${empty_shard}")
endif()

# --- The traffic sweep on each backend: two K x two loads = four points, in three shards.
foreach(backend model rtl)
  set(traffic sweep --backend ${backend} -t mesh:4x4 --loads 0.05,0.2 -L 4 -k 1,3 --multicast-fraction 0.3
              --warmup 100 --measure 300 --seed 5)
  run_ok(${traffic} -o ${OUT}/${backend})
  foreach(i 0 1 2)
    run_ok(${traffic} --shard ${i}/3 -o ${OUT}/${backend}-shards)
  endforeach()
  run_ok(merge ${OUT}/${backend}-shards/shard-2-of-3.csv ${OUT}/${backend}-shards/shard-0-of-3.csv
         ${OUT}/${backend}-shards/shard-1-of-3.csv -o ${OUT}/${backend}-merged.csv)
  expect_same_bytes(${OUT}/${backend}-merged.csv ${OUT}/${backend}/sweep.csv)
  if(EXISTS ${OUT}/${backend}-shards/latency_load.png)
    message(FATAL_ERROR "a shard drew plots; they come from the merged file")
  endif()
endforeach()
# merge --plots draws them from the merged traffic CSV, as the unsharded sweep does.
run_ok(merge ${OUT}/model-shards/shard-0-of-3.csv ${OUT}/model-shards/shard-1-of-3.csv
       ${OUT}/model-shards/shard-2-of-3.csv -o ${OUT}/model-plots/sweep.csv --plots ${OUT}/model-plots)
if(NOT EXISTS ${OUT}/model-plots/latency_load.png)
  message(FATAL_ERROR "merge --plots drew no latency_load.png")
endif()

# --- The multicast sweep on each backend (sweep --backend --algorithms): two K x
# two L = four points in three shards, merged in another order.
foreach(backend model rtl)
  set(multicast sweep --backend ${backend} -t mesh:4x4 -a dual-path,two-port -p two -k 3,all --lengths 4,9 -n 2
                --seed 6 -s random --alpha 7 --gamma 3)
  run_ok(${multicast} --csv ${OUT}/multicast-${backend}.csv)
  foreach(i 0 1 2)
    run_ok(${multicast} --shard ${i}/3 --csv ${OUT}/multicast-${backend}-${i}-of-3.csv)
  endforeach()
  run_ok(merge ${OUT}/multicast-${backend}-1-of-3.csv ${OUT}/multicast-${backend}-2-of-3.csv
         ${OUT}/multicast-${backend}-0-of-3.csv -o ${OUT}/multicast-${backend}-merged.csv)
  expect_same_bytes(${OUT}/multicast-${backend}-merged.csv ${OUT}/multicast-${backend}.csv)
endforeach()
run_refused("^wormcast: .*multicast-model-0-of-3.csv and .*multicast-rtl-1-of-3.csv are shards of different sweeps"
            merge ${OUT}/multicast-model-0-of-3.csv ${OUT}/multicast-rtl-1-of-3.csv
            ${OUT}/multicast-model-2-of-3.csv)

# --- Refusals, each naming what is wrong.
run_refused("^wormcast: shard 1 of 3 is missing: merge needs all 3 shards of sweep [0-9a-f]+ \\(0..2\\)"
            merge ${OUT}/planning-0-of-3.csv ${OUT}/planning-2-of-3.csv)
run_ok(sweep -t mesh:8x8 -a vh,dds -k 5,10,20,all -n 30 --seed 4 --source random --shard 1/3
       --csv ${OUT}/other-seed-1-of-3.csv)
run_refused("^wormcast: .*planning-0-of-3.csv and .*other-seed-1-of-3.csv are shards of different sweeps"
            merge ${OUT}/planning-0-of-3.csv ${OUT}/other-seed-1-of-3.csv ${OUT}/planning-2-of-3.csv)
run_refused("^wormcast: --plots draws a traffic sweep's plots" merge ${OUT}/planning-0-of-3.csv
            ${OUT}/planning-1-of-3.csv ${OUT}/planning-2-of-3.csv -o ${OUT}/p.csv --plots ${OUT}/p)
run_refused("^wormcast: cannot read '${OUT}/nothing.csv': " merge ${OUT}/nothing.csv)
run_refused("^wormcast: --shard needs --csv FILE" ${planning} --shard 0/2)
run_refused("^wormcast: shard '2/2' does not exist; with n = 2 shards the index i must be in 0..1"
            ${planning} --shard 2/2 --csv ${OUT}/x.csv)
message(STATUS "sharded sweeps merge into the unsharded files, byte for byte")
