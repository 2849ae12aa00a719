// SPDX-License-Identifier: Apache-2.0
// The check of a run (sim/run_record.hpp) against the model's plans (docs/firmware.md,
// "Scoreboard"). check_run is a pure function of the plans and the record, so a test can doctor a
// record and prove that each difference fails the check.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/plan.hpp"
#include "sim/run_record.hpp"

namespace wormcast::sim {

// "" when the run did exactly what the plans say; otherwise the first difference, naming the
// multicast, node, worm and cycle.
std::string check_run(const std::vector<model::Plan>& plans, const RunRecord& record);

// Delivery cycle of each destination of multicast `multicast` (destinations in request order;
// -1 for one never delivered).
std::vector<long> delivery_cycles(const model::Plan& plan, int multicast, const RunRecord& record);

}  // namespace wormcast::sim
