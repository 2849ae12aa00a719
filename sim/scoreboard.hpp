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
// multicast, node, worm and cycle. In order: the run's protocol errors, the replication lock's
// invariant (RunRecord::violations), each multicast against its plan, the lock's protocol
// (check_replication_lock).
std::string check_run(const std::vector<model::Plan>& plans, const RunRecord& record);

// The replication lock's protocol from its messages (docs/firmware.md, "Scoreboard"): every holder
// (the source of a multicast whose plan has worms spawned by routers) other than the coordinator
// requested the lock once with the plan's number of replicated heads and was granted it once, after
// the request arrived and before its replicating worms went; every head absorbed at a node other
// than the coordinator was acknowledged by that node; and no grant went before the previous
// holder's last acknowledgement arrived. "" when it holds.
std::string check_replication_lock(const std::vector<model::Plan>& plans, const RunRecord& record);

// The check of multicast `multicast` alone against `plan` (its deliveries, then its worms), without
// the run's protocol errors: "" when it did exactly what the plan says. check_run applies it to
// every plan in turn.
std::string check_multicast(const model::Plan& plan, int multicast, const RunRecord& record);

// Multicast `multicast`'s deliveries alone against `plan`: every destination got the data intact,
// once, and no other node got it. The check of a run whose worms were not followed (a board
// through its host link, sim/fpga_backend.hpp); check_multicast applies it first.
std::string check_deliveries(const model::Plan& plan, int multicast, const RunRecord& record);

// Every multicast's own verdict (multicast i against plans[i]), for a run of several requests
// (`wormcast run --requests`): a multicast that did not finish (a destination without a delivery,
// or a worm never taken in whole) in a run with a protocol error (the watchdog's stall report, a
// refused start, an RTL assertion) fails with that error, the run's first; every other multicast
// gets check_multicast. check_run is still the run's verdict: it also fails on an error that left
// every multicast finished.
std::vector<std::string> check_each_multicast(const std::vector<model::Plan>& plans, const RunRecord& record);

// Delivery cycle of each destination of multicast `multicast` (destinations in request order;
// -1 for one never delivered).
std::vector<long> delivery_cycles(const model::Plan& plan, int multicast, const RunRecord& record);

}  // namespace wormcast::sim
