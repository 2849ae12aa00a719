// SPDX-License-Identifier: Apache-2.0
// The algorithms the node firmware implements (its table, firmware/algorithm_table.hpp, by the
// planner's names): what the commands check a request against before anything runs, apart from
// the harness that runs it (sim/multicast_run.hpp).
#pragma once

#include <string>

namespace wormcast::sim {

// Whether the firmware runs `algorithm`, the names it runs in name order, and the error for a name
// it lacks (naming it and the supported ones).
bool firmware_supports(const std::string& algorithm);
std::string firmware_algorithm_names();
std::string no_firmware_message(const std::string& algorithm);

}  // namespace wormcast::sim
