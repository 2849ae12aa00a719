# SPDX-License-Identifier: Apache-2.0
# Included by ctest after the tests gtest_discover_tests found (verif/rtl/CMakeLists.txt): the long
# discovered tests start first on a build without timing history (ctest runs higher COST first), as
# the long add_test checks do (COST 60 there).
set_tests_properties(RouterNetlist.YosysGateNetlistMatchesVerilatorRtlEveryCycle PROPERTIES COST 60)
