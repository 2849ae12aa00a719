// SPDX-License-Identifier: Apache-2.0
// The flit width (docs/rtl.md, "Flit width"; docs/header-format.md, "The compact 32-bit layout"):
// the router built with NOC_DATA_W = 32 (Vnoc_router_p4_v4_d4_w32) against the 64-bit router
// (Vnoc_router_p4_v4_d4) in lockstep, both driven by router_bench.hpp's random legal traffic with
// one seed: unicast in every routing mode, intermediate reception, source routes, CPR lines with
// PCP-spine replication, random back-pressure, a head without a decision.
//
// Every cycle the two must agree on everything that is not the encoding: credits, which ports send,
// on which VC, the ejection stream, the no-route status; and every flit that leaves must carry the
// same content in its own layout: a head or address flit the same fields (dest compared as the
// label, the coordinates or the route entries its mode makes it; ident as the compact 2-bit tag),
// a payload flit the same low 32 bits. So the compact router takes the same decisions at the same
// cycles as the 64-bit router, which the other router tests check against the model.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>

#include "Vnoc_router_p4_v4_d4.h"
#include "Vnoc_router_p4_v4_d4_w32.h"
#include "firmware/noc_wire_format.hpp"
#include "router_bench.hpp"

namespace wormcast::verif {
namespace {

using namespace router_bench;
using WideBench = RouterBench<Vnoc_router_p4_v4_d4, wire::kWide>;
using CompactBench = RouterBench<Vnoc_router_p4_v4_d4_w32, wire::kCompact>;

// A flit's content, independent of the layout.
struct Content {
  bool head = false;
  bool tail = false;
  bool header = false;  // a head or an address flit: the fields below; else `payload`
  int mode = 0, network = 0, vc_class = 0, cf = 0, more = 0, tag = 0;
  std::uint64_t dest = 0;     // label, x | y << 8 | z << 16, or route entries 0..3 (4 bits each)
  std::uint64_t payload = 0;  // the low 32 bits

  bool operator==(const Content&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Content& c) {
  if (!c.header) return os << "{payload 0x" << std::hex << c.payload << std::dec << ", tail " << c.tail << "}";
  return os << "{head " << c.head << ", tail " << c.tail << ", mode " << c.mode << ", network " << c.network
            << ", class " << c.vc_class << ", cf " << c.cf << ", more " << c.more << ", tag " << c.tag << ", dest 0x"
            << std::hex << c.dest << std::dec << "}";
}

// Reads the flits leaving one router as Content. A head, and the `more` flits after it on the same
// output VC (network ports) or ejection stream, are header flits.
template <const wire::Layout& Layout>
class FlitReader {
 public:
  Content Read(unsigned port, unsigned channel, bool head, bool tail, std::uint64_t data) {
    int& remaining = address_flits_[{port, channel}];
    Content c;
    c.head = head;
    c.tail = tail;
    c.header = head || remaining > 0;
    if (head)
      remaining = static_cast<int>(wire::unpack_head(data, Layout).more);
    else if (remaining > 0)
      --remaining;
    if (tail) remaining = 0;
    if (!c.header) {
      c.payload = data & 0xFFFFFFFFU;
      return c;
    }
    const wire::HeadFields h = wire::unpack_head(data, Layout);
    c.mode = static_cast<int>(h.mode);
    c.network = h.network;
    c.vc_class = h.vc_class;
    c.cf = static_cast<int>(h.cf);
    c.more = h.more;
    c.tag = h.tag & 3;
    switch (h.mode) {
      case wire::Mode::kDimensionOrder:
      case wire::Mode::kCprLine: {
        const wire::Coords xyz = wire::unpack_coord_dest(h.dest, Layout);
        c.dest = xyz.x | (std::uint64_t{xyz.y} << 8) | (std::uint64_t{xyz.z} << 16);
        break;
      }
      case wire::Mode::kSourceRouted:
        c.dest = h.dest & 0xFFFFU;  // entries 0..3 (the compact layout has four)
        break;
      default:
        c.dest = h.dest;
        break;
    }
    return c;
  }

