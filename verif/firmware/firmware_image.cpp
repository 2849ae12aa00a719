// SPDX-License-Identifier: Apache-2.0
// One node's firmware as a freestanding image for the RV32 size check (verif/firmware/rv32_size.sh):
// the NodeFirmware object is the node's whole state, so its size shows in .bss.
#include "firmware/node_firmware.hpp"

wormcast::fw::NodeFirmware g_node_firmware;
