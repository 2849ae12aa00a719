// SPDX-License-Identifier: Apache-2.0
// GTKWave's FST library (writer and reader) as Verilator ships it, compiled the way Verilator's
// verilated_fst_c.cpp compiles it: for the harness's network waveform (wormcast run --trace) and
// for fst_summary, which reads it back in the tests.
#define FST_CONFIG_INCLUDE "fst_config.h"
#include "gtkwave/fastlz.c"
#include "gtkwave/fstapi.c"
#include "gtkwave/lz4.c"
