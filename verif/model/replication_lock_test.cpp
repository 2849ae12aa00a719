// SPDX-License-Identifier: Apache-2.0
// The replication lock's count of heads (firmware/replication_lock.hpp) against the model's account
// of the routers' spawn rule (model/cpr_broadcast.cpp's spawned worms, which the system tests hold
// against the RTL): the firmware derives the count from the lines it sends, the model from its
// plan; neither reads the other.
#include "firmware/replication_lock.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "firmware/message.hpp"
#include "firmware/node_firmware.hpp"
#include "model/broadcast_baselines.hpp"
#include "model/cpr_broadcast.hpp"
#include "model/planner.hpp"
#include "model/topology.hpp"

namespace wormcast::model {
namespace {

// An NI that takes every send and keeps the heads and control words.
class SinkNi final : public fw::NetworkInterface {
 public:
  struct Sent {
    wire::HeadFields head;
    fw::MessageInfo info;
  };
  unsigned channels() const override { return 4; }
  bool can_send(unsigned k) const override { return k < 4; }
  bool send(unsigned, const fw::OutgoingWorm& worm) override {
    Sent s{wire::unpack_head(worm.header->flit(0)), {}};
    std::vector<std::uint64_t> payload;
    for (std::uint32_t i = 0; i < worm.payload_words(); ++i) payload.push_back(worm.payload_word(i));
    EXPECT_TRUE(fw::decode_control(payload.data(), static_cast<std::uint32_t>(payload.size()), s.info));
    sent.push_back(s);
    return true;
  }
  void deliver(std::uint32_t, const std::uint64_t*, std::uint32_t) override {}
  std::uint64_t cycle() const override { return 0; }
  std::vector<Sent> sent;
};

// The plan's router-replicated worms: each worm with spawned worms, and those.
std::vector<bool> replicated_worms(const Plan& plan) {
  std::vector<bool> replicated(plan.worms.size(), false);
  for (std::size_t i = 0; i < plan.worms.size(); ++i) {
    if (plan.worms[i].spawned_from) replicated[i] = replicated[*plan.worms[i].spawned_from] = true;
  }
  return replicated;
}

// Every PCP source on meshes of several shapes (two columns, two rows, odd sizes): the
// count a source's firmware requests the lock with (the coordinator, which sends no request: the
// heads of the spines it sends at once) is the number of heads the plan's spines and spawned
// branches end in, and the firmware recognises each of those ends, and no other node on their
// routes, as absorbing a head (the copy's head names the node, the payload's line is along Y).
TEST(ReplicationLock, HeadsMatchTheModelsSpawnedBranches) {
  for (const char* spec : {"mesh:8x8", "mesh:5x3", "mesh:2x6", "mesh:6x2"}) {
    const Topology t = Topology::parse(spec);
    fw::Grid g;
    g.dims = 2;
    g.size[0] = static_cast<std::uint16_t>(t.size(0));
    g.size[1] = static_cast<std::uint16_t>(t.size(1));
    for (NodeId s = 0; s < t.node_count(); ++s) {
      SCOPED_TRACE(std::string(spec) + " source " + t.node_name(s));
      const Plan plan =
          model::plan(make_request(t, kPcpAlgorithm, s, broadcast_destinations(t, s), 2, PortModel::all_port()));
      const std::vector<bool> replicated = replicated_worms(plan);
      const auto ends = static_cast<std::uint32_t>(std::count(replicated.begin(), replicated.end(), true));
      SinkNi ni;
      fw::NodeFirmware firmware;
      ASSERT_EQ(firmware.init({g, static_cast<std::uint32_t>(s)}, &ni), fw::Status::kOk);
      std::vector<std::uint32_t> dests;
      for (const NodeId d : plan.request.destinations) dests.push_back(static_cast<std::uint32_t>(d));
      fw::MulticastRequest r;
      r.algorithm = fw::Algorithm::kPcp;
      r.ports = 4;
      r.all_port = true;
      r.destinations = dests.data();
      r.count = static_cast<std::uint32_t>(dests.size());
      ASSERT_EQ(firmware.on_start_multicast(r), fw::Status::kOk);
      std::uint32_t heads = 0;
      int requests = 0;
      for (const SinkNi::Sent& sent : ni.sent) {
        if (sent.info.kind == fw::MessageKind::kLockRequest) {
          heads += sent.info.lock_count;
          ++requests;
        } else if (s == kReplicationLockCoordinator) {
          heads += fw::replicated_heads(g, static_cast<std::uint32_t>(s), sent.head);
        }
      }
      EXPECT_EQ(requests, s == kReplicationLockCoordinator || ends == 0 ? 0 : 1);
      EXPECT_EQ(heads, ends);
      // Recognition at the ends, from the copy the router delivers there: a head naming the node.
      fw::MessageInfo spine;
      spine.algorithm = fw::Algorithm::kPcp;
      spine.rd_dim = 1;
      for (std::size_t i = 0; i < plan.worms.size(); ++i) {
        const Worm& w = plan.worms[i];
        if (!replicated[i]) continue;
        wire::HeadFields head;
        head.mode = wire::Mode::kCprLine;
        head.cf = wire::Cf::kDeliverPass;
        const auto end = t.coord(w.route.back());
        head.dest = wire::pack_coord_dest(
            {static_cast<std::uint8_t>(end[0]), static_cast<std::uint8_t>(end[1]), std::uint8_t{0}});
        for (std::size_t k = 1; k < w.route.size(); ++k) {
          const auto node = static_cast<std::uint32_t>(w.route[k]);
          EXPECT_EQ(fw::absorbs_replicated_head(g, node, head, spine), k + 1 == w.route.size())
              << t.node_name(w.route[k]);
        }
      }
    }
  }
}

}  // namespace
}  // namespace wormcast::model
