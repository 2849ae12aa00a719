// SPDX-License-Identifier: Apache-2.0
// The payload layout of a firmware message (docs/firmware.md, "Message format"): three control
// words, the address field, then the application data. Every message is one unicast worm; the head
// flit (firmware/noc_wire_format.hpp) routes it, the payload tells the receiver what to do.
//
//   word 0  [15:0] multicast id  [31:16] address entries  [47:32] data words  [55:48] step
//           [63:56] algorithm
//   word 1  [19:0] origin (the multicast's source)  [39:20] sequence number at the sender
//           [47:40] ports d  [48] all-port  [50:49] message kind (0 a multicast's message; 1..3
//           the replication lock's request, grant and done: firmware/replication_lock.hpp)
//   word 2  algorithm state: recursive doubling [1:0] dimension [21:2] lo [41:22] hi (CPR lines:
//           the line's dimension only);
//           edn: the receiver's region [1:0] frame rotation [9:2] tx [17:10] ty [21:18] level,
//           [25:22] quadrants whose top EDN it sends to in step 2, [29:26] which of them take YX;
//           np-d: [15:0] the whole message's data words, [17:16] the first sub-message the data
//           holds, [19:18] how many (consecutive) it holds, minus one;
//           a lock request: [15:0] the completion acknowledgements to expect; else 0
//   then    the address field, two 32-bit node ids per word (low half first)
//   then    the data words
#pragma once

#include <cstddef>
#include <cstdint>

