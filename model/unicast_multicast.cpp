// SPDX-License-Identifier: Apache-2.0
#include "model/unicast_multicast.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <tuple>

#include "model/errors.hpp"
#include "model/routing.hpp"

namespace wormcast::model {
namespace {

// ceil(a / b) for a >= 0, b > 0.
int ceil_div(int a, int b) { return (a + b - 1) / b; }

// A node holding the message and responsible for chain[lo .. hi]; it is chain[src] and starts
// sending in `step`.
struct Holder {
  int lo = 0;
  int hi = 0;
  int src = 0;
  int step = 1;
};

void check_chain_indices(int m, int src) {
  if (m < 0) throw RequestError(fmt::format("a chain of m = {} destinations is impossible; m must be >= 0", m));
  if (src < 0 || src > m) {
    throw RequestError(
        fmt::format("source index {} is outside the chain D_0..D_{}; valid indices are 0..{}", src, m, m));
  }
}

void sort_schedule(std::vector<ChainSend>& sends) {
  std::sort(sends.begin(), sends.end(), [](const ChainSend& a, const ChainSend& b) {
    return std::tie(a.step, a.sender, a.port) < std::tie(b.step, b.sender, b.port);
  });
}

// Receiver of a block [first, last] handed to a holder below it (the block's upper middle) or
// above it (the block's lower middle): the middle element nearest the sender ([1], Figure 4).
int centre_below_sender(int first, int last) { return first + (last - first + 1) / 2; }
int centre_above_sender(int first, int last) { return first + ceil_div(last - first + 1, 2) - 1; }

}  // namespace

std::vector<std::string> unicast_multicast_names() {
  return {kUnicastAlgorithm, kOnePortAlgorithm, kTwoPortAlgorithm, kDPortAlgorithm};
}

std::vector<ChainSend> one_port_schedule(int m, int src) {
  check_chain_indices(m, src);
  std::vector<ChainSend> sends;
  std::vector<Holder> work = {Holder{0, m, src, 1}};
  while (!work.empty()) {
    Holder h = work.back();
    work.pop_back();
    while (h.lo < h.hi) {
      const int mid = (h.lo + h.hi) / 2;
      if (h.src <= mid) {
        sends.push_back(ChainSend{h.src, mid + 1, h.step, 0, std::nullopt, mid + 1, h.hi});
        work.push_back(Holder{mid + 1, h.hi, mid + 1, h.step + 1});
        h.hi = mid;
      } else {
        sends.push_back(ChainSend{h.src, mid, h.step, 0, std::nullopt, h.lo, mid});
        work.push_back(Holder{h.lo, mid, mid, h.step + 1});
        h.lo = mid + 1;
      }
      ++h.step;
    }
  }
  sort_schedule(sends);
  return sends;
}

// Figure 4 transcribed on its own, not as d_port_schedule(m, src, 2): the d-port form is our
// generalisation (docs/algorithms.md "d-port"), and a test checks that it reduces to this one for d = 2.
std::vector<ChainSend> two_port_schedule(int m, int src) {
  check_chain_indices(m, src);
  std::vector<ChainSend> sends;
  std::vector<Holder> work = {Holder{0, m, src, 1}};
  while (!work.empty()) {
    Holder h = work.back();
    work.pop_back();
    while (h.hi > h.lo) {  // Figure 4's loop on the local chain D'_0 .. D'_mm, own index s
      const int mm = h.hi - h.lo;
      const int s = h.src - h.lo;
      const int l = ceil_div(2 * s, 3);
      const int u = mm - ceil_div(2 * (mm - s), 3);
      if (l > 0) {  // phi_l = D'_0 .. D'_(l-1) to D'_lower, lower = l - ceil(l/2), on the low port
        const int lower = h.lo + l - ceil_div(l, 2);
        sends.push_back(ChainSend{h.src, lower, h.step, 0, ChannelNetwork::kLow, h.lo, h.lo + l - 1});
        work.push_back(Holder{h.lo, h.lo + l - 1, lower, h.step + 1});
      }
      if (mm - u > 0) {  // phi_u = D'_(u+1) .. D'_mm to D'_upper, upper = u + ceil((mm-u)/2), high port
        const int upper = h.lo + u + ceil_div(mm - u, 2);
        sends.push_back(ChainSend{h.src, upper, h.step, 1, ChannelNetwork::kHigh, h.lo + u + 1, h.hi});
        work.push_back(Holder{h.lo + u + 1, h.hi, upper, h.step + 1});
      }
      h.hi = h.lo + u;  // keep D'_l .. D'_u; src -= l (docs/algorithms.md)
      h.lo += l;
      ++h.step;
    }
  }
  sort_schedule(sends);
  return sends;
}

std::vector<ChainSend> d_port_schedule(int m, int src, int d) {
  check_chain_indices(m, src);
  if (d < 2 || d % 2 != 0) {
    throw RequestError(
        fmt::format("the d-port algorithm splits its ports evenly between the two channel networks; "
                    "d = {} is not allowed, d must be even and >= 2",
                    d));
  }
  const int half = d / 2;
  std::vector<ChainSend> sends;
  std::vector<Holder> work = {Holder{0, m, src, 1}};
  while (!work.empty()) {
    Holder h = work.back();
    work.pop_back();
    while (h.hi > h.lo) {
      const int mm = h.hi - h.lo;
      const int s = h.src - h.lo;
      const int l = ceil_div(d * s, d + 1);
      const int u = mm - ceil_div(d * (mm - s), d + 1);
      // D'_0 .. D'_(l-1) in `half` near-equal contiguous blocks, each to its centre on a low port.
      for (int j = 0; j < half; ++j) {
        const int first = h.lo + j * l / half;
        const int last = h.lo + (j + 1) * l / half - 1;
        if (first > last) continue;
        const int centre = centre_below_sender(first, last);
        sends.push_back(ChainSend{h.src, centre, h.step, j, ChannelNetwork::kLow, first, last});
        work.push_back(Holder{first, last, centre, h.step + 1});
      }
      // D'_(u+1) .. D'_mm likewise on the high ports.
      const int above = mm - u;
      for (int j = 0; j < half; ++j) {
        const int first = h.lo + u + 1 + j * above / half;
        const int last = h.lo + u + (j + 1) * above / half;
        if (first > last) continue;
        const int centre = centre_above_sender(first, last);
        sends.push_back(ChainSend{h.src, centre, h.step, half + j, ChannelNetwork::kHigh, first, last});
        work.push_back(Holder{first, last, centre, h.step + 1});
      }
      h.hi = h.lo + u;
      h.lo += l;
      ++h.step;
    }
  }
  sort_schedule(sends);
  return sends;
}

std::vector<ChainSend> separate_addressing_schedule(int m, int src, int ports) {
  check_chain_indices(m, src);
  std::vector<ChainSend> sends;
  if (ports == 1) {
    int step = 1;
    for (int i = 0; i <= m; ++i) {
      if (i != src) sends.push_back(ChainSend{src, i, step++, 0, std::nullopt, i, i});
    }
    return sends;
  }
  if (ports < 1 || ports % 2 != 0) {
    throw RequestError(
        fmt::format("separate addressing with {} ports: the ports split evenly between the two channel "
                    "networks, so the port count must be 1 or even",
                    ports));
  }
  const int half = ports / 2;
  for (int k = 0; k < src; ++k) {  // below the source, nearest first
    const int i = src - 1 - k;
    sends.push_back(ChainSend{src, i, 1 + k / half, k % half, ChannelNetwork::kLow, i, i});
  }
  for (int k = 0; k < m - src; ++k) {  // above the source, nearest first
    const int i = src + 1 + k;
    sends.push_back(ChainSend{src, i, 1 + k / half, half + k % half, ChannelNetwork::kHigh, i, i});
  }
  sort_schedule(sends);
  return sends;
}

int step_count(const std::vector<ChainSend>& schedule) {
  int steps = 0;
  for (const ChainSend& send : schedule) steps = std::max(steps, send.step);
  return steps;
}

std::vector<NodeId> labeling_ordered_chain(const HamiltonianLabeling& labeling, NodeId source,
                                           const std::vector<NodeId>& destinations) {
  std::vector<NodeId> chain = destinations;
  chain.push_back(source);
  std::sort(chain.begin(), chain.end(), [&](NodeId a, NodeId b) { return labeling.label(a) < labeling.label(b); });
  return chain;
}

namespace {

// plan_unicast_multicast(request, chain) for a validated request, routed by `routed_by` when the
// caller has built the routing function already (its labeling ordered the chain), so that one
// plan builds the labeling once.
Plan plan_along_chain(const Request& request, const std::vector<NodeId>& chain,
                      const HamiltonianPathRouting* routed_by) {
  const Topology& t = request.topology;
  std::vector<NodeId> expected = request.destinations;
  expected.push_back(request.source);
  std::vector<NodeId> given = chain;
  std::sort(expected.begin(), expected.end());
  std::sort(given.begin(), given.end());
  if (given != expected) {
    throw RequestError(fmt::format("the chain ({} nodes) must hold the source and the {} destinations, each once",
                                   chain.size(), request.destinations.size()));
  }
  const int m = static_cast<int>(chain.size()) - 1;
  const int src = static_cast<int>(std::find(chain.begin(), chain.end(), request.source) - chain.begin());
  const int ports = request.ports.injection_ports(t);
  const std::string& name = request.algorithm;

  std::vector<ChainSend> schedule;
  const auto require = [&](bool ok, std::string_view valid) {
    if (!ok) {
      throw UnsupportedError(
          fmt::format("algorithm {} does not run on a {} node; it needs {}", name, request.ports.name(), valid));
    }
  };
  if (name == kUnicastAlgorithm) {
    require(ports == 1 || ports % 2 == 0, "one port or an even number of ports");
    schedule = separate_addressing_schedule(m, src, ports);
  } else if (name == kOnePortAlgorithm) {
    require(ports == 1, "one port (the one-port model)");
    schedule = one_port_schedule(m, src);
  } else if (name == kTwoPortAlgorithm) {
    require(ports == 2, "two ports (the two-port model)");
    schedule = two_port_schedule(m, src);
  } else if (name == kDPortAlgorithm) {
    require(ports >= 2 && ports % 2 == 0, "an even number of ports, at least 2");
    schedule = d_port_schedule(m, src, ports);
  } else {
    throw SpecError(fmt::format("algorithm '{}' is not a unicast-based multicast; valid: {}", name,
                                fmt::join(unicast_multicast_names(), ", ")));
  }

  std::optional<HamiltonianPathRouting> own;
  const HamiltonianPathRouting& routing = routed_by != nullptr ? *routed_by : own.emplace(t);
  const HamiltonianLabeling& labeling = routing.labeling();
  Plan plan{request, {}, {}};
  for (const ChainSend& send : schedule) {
    const auto at = [&](int index) { return chain[static_cast<std::size_t>(index)]; };
    const NodeId sender = at(send.sender);
    const NodeId receiver = at(send.receiver);
    Worm worm;
    worm.sender = sender;
    worm.step = send.step;
    worm.kind = WormKind::kUnicast;
    worm.header.mode = RoutingMode::kHamiltonianPath;
    worm.header.subnetwork =
        labeling.label(receiver) > labeling.label(sender) ? ChannelNetwork::kHigh : ChannelNetwork::kLow;
    worm.header.vc = worm.header.subnetwork == ChannelNetwork::kHigh ? 0 : 1;  // the network's class
    worm.header.destinations = {receiver};
    worm.port = send.port;
    worm.port_network = send.port_network;
    worm.hops = trace_route(routing, sender, worm.header.vc, receiver);
    worm.route = route_nodes(routing, worm.hops, sender);
    worm.keeps_copy = {receiver};
    for (int i = send.first; i <= send.last; ++i) worm.address_field.push_back(at(i));
    plan.worms.push_back(std::move(worm));
  }
  plan.metrics = compute_metrics(request, plan.worms);
  return plan;
}

}  // namespace

Plan plan_unicast_multicast(const Request& request) {
  validate(request);
  const HamiltonianPathRouting routing(request.topology);
  return plan_along_chain(request, labeling_ordered_chain(routing.labeling(), request.source, request.destinations),
                          &routing);
}

Plan plan_unicast_multicast(const Request& request, const std::vector<NodeId>& chain) {
  validate(request);
  return plan_along_chain(request, chain, nullptr);
}

}  // namespace wormcast::model
