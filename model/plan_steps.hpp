// SPDX-License-Identifier: Apache-2.0
// The causal step of every worm of a plan (docs/firmware.md, "Scoreboard"): the rule the run's
// monitor applies to what it observes, applied to the plan's worms, so that a run's derived steps
// can be compared with the plan without trusting the firmware's own step numbers.
#pragma once

#include <vector>

#include "model/plan.hpp"

namespace wormcast::model {

// One entry per Plan::worms, in plan order: a worm a processor sends has step 1 + max(R, C), where
// R is the largest causal step of the earlier worms of an earlier plan step of which its sender
// keeps a copy, relays one or takes a part (0 at the source) and C the causal step of its sender's
// previous worm on the same injection port (0 if none): one message per port per step, as in the
// papers' port models. A worm a router spawns (Worm::spawned_from) has its parent's step; its
// copies count as the parent's. The plan's own step (Worm::step) is never smaller; it is larger
// where an algorithm numbers its steps globally (rd, edn, np-d: a node done with a dimension, a
// level or its DDN's broadcast early is causally ahead, and edn's source sends its step-2 worms on
// other ports than its step-1 worms). Only np-d has a node receive in the step it sends in (the
// exchanges in its 2x2 blocks, which do not wait for each other); in every other plan a node
// receives before its first send, so "of an earlier plan step" changes nothing there.
std::vector<int> causal_steps(const Plan& plan);

}  // namespace wormcast::model