 private:
  std::map<std::pair<unsigned, unsigned>, int> address_flits_;
};

// Compares one cycle's outputs of the two routers; an empty string when they agree.
template <class Wide, class Compact>
std::string CompareCycle(const Wide& w, const Compact& c, FlitReader<wire::kWide>& wide_reader,
                         FlitReader<wire::kCompact>& compact_reader, long& flits_compared) {
  if (w.in_credit_o != c.in_credit_o) return "in_credit_o differs";
  if (w.out_valid_o != c.out_valid_o) return "out_valid_o differs";
  if (w.out_vc_o != c.out_vc_o) return "out_vc_o differs";
  if (w.draining_o != c.draining_o) return "draining_o differs";
  if (w.route_drops_o != c.route_drops_o) return "route_drops_o differs";
  if (w.errors_o != c.errors_o) return "errors_o differs";
  if ((w.out_valid_o >> kNetPorts) != 0 && w.eject_stream_o != c.eject_stream_o) return "eject_stream_o differs";
  for (unsigned p = 0; p < kPorts; ++p) {
    if (!GetBit(w.out_valid_o, p)) continue;
    const unsigned channel = p < kNetPorts ? static_cast<unsigned>(GetField(w.out_vc_o, p * kVcIdW, kVcIdW))
                                           : static_cast<unsigned>(w.eject_stream_o);
    constexpr unsigned kWideW = wire::kWide.flit_w();
    constexpr unsigned kCompactW = wire::kCompact.flit_w();
    const Content a = wide_reader.Read(p, channel, GetBit(w.out_flit_o, p * kWideW + wire::kWide.flit_head_bit()),
                                       GetBit(w.out_flit_o, p * kWideW + wire::kWide.flit_tail_bit()),
                                       GetField(w.out_flit_o, p * kWideW, wire::kWide.data_w));
    const Content b =
        compact_reader.Read(p, channel, GetBit(c.out_flit_o, p * kCompactW + wire::kCompact.flit_head_bit()),
                            GetBit(c.out_flit_o, p * kCompactW + wire::kCompact.flit_tail_bit()),
                            GetField(c.out_flit_o, p * kCompactW, wire::kCompact.data_w));
    ++flits_compared;
    if (!(a == b)) {
      std::ostringstream os;
      os << "port " << p << " channel " << channel << ": 64-bit router sends " << a << ", 32-bit router " << b;
      return os.str();
    }
  }
  return "";
}

TEST(RouterFlitWidth, Compact32BitRouterMatchesThe64BitRouterEveryCycle) {
  VerilatedContext context;
  context.fatalOnError(false);
  constexpr std::uint64_t kSeed = 20261123;
  WideBench wide(context, "router64", kSeed);
  CompactBench compact(context, "router32", kSeed);
  FlitReader<wire::kWide> wide_reader;
  FlitReader<wire::kCompact> compact_reader;
  std::ostream no_vectors(nullptr);
  long flits_compared = 0;
  for (const auto& [spec, node] : {std::pair<const char*, NodeId>{"mesh:4x4", 5}, {"torus:4x4", 0}}) {
    wide.StartPhase(spec, node, 3000, no_vectors);
    compact.StartPhase(spec, node, 3000, no_vectors);
    for (;;) {
      const bool more_w = wide.Step(no_vectors);
      const bool more_c = compact.Step(no_vectors);
      ASSERT_EQ(more_w, more_c);
      if (!more_w) break;
      const std::string diff =
          CompareCycle(wide.router(), compact.router(), wide_reader, compact_reader, flits_compared);
      ASSERT_EQ(diff, "") << spec << ", cycle " << wide.cycles_run();
    }
  }
  ASSERT_FALSE(wide.assertion_fired() || compact.assertion_fired()) << "the stimulus broke an RTL assertion";
  // Both routers saw the same traffic and sent the same flits; enough of every kind to mean something.
  EXPECT_EQ(wide.flits_in(), compact.flits_in());
  EXPECT_EQ(wide.flits_out(), compact.flits_out());
  EXPECT_EQ(flits_compared, compact.flits_out());
  EXPECT_GT(compact.flits_out(), 7000);
  EXPECT_GT(compact.flits_out(), compact.flits_in() + 1000);  // replication: copies
  EXPECT_GT(compact.heads_out(), 1500);
  EXPECT_GT(compact.vc1_out(), 500);
  EXPECT_GT(compact.ejected(), 1000);
  EXPECT_GT(compact.route_drops(), 50);  // drained reserved-mode worms
}

}  // namespace
}  // namespace wormcast::verif
