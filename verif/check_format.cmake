# SPDX-License-Identifier: Apache-2.0
# Fails if any C++ source under model/, sim/, firmware/, verif/ or bench/ differs from clang-format's output.
file(GLOB_RECURSE sources ${ROOT}/model/*.hpp ${ROOT}/model/*.cpp ${ROOT}/sim/*.hpp ${ROOT}/sim/*.cpp
     ${ROOT}/firmware/*.hpp ${ROOT}/firmware/*.cpp ${ROOT}/verif/*.hpp ${ROOT}/verif/*.cpp ${ROOT}/bench/*.cpp)
execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror ${sources} RESULT_VARIABLE result ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "clang-format differences (run: clang-format -i <file>):\n${errors}")
endif()