namespace wormcast::fw {

enum class Algorithm : std::uint8_t {
  kUnicast = 0,            // separate addressing: one unicast per destination
  kOnePort = 1,            // recursive halving of the label-sorted chain ([1]'s one-port baseline)
  kTwoPort = 2,            // [1], Figure 4's 2/3 partitions
  kDPort = 3,              // [1]'s even-d generalisation
  kRecursiveDoubling = 4,  // rd: halving rows, then columns, then Z lines
  kVh = 5,                 // store-and-forward trees built at the source and carried in the message
  kDiag = 6,               //   ([5], Section 3.2; firmware/tree_multicast.hpp), meshes
  kDds = 7,
  kMin = 8,
  kLin = 9,         // path-based ([5], Section 3.3.2; [4]): multidestination worms, intermediate reception;
  kDualPath = 10,   //   lin from a source off label 0 is dual-path (docs/algorithms.md)
  kMultiPath = 11,  // dual-path's halves split by the source's column (our reading of [5]), all-port 2D
  kUniform = 12,    // [2]'s message preparation on the Hamiltonian cycle of an even-row 2D torus
  kFixed = 13,
  kPcp = 14,           // CPR line broadcasts ([3] Fig. 2, [4] 3.2): cf = 11 worms to the ends of lines,
  kThreeDbs = 15,      //   delivered by every router they pass; PCP's spine branches are the router's
  kThreeDbl = 16,      // 3-DBL ([4], reading R1): +-Z column worms to the layer sources, then dual-path
  kXyPath = 17,        // XY-path ([5], 3.3.3): source-routed worms along the X and Y partition paths,
  kXyPathXFirst = 18,  //   Y-first (the published example) or X-first (the pseudo-code)
  kEdn = 19,           // Extended Dominating Node broadcast (docs/algorithms.md), 2^k x 2^k meshes
  kNpD = 20,           // network partitioning broadcast (docs/algorithms.md), 2^k x 2^k meshes
  kHpDualPath = 21,    // dual-path's lists on a star graph's Hamiltonian path, cycle-routed (seed 001's baseline)
};
inline constexpr unsigned kAlgorithmCount = 22;
// Names, families and handlers: firmware/algorithm_table.hpp.

inline constexpr std::uint32_t kControlWords = 3;
// Entries an address field can hold (word 0's 16-bit count).
inline constexpr std::uint32_t kMaxAddressEntries = 0xFFFF;

// What a message is: one of a multicast's messages, or a message of the replication lock
// (docs/firmware.md, "The replication lock"), which carries no address field and no data and
// names the multicast it serves in the multicast and origin fields.
enum class MessageKind : std::uint8_t {
  kMulticast = 0,
  kLockRequest = 1,  // holder -> coordinator: word 2 [15:0] the heads its replicating worms will end in
  kLockGrant = 2,    // coordinator -> holder
  kLockDone = 3,     // a node that absorbed a head of the holder's replicating worms -> coordinator
};
inline constexpr unsigned kMessageKindCount = 4;

struct MessageInfo {
  std::uint16_t multicast = 0;
  std::uint16_t address_entries = 0;
  std::uint16_t data_words = 0;
  std::uint8_t step = 0;
  Algorithm algorithm = Algorithm::kUnicast;
  std::uint8_t ports = 1;
  bool all_port = false;
  std::uint32_t origin = 0;
  std::uint32_t sequence = 0;
  std::uint8_t rd_dim = 0;
  std::uint32_t rd_lo = 0;
  std::uint32_t rd_hi = 0;
  // edn (firmware/edn_broadcast.hpp): the receiver's region and its step-2 forwards.
  std::uint8_t edn_rot = 0, edn_tx = 0, edn_ty = 0, edn_level = 0;
  std::uint8_t edn_forward = 0, edn_forward_yx = 0;  // bit i: quadrant i
  // np-d (firmware/network_partitioning.hpp): the whole message's length and the sub-messages
  // first_part .. first_part + parts - 1 this message's data holds, in that order.
  std::uint16_t npd_words = 0;
  std::uint8_t npd_first_part = 0, npd_parts = 1;
  MessageKind kind = MessageKind::kMulticast;
  std::uint16_t lock_count = 0;  // a lock request's acknowledgements to expect
};

constexpr std::uint32_t address_words(std::uint32_t entries) { return (entries + 1) / 2; }
constexpr std::uint32_t message_words(const MessageInfo& m) {
  return kControlWords + address_words(m.address_entries) + m.data_words;
}

constexpr void encode_control(const MessageInfo& m, std::uint64_t* words) {
  words[0] = std::uint64_t{m.multicast} | std::uint64_t{m.address_entries} << 16 | std::uint64_t{m.data_words} << 32 |
             std::uint64_t{m.step} << 48 | std::uint64_t{static_cast<std::uint8_t>(m.algorithm)} << 56;
  words[1] = std::uint64_t{m.origin & 0xFFFFFu} | std::uint64_t{m.sequence & 0xFFFFFu} << 20 |
             std::uint64_t{m.ports} << 40 | std::uint64_t{m.all_port ? 1u : 0u} << 48 |
             std::uint64_t{static_cast<std::uint8_t>(m.kind) & 3u} << 49;
  if (m.kind != MessageKind::kMulticast) {
    words[2] = m.lock_count;
  } else if (m.algorithm == Algorithm::kEdn) {
    words[2] = std::uint64_t{m.edn_rot & 3u} | std::uint64_t{m.edn_tx} << 2 | std::uint64_t{m.edn_ty} << 10 |
               std::uint64_t{m.edn_level & 0xFu} << 18 | std::uint64_t{m.edn_forward & 0xFu} << 22 |
               std::uint64_t{m.edn_forward_yx & 0xFu} << 26;
  } else if (m.algorithm == Algorithm::kNpD) {
    words[2] = std::uint64_t{m.npd_words} | std::uint64_t{m.npd_first_part & 3u} << 16 |
               std::uint64_t{(m.npd_parts - 1u) & 3u} << 18;
  } else {
    words[2] =
        std::uint64_t{m.rd_dim & 3u} | std::uint64_t{m.rd_lo & 0xFFFFFu} << 2 | std::uint64_t{m.rd_hi & 0xFFFFFu} << 22;
  }
}

// The control words of a payload of `words` words; false if they are missing, name an unknown
// algorithm or do not match the payload's length (a lock message: three words).
constexpr bool decode_control(const std::uint64_t* payload, std::uint32_t words, MessageInfo& m) {
  if (words < kControlWords) return false;
  const std::uint64_t w0 = payload[0], w1 = payload[1], w2 = payload[2];
  m.multicast = static_cast<std::uint16_t>(w0 & 0xFFFF);
  m.address_entries = static_cast<std::uint16_t>((w0 >> 16) & 0xFFFF);
  m.data_words = static_cast<std::uint16_t>((w0 >> 32) & 0xFFFF);
  m.step = static_cast<std::uint8_t>((w0 >> 48) & 0xFF);
  const auto algorithm = static_cast<std::uint8_t>((w0 >> 56) & 0xFF);
  m.algorithm = static_cast<Algorithm>(algorithm);
  m.ports = static_cast<std::uint8_t>((w1 >> 40) & 0xFF);
  m.all_port = ((w1 >> 48) & 1) != 0;
  m.kind = static_cast<MessageKind>((w1 >> 49) & 3);
  m.origin = static_cast<std::uint32_t>(w1 & 0xFFFFF);
  m.sequence = static_cast<std::uint32_t>((w1 >> 20) & 0xFFFFF);
  m.rd_dim = static_cast<std::uint8_t>(w2 & 3);
  m.rd_lo = static_cast<std::uint32_t>((w2 >> 2) & 0xFFFFF);
  m.rd_hi = static_cast<std::uint32_t>((w2 >> 22) & 0xFFFFF);
  if (m.algorithm == Algorithm::kEdn) {
    m.rd_dim = 0;
    m.rd_lo = m.rd_hi = 0;
    m.edn_rot = static_cast<std::uint8_t>(w2 & 3);
    m.edn_tx = static_cast<std::uint8_t>((w2 >> 2) & 0xFF);
    m.edn_ty = static_cast<std::uint8_t>((w2 >> 10) & 0xFF);
    m.edn_level = static_cast<std::uint8_t>((w2 >> 18) & 0xF);
    m.edn_forward = static_cast<std::uint8_t>((w2 >> 22) & 0xF);
    m.edn_forward_yx = static_cast<std::uint8_t>((w2 >> 26) & 0xF);
  }
  if (m.algorithm == Algorithm::kNpD) {
    m.rd_dim = 0;
    m.rd_lo = m.rd_hi = 0;
    m.npd_words = static_cast<std::uint16_t>(w2 & 0xFFFF);
    m.npd_first_part = static_cast<std::uint8_t>((w2 >> 16) & 3);
    m.npd_parts = static_cast<std::uint8_t>(((w2 >> 18) & 3) + 1);
  }
  if (m.kind != MessageKind::kMulticast) {
    m.rd_dim = 0;
    m.rd_lo = m.rd_hi = 0;
    m.lock_count = static_cast<std::uint16_t>(w2 & 0xFFFF);
    if (m.address_entries != 0 || m.data_words != 0) return false;
  }
  return algorithm < kAlgorithmCount && message_words(m) == words;
}

// Address entry i of a payload (precondition: i < entries).
constexpr std::uint32_t address_entry(const std::uint64_t* payload, std::uint32_t i) {
  return static_cast<std::uint32_t>(payload[kControlWords + i / 2] >> (32 * (i % 2)));
}

}  // namespace wormcast::fw
