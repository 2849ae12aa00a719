// SPDX-License-Identifier: Apache-2.0
#include "sim/link_wiring.hpp"

#include "sim/model_router.hpp"

namespace wormcast::sim {

LinkWiring::LinkWiring(const model::Topology& topology)
    : net_(static_cast<unsigned>(topology.port_count())),
      outputs_(static_cast<std::size_t>(topology.node_count()) * net_),
      credits_(static_cast<std::size_t>(topology.node_count())),
      input_was_valid_(static_cast<std::size_t>(topology.node_count()) * net_, 1),
      read_(static_cast<std::size_t>(topology.node_count())),
      valid_outputs_(static_cast<std::size_t>(topology.node_count())),
      write_(static_cast<std::size_t>(topology.node_count())) {
  for (model::NodeId node = 0; node < topology.node_count(); ++node) {
    for (unsigned p = 0; p < net_; ++p) {
      neighbours_.push_back(topology.neighbour(node, static_cast<model::Port>(p)));
      toward_.push_back(static_cast<unsigned>(topology.reverse_port(static_cast<model::Port>(p))));
    }
  }
}

// The lookup is redone when another router object comes for the same node (a caller may wrap
// routers), and a router without a model inside (verilated, or not yet configured) takes the
// interface.
const model::TimingRouter* LinkWiring::reading(model::NodeId r, const RouterModel& router) {
  Reading& d = read_[static_cast<std::size_t>(r)];
  if (d.router != &router) {
    d.router = &router;
    d.model = timing_router_of(router);
  }
  return d.model;
}

model::TimingRouter* LinkWiring::writing(model::NodeId r, RouterModel& router) {
  Writing& d = write_[static_cast<std::size_t>(r)];
  if (d.router != &router) {
    d.router = &router;
    d.model = timing_router_of(router);
  }
  return d.model;
}

bool LinkWiring::capture(model::NodeId r, const RouterModel& router) {
  const std::size_t base = static_cast<std::size_t>(r) * net_;
  if (const model::TimingRouter* m = reading(r, router); m != nullptr) {
    // A model router's outputs stay in it: drive() reads them there (nothing clocks a router
    // between the captures and the drives).
    credits_[static_cast<std::size_t>(r)] = static_cast<std::uint32_t>(m->credits_to_senders());
    const std::uint32_t valid = m->valid_outputs() & ((1u << net_) - 1);
    valid_outputs_[static_cast<std::size_t>(r)] = valid;
    return valid != 0;
  }
  credits_[static_cast<std::size_t>(r)] = router.credits_to_senders();
  bool moved = false;
  for (unsigned p = 0; p < net_; ++p) {
    outputs_[base + p] = router.output(p);
    moved |= outputs_[base + p].valid;
  }
  return moved;
}

std::uint32_t LinkWiring::drive(model::NodeId r, RouterModel& router) {
  model::TimingRouter* const m = writing(r, router);
  const unsigned vcs =
      m != nullptr ? m->params().vcs : router.vcs();  // every router of the network is the same variant
  const std::uint32_t vc_mask = (1u << vcs) - 1;
  const std::size_t base = static_cast<std::size_t>(r) * net_;
  std::uint32_t credits = 0;
  for (unsigned p = 0; p < net_; ++p) {
    const model::NodeId nbr = neighbours_[base + p];
    std::uint8_t& was_valid = input_was_valid_[base + p];
    const model::TimingRouter* src = nullptr;
    unsigned back = 0;
    if (nbr != model::kNoNode) {
      back = toward_[base + p];
      credits |= ((credits_[static_cast<std::size_t>(nbr)] >> (back * vcs)) & vc_mask) << (p * vcs);
      src = read_[static_cast<std::size_t>(nbr)].model;
    }
    if (src != nullptr && m != nullptr) {
      // Model to model: the neighbour's output register into this router's input, in place; an
      // idle one only clears the input's valid bit (the model reads nothing else of an idle input).
      const bool valid = ((valid_outputs_[static_cast<std::size_t>(nbr)] >> back) & 1) != 0;
      if (valid) {
        const model::TimingLink& l = src->output(back);
        m->set_input(p, true, l.vc, l.flit);
      } else if (was_valid != 0) {
        m->set_input_idle(p);
      }
      was_valid = valid ? 1 : 0;
      continue;
    }
    Link in;
    if (src != nullptr) {
      in = link_of(src->output(back));
    } else if (nbr != model::kNoNode) {
      in = outputs_[static_cast<std::size_t>(nbr) * net_ + back];
    }
    if (in.valid || was_valid != 0) {
      if (m != nullptr) {
        m->set_input(p, in.valid, in.vc, in.flit);  // ModelRouter::set_input's: no stream on inputs
      } else {
        router.set_input(p, in);
      }
    }
    was_valid = in.valid ? 1 : 0;
  }
  return credits;
}

}  // namespace wormcast::sim
