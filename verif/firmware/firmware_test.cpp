// SPDX-License-Identifier: Apache-2.0
// The node firmware alone, on a recording network interface (no routers, no model: this target
// links only wormcast_firmware). Expected sends are the papers' worked examples and traces derived
// by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "firmware/algorithm_table.hpp"
#include "firmware/message.hpp"
#include "firmware/node_firmware.hpp"

namespace wormcast::verif {
namespace {

using fw::Status;

struct Sent {
  std::uint32_t sender;
  unsigned channel;
  wire::HeadFields head;
  std::vector<std::uint64_t> payload;
  std::vector<wire::HeadFields> address;  // the header flits after the head (multidestination worms)
};

// A network interface that records sends and lets the test deliver them by hand.
class RecordingNi final : public fw::NetworkInterface {
 public:
  RecordingNi(std::uint32_t node, unsigned channels, std::vector<Sent>* log)
      : node_(node), channels_(channels), log_(log) {}
  unsigned channels() const override { return channels_; }
  bool can_send(unsigned k) const override { return k < channels_ && room > 0; }
  bool send(unsigned k, const fw::OutgoingWorm& worm) override {
    if (!can_send(k) || !worm.well_formed()) return false;
    --room;
    Sent s{node_, k, wire::unpack_head(worm.header->flit(0)), {}, {}};
    for (std::uint32_t i = 0; i < worm.payload_words(); ++i) s.payload.push_back(worm.payload_word(i));
    EXPECT_EQ(s.head.more + 1u, worm.header->count());
    for (std::uint32_t i = 1; i < worm.header->count(); ++i)
      s.address.push_back(wire::unpack_head(worm.header->flit(i)));
    log_->push_back(std::move(s));
    return true;
  }
  void deliver(std::uint32_t multicast, const std::uint64_t* data, std::uint32_t words) override {
    delivered.push_back(multicast);
    data_words = std::vector<std::uint64_t>(data, data + words);
  }
  std::uint64_t cycle() const override { return 0; }

  int room = 1000;
  std::vector<std::uint32_t> delivered;
  std::vector<std::uint64_t> data_words;

 private:
  std::uint32_t node_;
  unsigned channels_;
  std::vector<Sent>* log_;
};

// A whole network of firmware nodes on a 2D mesh, messages delivered in send order.
class Nodes {
 public:
  Nodes(unsigned x, unsigned y, unsigned channels, fw::GridKind kind = fw::GridKind::kMesh) {
    grid_.kind = kind;
    grid_.size[0] = static_cast<std::uint16_t>(x);
    grid_.size[1] = static_cast<std::uint16_t>(y);
    for (std::uint32_t n = 0; n < x * y; ++n) nis_.emplace_back(n, channels, &log_);
    firmware_.resize(x * y);
    for (std::uint32_t n = 0; n < x * y; ++n) {
      fw::NodeConfig c{grid_, n};
      EXPECT_EQ(firmware_[n].init(c, &nis_[n]), Status::kOk);
    }
  }
  std::uint32_t id(unsigned x, unsigned y) const { return x + grid_.size[0] * y; }
  fw::NodeFirmware& node(std::uint32_t n) { return firmware_[n]; }
  RecordingNi& ni(std::uint32_t n) { return nis_[n]; }
  const std::vector<Sent>& log() const { return log_; }
  // Delivers every message sent so far (and those they cause) to its addressed node.
  void deliver_all() {
    for (std::size_t i = 0; i < log_.size(); ++i) {
      const Sent s = log_[i];
      const std::uint32_t to = addressed(s.head);
      EXPECT_EQ(
          firmware_[to].on_message_received(s.head, s.payload.data(), static_cast<std::uint32_t>(s.payload.size())),
          Status::kOk);
    }
  }
  std::uint32_t label(std::uint32_t n) const { return grid_.label(n); }
  std::string name(std::uint32_t n) const {
    return "(" + std::to_string(grid_.coord(n, 0)) + "," + std::to_string(grid_.coord(n, 1)) + ")";
  }
  // The node a head names: a label (Hamiltonian path) or coordinates (dimension order).
  std::uint32_t addressed(const wire::HeadFields& head) const {
    if (head.mode == wire::Mode::kDimensionOrder) {
      const wire::Coords c = wire::unpack_coord_dest(head.dest);
      return c.x + grid_.size[0] * c.y;
    }
    for (std::uint32_t n = 0; n < grid_.nodes(); ++n) {
      if (grid_.label(n) == head.dest) return n;
    }
    return 0;
  }

