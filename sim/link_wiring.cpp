// SPDX-License-Identifier: Apache-2.0
#include "sim/link_wiring.hpp"

namespace wormcast::sim {

LinkWiring::LinkWiring(const model::Topology& topology)
    : net_(static_cast<unsigned>(topology.port_count())),
      outputs_(static_cast<std::size_t>(topology.node_count()) * net_),
      credits_(static_cast<std::size_t>(topology.node_count())),
      input_was_valid_(static_cast<std::size_t>(topology.node_count()) * net_, 1) {
  for (model::NodeId node = 0; node < topology.node_count(); ++node) {
    for (unsigned p = 0; p < net_; ++p) {
      neighbours_.push_back(topology.neighbour(node, static_cast<model::Port>(p)));
      toward_.push_back(static_cast<unsigned>(topology.reverse_port(static_cast<model::Port>(p))));
    }
  }
}

bool LinkWiring::capture(model::NodeId r, const RouterModel& router) {
  const std::size_t base = static_cast<std::size_t>(r) * net_;
  credits_[static_cast<std::size_t>(r)] = router.credits_to_senders();
  bool moved = false;
  for (unsigned p = 0; p < net_; ++p) {
    outputs_[base + p] = router.output(p);
    moved |= outputs_[base + p].valid;
  }
  return moved;
}

std::uint32_t LinkWiring::drive(model::NodeId r, RouterModel& router) {
  const unsigned vcs = router.vcs();  // every router of the network is the same variant
  const std::uint32_t vc_mask = (1u << vcs) - 1;
  const std::size_t base = static_cast<std::size_t>(r) * net_;
  std::uint32_t credits = 0;
  for (unsigned p = 0; p < net_; ++p) {
    const model::NodeId nbr = neighbours_[base + p];
    Link in;
    if (nbr != model::kNoNode) {
      const unsigned back = toward_[base + p];
      in = outputs_[static_cast<std::size_t>(nbr) * net_ + back];
      credits |= ((credits_[static_cast<std::size_t>(nbr)] >> (back * vcs)) & vc_mask) << (p * vcs);
    }
    std::uint8_t& was_valid = input_was_valid_[base + p];
    if (in.valid || was_valid != 0) router.set_input(p, in);
    was_valid = in.valid ? 1 : 0;
  }
  return credits;
}

}  // namespace wormcast::sim
