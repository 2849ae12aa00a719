# SPDX-License-Identifier: Apache-2.0
# ctest labels (docs/verification.md, "Test labels"): `ctest -L model` runs the model's tests alone.
# Every test carries one of the part labels model, firmware, rtl, system, fpga; slow marks the few
# long ones on top; cli, style, formal and fuzz name smaller groups within them.
#
# The GoogleTest executables give theirs in gtest_discover_tests(... PROPERTIES LABELS <part>); the
# tests declared by add_test get those of their name's suite (<Suite>.<Name>) from the table below,
# through wormcast_label_tests() at the end of each CMakeLists.txt that declares them. A suite
# missing from the table stops the configure step, so no test escapes the labels; the test
# Style.EveryTestHasAPartLabel checks the whole list ctest sees, the discovered tests included.
set(_wormcast_suite_labels_Cli system cli)  # the wormcast command line, end to end
set(_wormcast_suite_labels_Regress system)  # make regress's own options
set(_wormcast_suite_labels_Style system style)  # the repository's sources as a whole
set(_wormcast_suite_labels_Fuzz system fuzz)  # the input readers under libFuzzer
set(_wormcast_suite_labels_Firmware firmware)
set(_wormcast_suite_labels_Rtl rtl)
set(_wormcast_suite_labels_Formal rtl formal)
set(_wormcast_suite_labels_Fpga fpga)

# wormcast_label_tests(): appends its suite's labels to every test of the calling directory.
function(wormcast_label_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS tests)
    string(REGEX REPLACE "\\..*" "" suite "${test}")
    if(NOT DEFINED _wormcast_suite_labels_${suite})
      message(FATAL_ERROR "test ${test}: its suite '${suite}' has no labels in cmake/test_labels.cmake")
    endif()
    set_property(TEST ${test} APPEND PROPERTY LABELS ${_wormcast_suite_labels_${suite}})
  endforeach()
endfunction()