 private:
  fw::Grid grid_{};
  std::deque<RecordingNi> nis_;
  std::vector<fw::NodeFirmware> firmware_;
  std::vector<Sent> log_;
};

// "step sender->receiver port" per send, in send order.
std::vector<std::string> trace(const Nodes& nodes) {
  std::vector<std::string> out;
  for (const Sent& s : nodes.log()) {
    fw::MessageInfo info;
    EXPECT_TRUE(fw::decode_control(s.payload.data(), static_cast<std::uint32_t>(s.payload.size()), info));
    out.push_back(std::to_string(info.step) + " " + nodes.name(s.sender) + "->" + nodes.name(nodes.addressed(s.head)) +
                  " ch" + std::to_string(s.channel));
  }
  return out;
}

TEST(Firmware, GridLabelsAreTheRowSnakeAndLayerSnake) {
  fw::Grid g;
  g.size[0] = 4;
  g.size[1] = 4;
  // docs/model.md's mesh:4x4 drawing, row y = 1 runs backwards.
  EXPECT_EQ(g.label(0 + 4 * 1), 7u);
  EXPECT_EQ(g.label(3 + 4 * 1), 4u);
  EXPECT_EQ(g.label(0 + 4 * 3), 15u);
  fw::Grid g3;
  g3.dims = 3;
  g3.size[0] = 3;
  g3.size[1] = 2;
  g3.size[2] = 3;
  // docs/model.md's mesh:3x2x3 drawing: z = 1, (0,0) is 11; z = 2, (0,1) is 17.
  EXPECT_EQ(g3.label(0 + 3 * (0 + 2 * 1)), 11u);
  EXPECT_EQ(g3.label(0 + 3 * (1 + 2 * 2)), 17u);
}

// A broadcast's path worms name label ranges and find each label's node (Grid::node_at_label):
// the drawings' nodes back from their labels, and the inverse over whole meshes of odd and even
// sizes.
TEST(Firmware, NodeAtLabelInvertsTheLabels) {
  fw::Grid g3;
  g3.dims = 3;
  g3.size[0] = 3;
  g3.size[1] = 2;
  g3.size[2] = 3;
  EXPECT_EQ(g3.node_at_label(11), 0u + 3 * (0 + 2 * 1));
  EXPECT_EQ(g3.node_at_label(17), 0u + 3 * (1 + 2 * 2));
  for (const auto& [x, y, z] : {std::tuple{4, 4, 1}, std::tuple{5, 3, 1}, std::tuple{3, 2, 3}, std::tuple{4, 5, 6}}) {
    fw::Grid g;
    g.dims = z > 1 ? 3 : 2;
    g.size[0] = static_cast<std::uint16_t>(x);
    g.size[1] = static_cast<std::uint16_t>(y);
    g.size[2] = static_cast<std::uint16_t>(z);
    for (std::uint32_t n = 0; n < g.nodes(); ++n)
      EXPECT_EQ(g.node_at_label(g.label(n)), n) << x << "x" << y << "x" << z;
  }
}

// [1], Figure 5 / V4(b): 6x6 mesh, source (3,3), destinations (0,1), (3,1), (2,2), (5,2), (2,5), the
// label-sorted chain [(3,1),(0,1),(2,2),(5,2),(3,3),(2,5)]: step 1 (3,3)->(0,1) on the low port
// with {(3,1),(0,1),(2,2)} and (3,3)->(2,5) on the high port; step 2 (3,3)->(5,2), (0,1)->(3,1)
// and (0,1)->(2,2).
TEST(Firmware, TwoPortFigureFiveLabelSortedTraceIsV4b) {
  Nodes nodes(6, 6, 2);
  const std::uint32_t dests[] = {nodes.id(0, 1), nodes.id(3, 1), nodes.id(2, 2), nodes.id(5, 2), nodes.id(2, 5)};
  const std::uint64_t data[] = {0xDA7A};
  fw::MulticastRequest r{fw::Algorithm::kTwoPort, 2, 7, dests, 5, data, 1};
  ASSERT_EQ(nodes.node(nodes.id(3, 3)).on_start_multicast(r), Status::kOk);
  nodes.deliver_all();
  EXPECT_EQ(trace(nodes), (std::vector<std::string>{"1 (3,3)->(0,1) ch0", "1 (3,3)->(2,5) ch1", "2 (3,3)->(5,2) ch0",
                                                    "2 (0,1)->(3,1) ch0", "2 (0,1)->(2,2) ch1"}));
  const Sent& first = nodes.log().front();
  fw::MessageInfo info;
  ASSERT_TRUE(fw::decode_control(first.payload.data(), static_cast<std::uint32_t>(first.payload.size()), info));
  ASSERT_EQ(info.address_entries, 3);
  EXPECT_EQ(fw::address_entry(first.payload.data(), 0), nodes.id(3, 1));
  EXPECT_EQ(fw::address_entry(first.payload.data(), 1), nodes.id(0, 1));
  EXPECT_EQ(fw::address_entry(first.payload.data(), 2), nodes.id(2, 2));
  EXPECT_EQ(first.head.mode, wire::Mode::kHamiltonianPath);
  EXPECT_EQ(first.head.network, wire::kNetworkLow);  // label 11 < 20
  for (const std::uint32_t d : dests) {
    EXPECT_EQ(nodes.ni(d).delivered, std::vector<std::uint32_t>{7});
    EXPECT_EQ(nodes.ni(d).data_words, std::vector<std::uint64_t>{0xDA7A});
  }
}

// [1]'s one-port baseline: recursive halving takes ceil(log2(m+1)) steps; m = 5 from the chain's end: 3 steps.
TEST(Firmware, OnePortHalvingTakesCeilLog2Steps) {
  Nodes nodes(4, 4, 1);
  const std::uint32_t dests[] = {1, 2, 3, 4, 5};  // labels 1, 2, 3, 7, 6: the chain has the source first
  fw::MulticastRequest r{fw::Algorithm::kOnePort, 1, 0, dests, 5, nullptr, 0};
  ASSERT_EQ(nodes.node(0).on_start_multicast(r), Status::kOk);
  nodes.deliver_all();
  unsigned steps = 0;
  for (const std::string& t : trace(nodes)) steps = std::max(steps, static_cast<unsigned>(t[0] - '0'));
  EXPECT_EQ(steps, 3u);
  EXPECT_EQ(nodes.log().size(), 5u);
}

// The job limit (docs/firmware.md, "The job limit"): a relay whose kMaxJobs jobs all wait for its
// send queue is handed a message it must send on. It takes nothing (no delivery, no send) and says
// kNoFreeJob; presented again once a job frees, it delivers once and relays. A fifth request at
// that node is refused the same way, after its own checks.
TEST(Firmware, RelayWithEveryJobBusyHoldsTheMessageAndDeliversOnce) {
  Nodes nodes(4, 4, 1);
  const std::uint32_t dests[] = {1, 2, 3, 4, 5};
  ASSERT_EQ(nodes.node(0).on_start_multicast({fw::Algorithm::kOnePort, 1, 0, dests, 5, nullptr, 0}), Status::kOk);
  const std::size_t sources_sends = nodes.log().size();
  const Sent first = nodes.log().front();  // step 1: the half of the chain the relay serves
  const std::uint32_t relay = nodes.addressed(first.head);
  const std::uint32_t others[] = {8, 9, 10};
  nodes.ni(relay).room = 0;
  for (std::uint16_t m = 1; m <= fw::kMaxJobs; ++m) {
    ASSERT_EQ(nodes.node(relay).on_start_multicast({fw::Algorithm::kUnicast, 1, m, others, 3, nullptr, 0}),
              Status::kOk);
  }
  EXPECT_FALSE(nodes.node(relay).has_free_job());
  const std::uint32_t self[] = {relay};
  EXPECT_EQ(nodes.node(relay).on_start_multicast({fw::Algorithm::kUnicast, 1, 9, self, 1, nullptr, 0}),
            Status::kBadDestinations);
  EXPECT_EQ(nodes.node(relay).on_start_multicast({fw::Algorithm::kUnicast, 1, 9, others, 3, nullptr, 0}),
            Status::kNoFreeJob);
  const auto present = [&] {
    return nodes.node(relay).on_message_received(first.head, first.payload.data(),
                                                 static_cast<std::uint32_t>(first.payload.size()));
  };
  EXPECT_EQ(present(), Status::kNoFreeJob);
  EXPECT_TRUE(nodes.ni(relay).delivered.empty()) << "a held message is not delivered yet";
  EXPECT_EQ(nodes.log().size(), sources_sends);
  nodes.ni(relay).room = 1000;
  nodes.node(relay).on_channel_free();
  ASSERT_TRUE(nodes.node(relay).has_free_job());
  const std::size_t before = nodes.log().size();
  EXPECT_EQ(before, sources_sends + 3u * fw::kMaxJobs);
  EXPECT_EQ(present(), Status::kOk);
  EXPECT_EQ(nodes.ni(relay).delivered, std::vector<std::uint32_t>{0}) << "delivered once, when taken";
  EXPECT_GT(nodes.log().size(), before) << "and relayed";
}

// Long messages (docs/firmware.md, "Long messages and large broadcasts"): two one-port broadcasts
// of 250 words each (2,000 bytes) from one source, with different data, while every other node's
// send queue is closed: the source's receivers take both messages in and wait to relay both. When the queues
// open, every message any node sends carries its own multicast's 250 words, so each relay kept
// each message's data apart (one relay buffer per job slot), and the sources sent the application's
// words. A 257-word message is refused.
TEST(Firmware, WaitingRelaysOfTwoLongMulticastsKeepTheirOwnData) {
  Nodes nodes(4, 4, 1);
  std::vector<std::uint64_t> data[2];
  for (std::uint64_t i = 0; i < 250; ++i) {
    data[0].push_back(0xA000'0000ull + i);
    data[1].push_back(0xB000'0000ull + 7 * i);
  }
  const std::uint32_t sources[2] = {0, 0};
  std::vector<std::uint32_t> dests[2];
  for (int m = 0; m < 2; ++m) {
    for (std::uint32_t v = 0; v < 16; ++v) {
      if (v != sources[m]) dests[m].push_back(v);
    }
  }
  for (std::uint32_t n = 0; n < 16; ++n) nodes.ni(n).room = n == 0 ? 1000 : 0;
  for (int m = 0; m < 2; ++m) {
    const fw::MulticastRequest r{fw::Algorithm::kOnePort, 1,  static_cast<std::uint16_t>(m), dests[m].data(), 15,
                                 data[m].data(),          250};
    ASSERT_EQ(nodes.node(sources[m]).on_start_multicast(r), Status::kOk);
  }
  std::size_t delivered = 0;
  const auto deliver_new = [&] {
    for (; delivered < nodes.log().size(); ++delivered) {
      const Sent s = nodes.log()[delivered];
      EXPECT_EQ(nodes.node(nodes.addressed(s.head))
                    .on_message_received(s.head, s.payload.data(), static_cast<std::uint32_t>(s.payload.size())),
                Status::kOk);
    }
  };
  deliver_new();
  int holding_both = 0;  // nodes waiting to relay both multicasts
  for (std::uint32_t n = 1; n < 16; ++n) {
    const std::vector<std::uint32_t>& got = nodes.ni(n).delivered;
    holding_both += !nodes.node(n).idle() && got.size() == 2;
  }
  EXPECT_GT(holding_both, 0) << "no relay held both messages at once: the test shows nothing";
  for (std::uint32_t n = 0; n < 16; ++n) nodes.ni(n).room = 1000;
  for (std::uint32_t n = 0; n < 16; ++n) nodes.node(n).on_channel_free();
  deliver_new();
  EXPECT_EQ(nodes.log().size(), 30u);  // 15 receivers per multicast, each reached once
  for (const Sent& s : nodes.log()) {
    fw::MessageInfo info;
    ASSERT_TRUE(fw::decode_control(s.payload.data(), static_cast<std::uint32_t>(s.payload.size()), info));
    ASSERT_LT(info.multicast, 2);
    ASSERT_EQ(info.data_words, 250);
    const std::uint64_t* words = s.payload.data() + fw::kControlWords + fw::address_words(info.address_entries);
    EXPECT_TRUE(std::equal(data[info.multicast].begin(), data[info.multicast].end(), words))
        << "multicast " << info.multicast << " sent by node " << s.sender << " carries other data";
  }
  for (std::uint32_t n = 0; n < 16; ++n) {
    EXPECT_EQ(nodes.ni(n).delivered.size(), n == 0 ? 0u : 2u) << "node " << n;
  }
  std::vector<std::uint64_t> too_long(fw::kMaxDataWords + 1, 0);
  const fw::MulticastRequest r{
      fw::Algorithm::kOnePort, 1, 2, dests[0].data(), 15, too_long.data(), static_cast<std::uint32_t>(too_long.size())};
  EXPECT_EQ(nodes.node(0).on_start_multicast(r), Status::kTooMuchData);
}

// The send queue is full: the firmware waits and resumes on on_channel_free, losing nothing.
TEST(Firmware, FullSendQueueResumesOnChannelFree) {
  Nodes nodes(4, 4, 1);
  const std::uint32_t dests[] = {1, 2, 3, 4, 5, 6, 7};
  nodes.ni(0).room = 2;
  fw::MulticastRequest r{fw::Algorithm::kUnicast, 1, 0, dests, 7, nullptr, 0};
  ASSERT_EQ(nodes.node(0).on_start_multicast(r), Status::kOk);
  EXPECT_EQ(nodes.log().size(), 2u);
  EXPECT_FALSE(nodes.node(0).idle());
  nodes.ni(0).room = 100;
  nodes.node(0).on_channel_free();
  EXPECT_EQ(nodes.log().size(), 7u);
  EXPECT_TRUE(nodes.node(0).idle());
}

// The replication lock on the firmware alone (firmware/replication_lock.hpp), messages handed over
// by hand on mesh:4x4: PCP sources (2,1) and (1,3) send their X lines at once and a lock request
// each to the coordinator (0,0), with the heads their spines end in (8: +Y over 2 rows and -Y over
// 1, two branches a row, + two spine ends; 7: -Y over 3 rows + its end); the coordinator grants
// (2,1) first, (1,3) waits; (2,1) sends its spines on the grant; a node on a spine that is not its
// end acknowledges nothing; the grant to (1,3) goes only after the last of (2,1)'s eight heads is
// acknowledged (seven messages, and (0,0)'s own copy acknowledged locally).
TEST(FirmwareLock, CoordinatorGrantsInRequestOrderAfterEveryHeadIsAcknowledged) {
  Nodes nodes(4, 4, 4);
  const std::uint32_t a = nodes.id(2, 1), b = nodes.id(1, 3);
  std::vector<std::uint32_t> all_but_a, all_but_b;
  for (std::uint32_t n = 0; n < 16; ++n) {
    if (n != a) all_but_a.push_back(n);
    if (n != b) all_but_b.push_back(n);
  }
  const auto start = [&](std::uint32_t source, std::uint16_t multicast, const std::vector<std::uint32_t>& dests) {
    fw::MulticastRequest r{fw::Algorithm::kPcp, 4, multicast, dests.data(), 15, nullptr, 0};
    r.all_port = true;
    ASSERT_EQ(nodes.node(source).on_start_multicast(r), Status::kOk);
  };
  const auto info_of = [&](std::size_t i) {
    fw::MessageInfo info;
    const Sent& s = nodes.log()[i];
    EXPECT_TRUE(fw::decode_control(s.payload.data(), static_cast<std::uint32_t>(s.payload.size()), info));
    return info;
  };
  const auto hand_over = [&](std::size_t i, std::uint32_t to) {
    const Sent s = nodes.log()[i];
    EXPECT_EQ(
        nodes.node(to).on_message_received(s.head, s.payload.data(), static_cast<std::uint32_t>(s.payload.size())),
        Status::kOk);
  };
  // The sends of one kind (lock messages) or of CPR lines, as indices into the log.
  const auto sends = [&](fw::MessageKind kind, std::size_t from = 0) {
    std::vector<std::size_t> found;
    for (std::size_t i = from; i < nodes.log().size(); ++i) {
      if (info_of(i).kind == kind) found.push_back(i);
    }
    return found;
  };
  start(a, 0, all_but_a);
  start(b, 1, all_but_b);
  const std::vector<std::size_t> requests = sends(fw::MessageKind::kLockRequest);
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(info_of(requests[0]).lock_count, 8u);
  EXPECT_EQ(info_of(requests[1]).lock_count, 7u);
  EXPECT_EQ(nodes.log()[requests[0]].channel, 2u);           // the channel of (2,1)'s first spine (+Y)
  EXPECT_EQ(nodes.log()[requests[1]].channel, 3u);           // (1,3) has only a -Y spine
  EXPECT_EQ(sends(fw::MessageKind::kMulticast).size(), 4u);  // the X lines alone: the spines wait
  hand_over(requests[0], 0);
  hand_over(requests[1], 0);
  std::vector<std::size_t> grants = sends(fw::MessageKind::kLockGrant);
  ASSERT_EQ(grants.size(), 1u);
  EXPECT_EQ(nodes.addressed(nodes.log()[grants[0]].head), a);
  EXPECT_EQ(info_of(grants[0]).multicast, 0u);
  const std::size_t before_spines = nodes.log().size();
  hand_over(grants[0], a);
  std::vector<std::size_t> spines;
  for (std::size_t i = before_spines; i < nodes.log().size(); ++i) {
    if (nodes.log()[i].head.mode == wire::Mode::kCprLine) spines.push_back(i);
  }
  ASSERT_EQ(spines.size(), 2u);
  // The copies the routers deliver at the heads' ends carry the spine's payload and a head naming
  // the end (a branch's head is rewritten to its row end).
  const auto copy_to = [&](std::uint32_t node, unsigned x, unsigned y, std::size_t spine) {
    const Sent s = nodes.log()[spine];
    wire::HeadFields head = s.head;
    head.dest = wire::pack_coord_dest({static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(y), 0});
    EXPECT_EQ(
        nodes.node(node).on_message_received(head, s.payload.data(), static_cast<std::uint32_t>(s.payload.size())),
        Status::kOk);
  };
  const std::size_t up = spines[0], down = spines[1];
  const std::size_t before_acks = nodes.log().size();
  copy_to(nodes.id(2, 2), 2, 3, up);  // a spine router on the way: no acknowledgement
  EXPECT_EQ(nodes.log().size(), before_acks);
  const std::vector<std::tuple<unsigned, unsigned, std::size_t>> ends = {
      {2, 3, up}, {0, 2, up}, {3, 2, up}, {0, 3, up}, {3, 3, up}, {2, 0, down}, {3, 0, down}, {0, 0, down}};
  for (const auto& [x, y, spine] : ends) copy_to(nodes.id(x, y), x, y, spine);
  const std::vector<std::size_t> dones = sends(fw::MessageKind::kLockDone, before_acks);
  ASSERT_EQ(dones.size(), 7u);  // (0,0) acknowledges its own locally
  for (std::size_t k = 0; k < dones.size(); ++k) {
    EXPECT_EQ(nodes.addressed(nodes.log()[dones[k]].head), 0u);
    EXPECT_EQ(sends(fw::MessageKind::kLockGrant).size(), 1u) << "granted after " << k << " acknowledgements";
    hand_over(dones[k], 0);
  }
  grants = sends(fw::MessageKind::kLockGrant);
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(nodes.addressed(nodes.log()[grants[1]].head), b);
  EXPECT_EQ(info_of(grants[1]).multicast, 1u);
  // An acknowledgement nobody waits for is a bad message, not a crash.
  EXPECT_EQ(nodes.node(0).on_message_received(nodes.log()[dones[0]].head, nodes.log()[dones[0]].payload.data(),
                                              static_cast<std::uint32_t>(nodes.log()[dones[0]].payload.size())),
            Status::kBadMessage);
}

// The thesis's Example 3.2.1.1 (paper [5], vectors V25-V30): source (0,0), D = {(0,2),
// (3,0), (4,0), (4,6), (6,6), (7,4)} on the 8x8 mesh and torus, one-port. Each one-hop worm is a
// tree link (traffic = worms) and its step is the hop in which its child receives (time = the
// largest step).
struct TreeOutcome {
  std::size_t traffic = 0;
  unsigned time = 0;
  std::vector<unsigned> destination_steps;
};

TreeOutcome run_example(fw::Algorithm algorithm, fw::GridKind kind) {
  Nodes nodes(8, 8, 1, kind);
  const std::uint32_t dests[] = {nodes.id(0, 2), nodes.id(3, 0), nodes.id(4, 0),
                                 nodes.id(4, 6), nodes.id(6, 6), nodes.id(7, 4)};
  EXPECT_EQ(nodes.node(0).on_start_multicast({algorithm, 1, 0, dests, 6, nullptr, 0}), Status::kOk);
  nodes.deliver_all();
  TreeOutcome out;
  out.traffic = nodes.log().size();
  for (const std::uint32_t d : dests) {
    unsigned step = 0;
    for (const Sent& s : nodes.log()) {
      fw::MessageInfo info;
      EXPECT_TRUE(fw::decode_control(s.payload.data(), static_cast<std::uint32_t>(s.payload.size()), info));
      out.time = std::max(out.time, static_cast<unsigned>(info.step));
      if (nodes.addressed(s.head) == d) step = info.step;
    }
    out.destination_steps.push_back(step);
    EXPECT_EQ(nodes.ni(d).delivered.size(), 1u) << nodes.name(d);
  }
  return out;
}

TEST(FirmwareTrees, DiagMeshIsV25) {
  const TreeOutcome o = run_example(fw::Algorithm::kDiag, fw::GridKind::kMesh);
  EXPECT_EQ(o.traffic, 21u);
  EXPECT_EQ(o.time, 12u);
  EXPECT_EQ(o.destination_steps, (std::vector<unsigned>{3, 4, 5, 11, 12, 12}));
}

TEST(FirmwareTrees, VhMeshIsV26) {
  const TreeOutcome o = run_example(fw::Algorithm::kVh, fw::GridKind::kMesh);
  EXPECT_EQ(o.traffic, 25u);
  EXPECT_EQ(o.time, 13u);
  EXPECT_EQ(o.destination_steps, (std::vector<unsigned>{3, 3, 4, 11, 13, 11}));
}

TEST(FirmwareTrees, DdsMeshIsV27) {
  const TreeOutcome o = run_example(fw::Algorithm::kDds, fw::GridKind::kMesh);
  EXPECT_EQ(o.traffic, 17u);
  EXPECT_EQ(o.time, 13u);
}

TEST(FirmwareTrees, TorusTreesAreV28ToV30) {
  const TreeOutcome diag = run_example(fw::Algorithm::kDiag, fw::GridKind::kTorus);
  EXPECT_EQ(diag.traffic, 17u);
  EXPECT_EQ(diag.time, 6u);
  const TreeOutcome dds = run_example(fw::Algorithm::kDds, fw::GridKind::kTorus);
  EXPECT_EQ(dds.traffic, 16u);
  EXPECT_EQ(dds.time, 6u);
  const TreeOutcome vh = run_example(fw::Algorithm::kVh, fw::GridKind::kTorus);
  EXPECT_EQ(vh.traffic, 18u);
  EXPECT_EQ(vh.time, 6u);
}

// The destinations one path worm visits, as labels: the head's, then its address flits'.
std::vector<std::uint32_t> path_labels(const Sent& s) {
  std::vector<std::uint32_t> labels{s.head.dest};
  for (const wire::HeadFields& a : s.address) labels.push_back(a.dest);
  return labels;
}

// V38: LIN on the 10x10 mesh from (0,0), all-port: one ascending worm through labels 2, 16, 27,
// 38, 40, 52 in the high network; its first hop (to label 1 at (1,0)) is +X, channel 0.
TEST(FirmwarePath, LinOnTenByTenIsV38) {
  Nodes nodes(10, 10, 4);
  const std::uint32_t d[] = {nodes.id(2, 0), nodes.id(3, 1), nodes.id(7, 2),
                             nodes.id(7, 5), nodes.id(0, 4), nodes.id(1, 3)};
  const std::uint64_t data[] = {7, 8};
  fw::MulticastRequest r{fw::Algorithm::kLin, 4, 3, d, 6, data, 2};
  r.all_port = true;
  ASSERT_EQ(nodes.node(0).on_start_multicast(r), Status::kOk);
  ASSERT_EQ(nodes.log().size(), 1u);
  const Sent& s = nodes.log()[0];
  EXPECT_EQ(path_labels(s), (std::vector<std::uint32_t>{2, 16, 27, 38, 40, 52}));
  EXPECT_EQ(s.head.mode, wire::Mode::kHamiltonianPath);
  EXPECT_EQ(s.head.network, wire::kNetworkHigh);
  EXPECT_EQ(s.head.more, 5u);
  EXPECT_EQ(s.channel, 0u);
  for (std::size_t k = 0; k < s.address.size(); ++k) {  // address flits: the head's layout, `more` counting down
    EXPECT_EQ(s.address[k].mode, wire::Mode::kHamiltonianPath);
    EXPECT_EQ(s.address[k].network, wire::kNetworkHigh);
    EXPECT_EQ(s.address[k].more, 4u - k);
    EXPECT_EQ(s.address[k].src, 0u);
  }
  // Each destination's copy (head naming it) delivers, and only delivers.
  for (const std::uint32_t n : d) {
    wire::HeadFields copy = s.head;
    copy.dest = nodes.label(n);
    EXPECT_EQ(nodes.node(n).on_message_received(copy, s.payload.data(), static_cast<std::uint32_t>(s.payload.size())),
              Status::kOk);
    EXPECT_EQ(nodes.ni(n).delivered, (std::vector<std::uint32_t>{3}));
    EXPECT_EQ(nodes.ni(n).data_words, (std::vector<std::uint64_t>{7, 8}));
  }
  EXPECT_EQ(nodes.log().size(), 1u);
  // A copy whose head names another node is refused.
  EXPECT_EQ(nodes.node(nodes.id(2, 0)).on_message_received(s.head, s.payload.data(), 0), Status::kBadMessage);
  wire::HeadFields wrong = s.head;
  wrong.dest = 5;
  EXPECT_EQ(nodes.node(nodes.id(2, 0))
                .on_message_received(wrong, s.payload.data(), static_cast<std::uint32_t>(s.payload.size())),
            Status::kBadMessage);
}

// V19: dual-path broadcast on the 4x4 mesh from (1,1) (label 6): D_U = [7..15] ascending in the
// high network, D_L = [5..0] descending in the low one. One-port: high in step 1, low in step 2;
// two-port: both in step 1, low on channel 0, high on channel 1.
TEST(FirmwarePath, DualPathBroadcastOnFourByFourIsV19) {
  for (const unsigned ports : {1u, 2u}) {
    Nodes nodes(4, 4, 2);
    std::vector<std::uint32_t> d;
    for (std::uint32_t n = 0; n < 16; ++n) {
      if (n != nodes.id(1, 1)) d.push_back(n);
    }
    ASSERT_EQ(nodes.node(nodes.id(1, 1))
                  .on_start_multicast({fw::Algorithm::kDualPath, static_cast<std::uint8_t>(ports), 0, d.data(),
                                       static_cast<std::uint32_t>(d.size()), nullptr, 0}),
              Status::kOk);
    ASSERT_EQ(nodes.log().size(), 2u);
    const Sent& high = nodes.log()[0];
    const Sent& low = nodes.log()[1];
    EXPECT_EQ(path_labels(high), (std::vector<std::uint32_t>{7, 8, 9, 10, 11, 12, 13, 14, 15}));
    EXPECT_EQ(path_labels(low), (std::vector<std::uint32_t>{5, 4, 3, 2, 1, 0}));
    EXPECT_EQ(high.head.network, wire::kNetworkHigh);
    EXPECT_EQ(low.head.network, wire::kNetworkLow);
    // The VC-class plan (docs/firmware.md "VC classes"): the class is the network, high 0, low 1.
    EXPECT_EQ(high.head.vc_class, 0u);
    EXPECT_EQ(low.head.vc_class, 1u);
    EXPECT_EQ(trace(nodes), ports == 1 ? (std::vector<std::string>{"1 (1,1)->(0,1) ch0", "2 (1,1)->(2,1) ch0"})
                                       : (std::vector<std::string>{"1 (1,1)->(0,1) ch1", "1 (1,1)->(2,1) ch0"}));
  }
}

// Multi-path on the 4x4 mesh from (1,1) (label 6, odd row: the high row channel is -X, the low
// one +X), worked by hand from docs/algorithms.md "Multi-path": high row part {(0,3) 15}, high
// column part {(1,2) 9, (3,3) 12}, low row part {(2,1) 5, (3,0) 3}, low column part {(1,0) 1,
// (0,0) 0}. All four in step 1 on four channels; R would take the high row worm's first hop up
// the column (label 9), so it leaves behind a source-routed prefix over -X.
TEST(FirmwarePath, MultiPathSplitsByTheSourceColumnWithARowPrefix) {
  Nodes nodes(4, 4, 4);
  const std::uint32_t d[] = {nodes.id(0, 3), nodes.id(1, 2), nodes.id(3, 3), nodes.id(2, 1),
                             nodes.id(3, 0), nodes.id(1, 0), nodes.id(0, 0)};
  fw::MulticastRequest r{fw::Algorithm::kMultiPath, 4, 0, d, 7, nullptr, 0};
  EXPECT_EQ(nodes.node(nodes.id(1, 1)).on_start_multicast(r), Status::kBadPortCount);  // not all-port
  r.all_port = true;
  ASSERT_EQ(nodes.node(nodes.id(1, 1)).on_start_multicast(r), Status::kOk);
  ASSERT_EQ(nodes.log().size(), 4u);
  const Sent& row_high = nodes.log()[0];
  EXPECT_EQ(row_high.channel, 1u);
  EXPECT_EQ(row_high.head.src, nodes.id(1, 1));
  EXPECT_EQ(row_high.head.mode, wire::Mode::kSourceRouted);
  EXPECT_EQ(row_high.head.more, 1u);
  EXPECT_EQ(wire::route_entry(row_high.head.dest, 0), (wire::RouteEntry{false, 1}));
  EXPECT_TRUE(wire::route_used_up(wire::route_shift(row_high.head.dest)));
  ASSERT_EQ(row_high.address.size(), 1u);
  EXPECT_EQ(row_high.address[0].mode, wire::Mode::kHamiltonianPath);
  EXPECT_EQ(row_high.address[0].network, wire::kNetworkHigh);
  EXPECT_EQ(row_high.head.vc_class, 0u);  // the prefix travels in its row worm's class: high 0
  EXPECT_EQ(row_high.address[0].vc_class, 0u);
  EXPECT_EQ(row_high.address[0].dest, 15u);
  EXPECT_EQ(row_high.address[0].more, 0u);
  EXPECT_EQ(row_high.address[0].src, row_high.head.src);
  EXPECT_EQ(row_high.address[0].tag, row_high.head.tag);
  const std::vector<std::vector<std::uint32_t>> lists = {{9, 12}, {5, 3}, {1, 0}};
  const unsigned channels[] = {2, 0, 3};
  for (std::size_t i = 0; i < 3; ++i) {
    const Sent& w = nodes.log()[i + 1];
    EXPECT_EQ(w.head.mode, wire::Mode::kHamiltonianPath);
    EXPECT_EQ(w.head.vc_class, i == 0 ? 0u : 1u);  // the high column worm, then the two low worms
    EXPECT_EQ(path_labels(w), lists[i]);
    EXPECT_EQ(w.channel, channels[i]);
  }
  for (const std::string& t : trace(nodes)) EXPECT_EQ(t.substr(0, 2), "1 ");
}

// V9 and V10: seed 001 on the 4x4 torus from (3,2) (label 11), K = labels {0,1,2,6,8,10,12,13,15}.
// Uniform: D^h = [12,13,15,0,1], D^l = [10,8,6,2]; fixed (pivot 3): D^h = [12,13,15,0,1,2],
// D^l = [10,8,6]. All-port: the high worm leaves toward label 12 (+Y, channel 2) in class ph (0),
// the low one toward label 10 (-X, channel 1) in class pl (2), both in step 1, mode 1.
TEST(FirmwarePath, UniformAndFixedOnTheFourByFourTorusAreV9AndV10) {
  for (const fw::Algorithm a : {fw::Algorithm::kUniform, fw::Algorithm::kFixed}) {
    Nodes nodes(4, 4, 4, fw::GridKind::kTorus);
    std::vector<std::uint32_t> d;
    for (std::uint32_t n = 0; n < 16; ++n) {
      for (const std::uint32_t label : {0u, 1u, 2u, 6u, 8u, 10u, 12u, 13u, 15u}) {
        if (nodes.label(n) == label) d.push_back(n);
      }
    }
    fw::MulticastRequest r{a, 4, 0, d.data(), static_cast<std::uint32_t>(d.size()), nullptr, 0};
    r.all_port = true;
    ASSERT_EQ(nodes.node(nodes.id(3, 2)).on_start_multicast(r), Status::kOk);
    ASSERT_EQ(nodes.log().size(), 2u);
    const Sent& high = nodes.log()[0];
    const Sent& low = nodes.log()[1];
    const bool uniform = a == fw::Algorithm::kUniform;
    EXPECT_EQ(path_labels(high), uniform ? (std::vector<std::uint32_t>{12, 13, 15, 0, 1})
                                         : (std::vector<std::uint32_t>{12, 13, 15, 0, 1, 2}));
    EXPECT_EQ(path_labels(low),
              uniform ? (std::vector<std::uint32_t>{10, 8, 6, 2}) : (std::vector<std::uint32_t>{10, 8, 6}));
    EXPECT_EQ(high.head.mode, wire::Mode::kHamiltonianCycle);
    EXPECT_EQ(high.head.network, wire::kNetworkHigh);
    EXPECT_EQ(high.head.vc_class, 0u);
    EXPECT_EQ(high.channel, 2u);
    EXPECT_EQ(low.head.mode, wire::Mode::kHamiltonianCycle);
    EXPECT_EQ(low.head.network, wire::kNetworkLow);
    EXPECT_EQ(low.head.vc_class, 2u);
    EXPECT_EQ(low.channel, 1u);
    for (const wire::HeadFields& f : high.address) EXPECT_EQ(f.vc_class, 0u);
  }
  Nodes mesh(4, 4, 4);
  const std::uint32_t one[] = {5};
  EXPECT_EQ(mesh.node(0).on_start_multicast({fw::Algorithm::kUniform, 1, 0, one, 1, nullptr, 0}),
            Status::kUnsupportedTopology);
}

// Star graph S4 (docs/model.md, "Port numbering" and "Node ids"): ids are lexicographic ranks of
// the permutations; port i-2 swaps the first symbol with the i-th. V11 gives the cycle's labels.
std::uint32_t star_rank(std::string perm) {
  std::string p = perm;
  std::sort(p.begin(), p.end());
  std::uint32_t rank = 0;
  while (p != perm) {
    std::next_permutation(p.begin(), p.end());
    ++rank;
  }
  return rank;
}

std::vector<std::uint16_t> v11_labels() {
  const char* cycle[] = {"1234", "2134", "3124", "1324", "2314", "3214", "4213", "1243",
                         "2143", "4123", "1423", "2413", "3412", "4312", "1342", "3142",
                         "4132", "1432", "2431", "3421", "4321", "2341", "3241", "4231"};
  std::vector<std::uint16_t> labels(24);
  for (std::uint16_t l = 0; l < 24; ++l) labels[star_rank(cycle[l])] = l;
  return labels;
}

// The S4 grid with the Hamiltonian-cycle labels `labels` (node id -> label; kept by the caller).
fw::Grid four_star(const std::vector<std::uint16_t>& labels) {
  fw::Grid g;
  g.kind = fw::GridKind::kStar;
  g.dims = 0;
  g.star_order = 4;
  g.star_labels = labels.data();
  return g;
}

// The node ids that carry `wanted` labels, in that order.
std::vector<std::uint32_t> nodes_of_labels(const std::vector<std::uint16_t>& labels,
                                           std::initializer_list<std::uint32_t> wanted) {
  std::vector<std::uint32_t> d;
  for (const std::uint32_t label : wanted) {
    d.push_back(static_cast<std::uint32_t>(std::find(labels.begin(), labels.end(), label) - labels.begin()));
  }
  return d;
}

TEST(FirmwareStar, GeneratorNeighboursFollowThePortNumbering) {
  // docs/model.md: from 1432, port 0 (g2) leads to 4132, port 1 (g3) to 3412, port 2 (g4) to 2431.
  EXPECT_EQ(fw::star_neighbour(star_rank("1432"), 4, 0), star_rank("4132"));
  EXPECT_EQ(fw::star_neighbour(star_rank("1432"), 4, 1), star_rank("3412"));
  EXPECT_EQ(fw::star_neighbour(star_rank("1432"), 4, 2), star_rank("2431"));
  EXPECT_EQ(fw::star_neighbour(star_rank("54321"), 5, 3), star_rank("14325"));
  for (std::uint32_t v = 0; v < 120; ++v) {
    for (unsigned p = 0; p < 4; ++p) EXPECT_EQ(fw::star_neighbour(fw::star_neighbour(v, 5, p), 5, p), v);
  }
}

TEST(FirmwareStar, InitChecksTheCycleConfiguration) {
  std::vector<Sent> log;
  RecordingNi ni(0, 3, &log);
  std::vector<std::uint16_t> labels = v11_labels();
  fw::Grid g = four_star(labels);
  fw::NodeFirmware f;
  EXPECT_EQ(f.init({g, 5}, &ni), Status::kOk);
  EXPECT_EQ(g.label(5), 17u);  // 1432 is id 5, label 17
  EXPECT_EQ(f.init({g, 24}, &ni), Status::kBadConfig);
  std::swap(labels[star_rank("2134")], labels[star_rank("3124")]);  // labels 1 and 2: not adjacent to 0 and 3
  EXPECT_EQ(f.init({g, 5}, &ni), Status::kBadConfig);
  g.star_labels = nullptr;
  EXPECT_EQ(f.init({g, 5}, &ni), Status::kBadConfig);
}

// V12 and V13: seed 001 on S4 from 1432 (label 17), K = labels {1,2,4,7,9,12,19,21,22}. Uniform:
// D^h = [19,21,22,1,2], D^l = [12,9,7,4]; fixed (pivot 5): D^h = [19,21,22,1,2,4], D^l = [12,9,7].
// All-port (3 channels): the high worm's path starts 17 -> 18 (2431, port 2), the low one's
// 17 -> 12 (3412, port 1); classes ph (0) and pl (2), mode 1. Other algorithms are refused.
TEST(FirmwareStar, UniformAndFixedOnTheFourStarAreV12AndV13) {
  const std::vector<std::uint16_t> labels = v11_labels();
  fw::Grid g = four_star(labels);
  const std::vector<std::uint32_t> d = nodes_of_labels(labels, {1, 2, 4, 7, 9, 12, 19, 21, 22});
  for (const fw::Algorithm a : {fw::Algorithm::kUniform, fw::Algorithm::kFixed}) {
    std::vector<Sent> log;
    RecordingNi ni(star_rank("1432"), 3, &log);
    fw::NodeFirmware f;
    ASSERT_EQ(f.init({g, star_rank("1432")}, &ni), Status::kOk);
    fw::MulticastRequest r{a, 3, 0, d.data(), static_cast<std::uint32_t>(d.size()), nullptr, 0};
    r.all_port = true;
    ASSERT_EQ(f.on_start_multicast(r), Status::kOk);
    ASSERT_EQ(log.size(), 2u);
    const bool uniform = a == fw::Algorithm::kUniform;
    EXPECT_EQ(path_labels(log[0]), uniform ? (std::vector<std::uint32_t>{19, 21, 22, 1, 2})
                                           : (std::vector<std::uint32_t>{19, 21, 22, 1, 2, 4}));
    EXPECT_EQ(path_labels(log[1]),
              uniform ? (std::vector<std::uint32_t>{12, 9, 7, 4}) : (std::vector<std::uint32_t>{12, 9, 7}));
    EXPECT_EQ(log[0].head.mode, wire::Mode::kHamiltonianCycle);
    EXPECT_EQ(log[0].head.vc_class, 0u);
    EXPECT_EQ(log[0].channel, 2u);
    EXPECT_EQ(log[1].head.vc_class, 2u);
    EXPECT_EQ(log[1].channel, 1u);
    r.all_port = false;
    r.ports = 4;
    EXPECT_EQ(f.on_start_multicast(r), Status::kBadPortCount);  // S4 has three channels
    r.ports = 1;
    r.algorithm = fw::Algorithm::kDualPath;
    EXPECT_EQ(f.on_start_multicast(r), Status::kUnsupportedTopology);
  }
}

// HP dual-path on S4 from 1432 (label 17), V12's K: dual-path's lists on the path 0..23, high =
// labels above 17 ascending [19,21,22], low = below descending [12,9,7,4,2,1]. The high worm's
// first hop is the path successor 2431 (18, port 2), the low one's the common link to 3412 (12,
// port 1): classes ph (0) and pl (2), mode 1. Meshes refuse it (dual-path runs there).
TEST(FirmwareStar, HpDualPathOnTheFourStarSplitsAtTheSourceLabel) {
  const std::vector<std::uint16_t> labels = v11_labels();
  fw::Grid g = four_star(labels);
  const std::vector<std::uint32_t> d = nodes_of_labels(labels, {1, 2, 4, 7, 9, 12, 19, 21, 22});
  std::vector<Sent> log;
  RecordingNi ni(star_rank("1432"), 3, &log);
  fw::NodeFirmware f;
  ASSERT_EQ(f.init({g, star_rank("1432")}, &ni), Status::kOk);
  fw::MulticastRequest r{fw::Algorithm::kHpDualPath, 3, 0, d.data(), static_cast<std::uint32_t>(d.size()), nullptr, 0};
  r.all_port = true;
  ASSERT_EQ(f.on_start_multicast(r), Status::kOk);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(path_labels(log[0]), (std::vector<std::uint32_t>{19, 21, 22}));
  EXPECT_EQ(path_labels(log[1]), (std::vector<std::uint32_t>{12, 9, 7, 4, 2, 1}));
  EXPECT_EQ(log[0].head.mode, wire::Mode::kHamiltonianCycle);
  EXPECT_EQ(log[0].head.vc_class, 0u);
  EXPECT_EQ(log[0].channel, 2u);
  EXPECT_EQ(log[1].head.mode, wire::Mode::kHamiltonianCycle);
  EXPECT_EQ(log[1].head.vc_class, 2u);
  EXPECT_EQ(log[1].channel, 1u);

  Nodes mesh(4, 4, 4);
  const std::uint32_t one[] = {5};
  EXPECT_EQ(mesh.node(0).on_start_multicast({fw::Algorithm::kHpDualPath, 1, 0, one, 1, nullptr, 0}),
            Status::kUnsupportedTopology);
}

// EDN broadcasts (docs/algorithms.md, "EDN step by step") from every source of the 4x4, 8x8 and
// 16x16 meshes, messages delivered in send order: every node other than the source delivers
// exactly once; k + 1 steps; steps 1-2 reach exactly the four top EDNs ((2,0), (n-1,2),
// (n-3,n-1), (0,n-3)), later steps 3 * 4^(s-2) nodes (one fewer where the source is one of
// them); each worm leaves on its first hop's channel, XY worms by dimension order in class 0,
// YX worms source-routed in class 1 (Y leg, then X leg); no two worms of a step share a directed
// channel; a sender sends at most one worm per channel per step.
TEST(FirmwareEdn, BroadcastsReachEveryNodeOnceInKPlusOneContentionFreeSteps) {
  for (const unsigned k : {2u, 3u, 4u}) {
    const unsigned n = 1u << k;
    for (std::uint32_t source = 0; source < n * n; ++source) {
      Nodes nodes(n, n, 4);
      std::vector<std::uint32_t> d;
      for (std::uint32_t v = 0; v < n * n; ++v) {
        if (v != source) d.push_back(v);
      }
      const std::uint64_t data[] = {7, 8};
      fw::MulticastRequest r{fw::Algorithm::kEdn, 4, 3, d.data(), static_cast<std::uint32_t>(d.size()), data, 2};
      r.all_port = true;
      ASSERT_EQ(nodes.node(source).on_start_multicast(r), Status::kOk);
      // Receivers of source-routed worms: follow the route; the recorded log is then replayed.
      std::vector<std::uint32_t> receiver;
      std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> channel_use;  // (step, node*4+port)
      std::map<std::uint32_t, std::set<std::uint32_t>> reached;                      // step -> receivers
      std::set<std::tuple<std::uint32_t, std::uint32_t, unsigned>> sender_channels;
      for (std::size_t i = 0; i < nodes.log().size(); ++i) {
        const Sent s = nodes.log()[i];
        fw::MessageInfo info;
        ASSERT_TRUE(fw::decode_control(s.payload.data(), static_cast<std::uint32_t>(s.payload.size()), info));
        std::uint32_t x = s.sender % n, y = s.sender / n;
        std::vector<unsigned> ports;
        if (s.head.mode == wire::Mode::kSourceRouted) {
          EXPECT_EQ(s.head.vc_class, 1u);
          std::vector<wire::HeadFields> flits{s.head};
          flits.insert(flits.end(), s.address.begin(), s.address.end());
          for (const wire::HeadFields& f : flits) {
            for (unsigned e = 0; e < wire::kRouteEntries; ++e) {
              const wire::RouteEntry entry = wire::route_entry(f.dest, e);
              if (entry.port == wire::kRoutePortEnd) break;
              EXPECT_FALSE(entry.deliver);
              ports.push_back(entry.port);
            }
          }
          for (std::size_t h = 1; h < ports.size(); ++h) EXPECT_FALSE(ports[h] >= 2 && ports[h - 1] < 2) << "X then Y";
        } else {
          ASSERT_EQ(s.head.mode, wire::Mode::kDimensionOrder);
          EXPECT_EQ(s.head.vc_class, 0u);
          const wire::Coords c = wire::unpack_coord_dest(s.head.dest);
          while (x != c.x) {
            ports.push_back(c.x > x ? 0u : 1u);
            x = c.x > x ? x + 1 : x - 1;
          }
          while (y != c.y) {
            ports.push_back(c.y > y ? 2u : 3u);
            y = c.y > y ? y + 1 : y - 1;
          }
          x = s.sender % n;
          y = s.sender / n;
        }
        ASSERT_FALSE(ports.empty());
        EXPECT_EQ(s.channel, ports.front());
        EXPECT_TRUE(sender_channels.insert({info.step, s.sender, s.channel}).second) << "two worms on one channel";
        for (const unsigned p : ports) {
          EXPECT_EQ(++channel_use[std::pair(std::uint32_t{info.step}, (x + n * y) * 4 + p)], 1u)
              << "step " << info.step << " shares a channel, source " << source;
          x = p == 0 ? x + 1 : p == 1 ? x - 1 : x;
          y = p == 2 ? y + 1 : p == 3 ? y - 1 : y;
        }
        const std::uint32_t to = x + n * y;
        reached[info.step].insert(to);
        EXPECT_EQ(
            nodes.node(to).on_message_received(s.head, s.payload.data(), static_cast<std::uint32_t>(s.payload.size())),
            Status::kOk);
      }
      for (std::uint32_t v = 0; v < n * n; ++v) {
        EXPECT_EQ(nodes.ni(v).delivered.size(), v == source ? 0u : 1u) << "node " << v << " source " << source;
      }
      ASSERT_EQ(reached.rbegin()->first, k + 1) << "source " << source;
      std::set<std::uint32_t> top{reached[1]};
      top.insert(reached[2].begin(), reached[2].end());
      std::set<std::uint32_t> want{2, n - 1 + n * 2, n - 3 + n * (n - 1), n * (n - 3)};
      want.erase(source);
      EXPECT_EQ(top, want) << "source " << source;
      for (unsigned step = 3; step <= k + 1; ++step) {
        const std::size_t full = 3u << (2 * (step - 2));
        EXPECT_TRUE(reached[step].size() == full || reached[step].size() + 1 == full) << "step " << step;
      }
    }
  }
}

// np-d (docs/algorithms.md, "Network partitioning") from (1,1) on mesh:4x4, k = 2, a 7-word
// message: sub-messages of 2, 2, 2 and 1 words (DDN i = x mod 2 + 2 (y mod 2); the source's is 3).
// Step 1 in DDN order: DDN 0's representative is one column outside the block, (2,0), on the +X
// channel; DDN 1's the Y neighbour (1,0) on -Y; DDN 2's the X neighbour (0,1) on -X. Step 2: the
// partners 2 apart, (3,1) on +X, (1,3) on +Y, and the diagonal (3,3), whose first hop +X is taken,
// on the lowest free channel 1. Step 3 its sub-message to its X neighbour, step 4 its own and its X
// neighbour's to its Y neighbour. The source holds everything, so its eight sends go at once.
TEST(FirmwareNpd, FourByFourFromOneOneIsTheHandDerivedSchedule) {
  Nodes nodes(4, 4, 4);
  std::vector<std::uint32_t> d;
  for (std::uint32_t v = 0; v < 16; ++v) {
    if (v != nodes.id(1, 1)) d.push_back(v);
  }
  const std::uint64_t data[] = {10, 11, 12, 13, 14, 15, 16};
  fw::MulticastRequest r{fw::Algorithm::kNpD, 4, 5, d.data(), 15, data, 7};
  r.all_port = true;
  ASSERT_EQ(nodes.node(nodes.id(1, 1)).on_start_multicast(r), Status::kOk);
  EXPECT_EQ(trace(nodes), (std::vector<std::string>{"1 (1,1)->(2,0) ch0", "1 (1,1)->(1,0) ch3", "1 (1,1)->(0,1) ch1",
                                                    "2 (1,1)->(3,1) ch0", "2 (1,1)->(1,3) ch2", "2 (1,1)->(3,3) ch1",
                                                    "3 (1,1)->(0,1) ch1", "4 (1,1)->(1,0) ch3"}));
  const std::vector<std::vector<std::uint64_t>> carried = {{10, 11}, {12, 13}, {14, 15}, {16},
                                                           {16},     {16},     {16},     {14, 15, 16}};
  for (std::size_t i = 0; i < carried.size(); ++i) {
    const Sent& s = nodes.log()[i];
    EXPECT_EQ(s.head.mode, wire::Mode::kDimensionOrder) << i;
    EXPECT_EQ(s.head.vc_class, 0u) << i;
    EXPECT_EQ(std::vector<std::uint64_t>(s.payload.begin() + fw::kControlWords, s.payload.end()), carried[i]) << i;
  }
  // On the corner (0,0) the outside column does not exist: DDN 3's representative is the block's
  // diagonal (1,1), whose first hop +X the X neighbour's worm has: channel 1.
  Nodes corner(4, 4, 4);
  d.clear();
  for (std::uint32_t v = 1; v < 16; ++v) d.push_back(v);
  r.count = 15;
  ASSERT_EQ(corner.node(0).on_start_multicast(r), Status::kOk);
  std::vector<std::string> first_step = trace(corner);
  first_step.resize(3);
  EXPECT_EQ(first_step, (std::vector<std::string>{"1 (0,0)->(1,0) ch0", "1 (0,0)->(0,1) ch2", "1 (0,0)->(1,1) ch1"}));
}

// The order in which a broadcast's messages reach their nodes: in send order, newest first, or
// drawn at random from those in flight.
enum class Arrival { kSendOrder, kNewestFirst, kRandom };

// np-d broadcasts on 2x2 .. 16x16 from every source (every eighth on 16x16), 1- to 9-word messages,
// with the messages arriving in send order, newest first and at random: a node's X neighbour's
// or Y neighbour's sub-messages may come before its own, so its jobs wait. Every node but the
// source delivers exactly the source's words once; the last step is k + 2; every worm is an XY
// unicast in class 0 that never goes to the source, carries one sub-message (two in step k + 2) of
// the right length, and no node sends two worms of a step on one channel; every node ends idle.
TEST(FirmwareNpd, EveryNodeDeliversTheWholeMessageOnceInKPlusTwoStepsInAnyArrivalOrder) {
  std::mt19937_64 rng(20261128);
  for (const unsigned k : {1u, 2u, 3u, 4u}) {
    const unsigned n = 1u << k;
    for (std::uint32_t source = 0; source < n * n; source += k == 4 ? 8 : 1) {
      for (const Arrival arrival : {Arrival::kSendOrder, Arrival::kNewestFirst, Arrival::kRandom}) {
        const std::uint32_t words = 1 + source % 9;
        std::vector<std::uint64_t> data;
        for (std::uint32_t i = 0; i < words; ++i) data.push_back(1000 * source + i);
        Nodes nodes(n, n, 4);
        std::vector<std::uint32_t> d;
        for (std::uint32_t v = 0; v < n * n; ++v) {
          if (v != source) d.push_back(v);
        }
        fw::MulticastRequest r{fw::Algorithm::kNpD, 4,    9, d.data(), static_cast<std::uint32_t>(d.size()),
                               data.data(),         words};
        r.all_port = true;
        ASSERT_EQ(nodes.node(source).on_start_multicast(r), Status::kOk);
        std::vector<std::size_t> in_flight;
        std::size_t logged = 0;
        unsigned last_step = 0;
        std::set<std::tuple<unsigned, std::uint32_t, unsigned>> step_channels;  // (step, sender, channel)
        for (;;) {
          for (; logged < nodes.log().size(); ++logged) in_flight.push_back(logged);
          if (in_flight.empty()) break;
          std::size_t pick = 0;
          if (arrival == Arrival::kNewestFirst) pick = in_flight.size() - 1;
          if (arrival == Arrival::kRandom) pick = rng() % in_flight.size();
          const Sent s = nodes.log()[in_flight[pick]];
          in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(pick));
          fw::MessageInfo info;
          ASSERT_TRUE(fw::decode_control(s.payload.data(), static_cast<std::uint32_t>(s.payload.size()), info));
          const std::uint32_t to = nodes.addressed(s.head);
          EXPECT_EQ(s.head.mode, wire::Mode::kDimensionOrder);
          EXPECT_EQ(s.head.vc_class, 0u);
          EXPECT_NE(to, source);
          EXPECT_TRUE(step_channels.insert({info.step, s.sender, s.channel}).second) << "two worms on one channel";
          EXPECT_EQ(info.npd_parts, info.step == k + 2 ? 2u : 1u) << "step " << unsigned{info.step};
          std::uint32_t part_words = 0;
          for (unsigned i = info.npd_first_part; i < info.npd_first_part + info.npd_parts; ++i) {
            part_words += words / 4 + (i < words % 4 ? 1 : 0);
          }
          EXPECT_EQ(info.data_words, part_words);
          last_step = std::max<unsigned>(last_step, info.step);
          ASSERT_EQ(nodes.node(to).on_message_received(s.head, s.payload.data(),
                                                       static_cast<std::uint32_t>(s.payload.size())),
                    Status::kOk)
              << "source " << source << " to " << to;
        }
        EXPECT_EQ(last_step, k + 2);
        for (std::uint32_t v = 0; v < n * n; ++v) {
          EXPECT_EQ(nodes.ni(v).delivered.size(), v == source ? 0u : 1u) << "node " << v << " source " << source;
          if (v != source) {
            EXPECT_EQ(nodes.ni(v).data_words, data) << "node " << v << " source " << source;
          }
          EXPECT_TRUE(nodes.node(v).idle()) << "node " << v << " source " << source;
        }
        if (HasFailure()) return;
      }
    }
  }
}

// A receiver checks each sub-message: one it holds already, an exchange from another node than
// its block neighbour, or a DDN's sub-message that is not its own is refused; so are meshes that
// are not 2^k x 2^k, tori and fewer than four ports.
TEST(FirmwareNpd, RefusesRepeatedOrMisdirectedSubMessagesAndOtherNetworks) {
  Nodes nodes(4, 4, 4);
  std::vector<std::uint32_t> d;
  for (std::uint32_t v = 1; v < 16; ++v) d.push_back(v);
  const std::uint64_t data[] = {1, 2, 3, 4};
  fw::MulticastRequest r{fw::Algorithm::kNpD, 4, 0, d.data(), 15, data, 4};
  r.all_port = true;
  ASSERT_EQ(nodes.node(0).on_start_multicast(r), Status::kOk);
  const Sent to_x = nodes.log()[0];  // step 1: (0,0) -> (1,0), DDN 1's sub-message
  ASSERT_EQ(nodes.addressed(to_x.head), nodes.id(1, 0));
  fw::NodeFirmware& x = nodes.node(nodes.id(1, 0));
  const auto receive = [](fw::NodeFirmware& f, const Sent& s) {
    return f.on_message_received(s.head, s.payload.data(), static_cast<std::uint32_t>(s.payload.size()));
  };
  ASSERT_EQ(receive(x, to_x), Status::kOk);
  EXPECT_EQ(receive(x, to_x), Status::kBadMessage);  // the same sub-message again
  const Sent to_y = nodes.log()[1];                  // (0,0) -> (0,1), DDN 2's: not (1,0)'s
  Sent misdirected = to_y;
  misdirected.head.dest = wire::pack_coord_dest({1, 0, 0});
  EXPECT_EQ(receive(nodes.node(nodes.id(1, 0)), misdirected), Status::kBadMessage);
  // The source's step-3 exchange to its X neighbour, presented at (1,0) as if from (2,0).
  Sent exchange = nodes.log()[6];
  fw::MessageInfo info;
  ASSERT_TRUE(fw::decode_control(exchange.payload.data(), static_cast<std::uint32_t>(exchange.payload.size()), info));
  ASSERT_EQ(info.step, 3u);
  exchange.head.src = nodes.id(2, 0);
  EXPECT_EQ(receive(x, exchange), Status::kBadMessage);
  exchange.head.src = 0;
  EXPECT_EQ(receive(x, exchange), Status::kOk);

  for (const auto& [sx, sy] : {std::pair{4u, 8u}, std::pair{6u, 6u}}) {
    Nodes other(sx, sy, 4);
    std::vector<std::uint32_t> all;
    for (std::uint32_t v = 1; v < sx * sy; ++v) all.push_back(v);
    fw::MulticastRequest q{fw::Algorithm::kNpD, 4, 0, all.data(), static_cast<std::uint32_t>(all.size()), data, 4};
    EXPECT_EQ(other.node(0).on_start_multicast(q), Status::kUnsupportedTopology) << sx << "x" << sy;
  }
  Nodes torus(4, 4, 4, fw::GridKind::kTorus);
  EXPECT_EQ(torus.node(0).on_start_multicast(r), Status::kUnsupportedTopology);
  Nodes two_channels(4, 4, 2);
  r.ports = 2;
  EXPECT_EQ(two_channels.node(0).on_start_multicast(r), Status::kBadPortCount);
}

// V20: 3-DBL broadcast on the 4x4x4 mesh from (1,1,1), all-port: the +Z column worm through the
// layer sources (1,1,2), (1,1,3) carrying the 32 destinations above (channel 4), the -Z one
// through (1,1,0) carrying the 16 below (channel 5), then dual-path over the 15 others of layer 1
// (label 25: 6 above, 9 below). A layer source delivers and runs dual-path over its layer.
TEST(FirmwarePath, ThreeDblBroadcastIsV20) {
  std::vector<Sent> log;
  fw::Grid g;
  g.dims = 3;
  g.size[0] = g.size[1] = g.size[2] = 4;
  const auto id = [](std::uint32_t x, std::uint32_t y, std::uint32_t z) { return x + 4 * (y + 4 * z); };
  std::deque<RecordingNi> nis;
  std::vector<fw::NodeFirmware> fws(64);
  for (std::uint32_t n = 0; n < 64; ++n) {
    nis.emplace_back(n, 6, &log);
    ASSERT_EQ(fws[n].init({g, n}, &nis[n]), Status::kOk);
  }
  std::vector<std::uint32_t> d;
  for (std::uint32_t n = 0; n < 64; ++n) {
    if (n != id(1, 1, 1)) d.push_back(n);
  }
  fw::MulticastRequest r{fw::Algorithm::kThreeDbl, 6, 2, d.data(), 63, nullptr, 0};
  r.all_port = true;
  ASSERT_EQ(fws[id(1, 1, 1)].on_start_multicast(r), Status::kOk);
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(path_labels(log[0]), (std::vector<std::uint32_t>{g.label(id(1, 1, 2)), g.label(id(1, 1, 3))}));
  EXPECT_EQ(log[0].channel, 4u);
  EXPECT_EQ(path_labels(log[1]), (std::vector<std::uint32_t>{g.label(id(1, 1, 0))}));
  EXPECT_EQ(log[1].channel, 5u);
  fw::MessageInfo up, down;
  ASSERT_TRUE(fw::decode_control(log[0].payload.data(), static_cast<std::uint32_t>(log[0].payload.size()), up));
  ASSERT_TRUE(fw::decode_control(log[1].payload.data(), static_cast<std::uint32_t>(log[1].payload.size()), down));
  EXPECT_EQ(up.address_entries, 32u);
  EXPECT_EQ(down.address_entries, 16u);
  EXPECT_EQ(g.label(id(1, 1, 1)), 25u);
  EXPECT_EQ(path_labels(log[2]), (std::vector<std::uint32_t>{26, 27, 28, 29, 30, 31}));
  EXPECT_EQ(path_labels(log[3]), (std::vector<std::uint32_t>{24, 23, 22, 21, 20, 19, 18, 17, 16}));
  // The layer source (1,1,2) takes the column copy (its head names it): it delivers and sends its
  // layer's dual-path in step 2.
  wire::HeadFields copy = log[0].head;
  ASSERT_EQ(fws[id(1, 1, 2)].on_message_received(copy, log[0].payload.data(),
                                                 static_cast<std::uint32_t>(log[0].payload.size())),
            Status::kOk);
  EXPECT_EQ(nis[id(1, 1, 2)].delivered, (std::vector<std::uint32_t>{2}));
  ASSERT_EQ(log.size(), 6u);
  fw::MessageInfo layer;
  ASSERT_TRUE(fw::decode_control(log[4].payload.data(), static_cast<std::uint32_t>(log[4].payload.size()), layer));
  EXPECT_EQ(layer.step, 2u);
  EXPECT_EQ(path_labels(log[4]).size() + path_labels(log[5]).size(), 15u);
}

// The nodes a source route visits after `from` (its entries, five per header flit, until the
// end marker) and the nodes whose entry asks for a copy.
void follow_route(const Nodes& nodes, const Sent& s, std::uint32_t from, std::vector<std::string>& route,
                  std::vector<std::string>& delivers) {
  std::vector<wire::HeadFields> flits{s.head};
  flits.insert(flits.end(), s.address.begin(), s.address.end());
  std::uint32_t x = from % 10, y = from / 10;
  for (const wire::HeadFields& f : flits) {
    for (unsigned j = 0; j < wire::kRouteEntries; ++j) {
      const wire::RouteEntry e = wire::route_entry(f.dest, j);
      if (e.port == wire::kRoutePortEnd) return;
      if (e.deliver) delivers.push_back(nodes.name(x + 10 * y));
      x += e.port == 0 ? 1 : e.port == 1 ? -1 : 0;
      y += e.port == 2 ? 1 : e.port == 3 ? -1 : 0;
      route.push_back(nodes.name(x + 10 * y));
    }
  }
}

// V36: XY-path on the 10x10 mesh from (0,0), both partition orders: the X worm's route X' (d_x =
// 12, copies at (2,0), (3,1), (7,2), ending at (7,5)) and the Y worm's Y' (d_y = 6, a copy at
// (0,4), ending at (1,3)), source-routed (mode 4) on the channels of their first hops.
TEST(FirmwarePath, XyPathOnTenByTenIsV36) {
  for (const fw::Algorithm a : {fw::Algorithm::kXyPath, fw::Algorithm::kXyPathXFirst}) {
    Nodes nodes(10, 10, 4);
    const std::uint32_t d[] = {nodes.id(2, 0), nodes.id(3, 1), nodes.id(7, 2),
                               nodes.id(7, 5), nodes.id(0, 4), nodes.id(1, 3)};
    fw::MulticastRequest r{a, 4, 0, d, 6, nullptr, 0};
    r.all_port = true;
    ASSERT_EQ(nodes.node(0).on_start_multicast(r), Status::kOk);
    ASSERT_EQ(nodes.log().size(), 2u);
    std::vector<std::string> x_route, x_delivers, y_route, y_delivers;
    follow_route(nodes, nodes.log()[0], 0, x_route, x_delivers);
    follow_route(nodes, nodes.log()[1], 0, y_route, y_delivers);
    EXPECT_EQ(x_route, (std::vector<std::string>{"(1,0)", "(2,0)", "(3,0)", "(3,1)", "(3,2)", "(4,2)", "(5,2)", "(6,2)",
                                                 "(7,2)", "(7,3)", "(7,4)", "(7,5)"}));
    EXPECT_EQ(x_delivers, (std::vector<std::string>{"(2,0)", "(3,1)", "(7,2)"}));
    EXPECT_EQ(y_route, (std::vector<std::string>{"(0,1)", "(0,2)", "(0,3)", "(0,4)", "(1,4)", "(1,3)"}));
    EXPECT_EQ(y_delivers, (std::vector<std::string>{"(0,4)"}));
    EXPECT_EQ(nodes.log()[0].head.mode, wire::Mode::kSourceRouted);
    EXPECT_EQ(nodes.log()[0].channel, 0u);  // +X
    EXPECT_EQ(nodes.log()[1].channel, 2u);  // +Y
    // From the origin the X path advances up (class 0), the Y path right (class 2).
    EXPECT_EQ(nodes.log()[0].head.vc_class, 0u);
    EXPECT_EQ(nodes.log()[1].head.vc_class, 2u);
  }
  // The other corners: the X path advances down from a top corner (1), the Y path left from a right
  // one (3) (docs/firmware.md "VC classes").
  for (const auto& [x, y, x_class, y_class] :
       {std::tuple{9u, 0u, 0u, 3u}, std::tuple{0u, 9u, 1u, 2u}, std::tuple{9u, 9u, 1u, 3u}}) {
    Nodes nodes(10, 10, 4);
    const std::uint32_t self = nodes.id(x, y);
    std::vector<std::uint32_t> d;
    for (std::uint32_t n = 0; n < 100; n += 7) {
      if (n != self) d.push_back(n);
    }
    fw::MulticastRequest r{fw::Algorithm::kXyPath, 4, 0, d.data(), static_cast<std::uint32_t>(d.size()), nullptr, 0};
    r.all_port = true;
    ASSERT_EQ(nodes.node(self).on_start_multicast(r), Status::kOk);
    ASSERT_EQ(nodes.log().size(), 2u);
    const unsigned along_x = x == 0 ? 0u : 1u;  // the channel the X path leaves on: +X or -X
    EXPECT_EQ(nodes.log()[0].channel, along_x);
    EXPECT_EQ(nodes.log()[0].head.vc_class, x_class) << x << "," << y;
    EXPECT_EQ(nodes.log()[1].head.vc_class, y_class) << x << "," << y;
  }
  Nodes nodes(10, 10, 4);
  const std::uint32_t one[] = {5};
  fw::MulticastRequest r{fw::Algorithm::kXyPath, 4, 0, one, 1, nullptr, 0};
  r.all_port = true;
  EXPECT_EQ(nodes.node(nodes.id(3, 4)).on_start_multicast(r), Status::kUnsupportedTopology);  // not a corner
}

TEST(Firmware, BadRequestsAndMessagesAreStatusesNotCrashes) {
  Nodes nodes(4, 4, 2);
  const std::uint32_t self_included[] = {3, 0};
  const std::uint32_t twice[] = {3, 3};
  const std::uint32_t outside[] = {16};
  const std::uint32_t fine[] = {5};
  fw::NodeFirmware& n0 = nodes.node(0);
  EXPECT_EQ(n0.on_start_multicast({fw::Algorithm::kTwoPort, 2, 0, self_included, 2, nullptr, 0}),
            Status::kBadDestinations);
  EXPECT_EQ(n0.on_start_multicast({fw::Algorithm::kTwoPort, 2, 0, twice, 2, nullptr, 0}), Status::kBadDestinations);
  EXPECT_EQ(n0.on_start_multicast({fw::Algorithm::kTwoPort, 2, 0, outside, 1, nullptr, 0}), Status::kBadDestinations);
  EXPECT_EQ(n0.on_start_multicast({fw::Algorithm::kTwoPort, 1, 0, fine, 1, nullptr, 0}), Status::kBadPortCount);
  EXPECT_EQ(n0.on_start_multicast({fw::Algorithm::kDPort, 4, 0, fine, 1, nullptr, 0}), Status::kBadPortCount);
  EXPECT_EQ(n0.on_start_multicast({fw::Algorithm::kRecursiveDoubling, 1, 0, fine, 1, nullptr, 0}),
            Status::kBadDestinations);  // rd is a broadcast
  EXPECT_EQ(n0.on_start_multicast({static_cast<fw::Algorithm>(fw::kAlgorithmCount), 1, 0, fine, 1, nullptr, 0}),
            Status::kUnsupportedAlgorithm);
  const std::uint64_t garbage[] = {~std::uint64_t{0}, 0, 0};
  EXPECT_EQ(n0.on_message_received({}, garbage, 3), Status::kBadMessage);
  EXPECT_EQ(n0.on_message_received({}, garbage, 1), Status::kBadMessage);
  EXPECT_TRUE(nodes.log().empty());
}

// The model's algorithm names (docs/algorithms.md) and the wire ids of docs/firmware.md, "Message
// format": the harness finds firmware algorithms by these names.
const std::map<std::string, fw::Algorithm> kModelNames{{"unicast", fw::Algorithm::kUnicast},
                                                       {"one-port", fw::Algorithm::kOnePort},
                                                       {"two-port", fw::Algorithm::kTwoPort},
                                                       {"d-port", fw::Algorithm::kDPort},
                                                       {"rd", fw::Algorithm::kRecursiveDoubling},
                                                       {"vh", fw::Algorithm::kVh},
                                                       {"diag", fw::Algorithm::kDiag},
                                                       {"dds", fw::Algorithm::kDds},
                                                       {"min", fw::Algorithm::kMin},
                                                       {"lin", fw::Algorithm::kLin},
                                                       {"dual-path", fw::Algorithm::kDualPath},
                                                       {"multi-path", fw::Algorithm::kMultiPath},
                                                       {"uniform", fw::Algorithm::kUniform},
                                                       {"fixed", fw::Algorithm::kFixed},
                                                       {"hp-dual-path", fw::Algorithm::kHpDualPath},
                                                       {"pcp", fw::Algorithm::kPcp},
                                                       {"3dbs", fw::Algorithm::kThreeDbs},
                                                       {"3dbl", fw::Algorithm::kThreeDbl},
                                                       {"xy-path", fw::Algorithm::kXyPath},
                                                       {"xy-path-x-first", fw::Algorithm::kXyPathXFirst},
                                                       {"edn", fw::Algorithm::kEdn},
                                                       {"np-d", fw::Algorithm::kNpD}};

TEST(FirmwareTable, EveryModelNameFindsTheRowOfItsWireId) {
  for (const auto& [name, id] : kModelNames) {
    const fw::AlgorithmRow* row = fw::find_algorithm(name.c_str());
    ASSERT_NE(row, nullptr) << name;
    EXPECT_EQ(row->name, name);
    EXPECT_EQ(row->id, id) << name;
    EXPECT_EQ(fw::find_algorithm(id), row) << name;
  }
}

TEST(FirmwareTable, UnknownNamesAndIdsFindNoRow) {
  for (const char* name : {"", "two_port", "Two-port", "xy-path-x", "xy-path-x-first-", "dual"}) {
    EXPECT_EQ(fw::find_algorithm(name), nullptr) << name;
  }
  EXPECT_EQ(fw::find_algorithm(static_cast<const char*>(nullptr)), nullptr);
  EXPECT_EQ(fw::find_algorithm(static_cast<fw::Algorithm>(fw::kAlgorithmCount)), nullptr);
}

TEST(FirmwareTable, RowsIterateOnceEachInNameOrder) {
  std::vector<std::string> names;
  for (const fw::AlgorithmRow& row : fw::algorithm_rows()) names.emplace_back(row.name);
  std::vector<std::string> expected;
  for (const auto& entry : kModelNames) expected.push_back(entry.first);  // std::map: in name order
  EXPECT_EQ(names, expected);
}

// Only the broadcasts refuse a destination set short of every other node; only the cycle-routed
// algorithms run on star graphs (docs/firmware.md, "What runs on the RTL").
TEST(FirmwareTable, BroadcastAndStarGraphFlagsMatchTheDocumentedAlgorithms) {
  const std::set<std::string> broadcasts{"rd", "edn", "np-d", "pcp", "3dbs"},
      on_stars{"uniform", "fixed", "hp-dual-path"};
  for (const fw::AlgorithmRow& row : fw::algorithm_rows()) {
    EXPECT_EQ(row.broadcast, broadcasts.count(row.name) == 1) << row.name;
    EXPECT_EQ(row.on_star_graphs, on_stars.count(row.name) == 1) << row.name;
  }
}

}  // namespace
}  // namespace wormcast::verif
