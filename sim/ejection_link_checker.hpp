// SPDX-License-Identifier: Apache-2.0
// The link protocol on the harness's ejection links (a router's local output into the C++ node
// interface or traffic sink), asserted from the receiver's side with the rules of
// rtl/noc_link_checker.sv in its ejection mode (docs/verification.md, "Link checkers"): one credit
// pool of the port's depth returned on VC 0's credit bit, VC 0, worms per stream id. The harness's
// routers are verilated one by one (or are the timing model), so no SV checker sits on these
// links; this one watches them on both backends. Header-only: small, and on the run loop's path.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/topology.hpp"
#include "sim/rtl_router.hpp"

namespace wormcast::sim {

// The rules, named as noc_link_checker's assertions without the `_A`.
enum class LinkRule : unsigned {
  kFlitHasCredit,         // a flit arrives only while the sender holds a credit (this cycle's included)
  kCreditWithinDepth,     // the receiver never returns more credits than flits it took
  kVcInRange,             // VC 0 on an ejection link
  kStreamInRange,         // the stream id names one of the router's input VCs
  kHeadOpensWorm,         // a head only where its stream has no open worm
  kBodyInsideWorm,        // a flit without the head bit only inside an open worm of its stream
  kEjectCreditOnPoolBit,  // the pool's credit comes on VC 0's bit, no other bit is set
};
inline constexpr unsigned kLinkRules = 7;

inline const char* link_rule_name(LinkRule rule) {
  switch (rule) {
    case LinkRule::kFlitHasCredit:
      return "FlitHasCredit";
    case LinkRule::kCreditWithinDepth:
      return "CreditWithinDepth";
    case LinkRule::kVcInRange:
      return "VcInRange";
    case LinkRule::kStreamInRange:
      return "StreamInRange";
    case LinkRule::kHeadOpensWorm:
      return "HeadOpensWorm";
    case LinkRule::kBodyInsideWorm:
      return "BodyInsideWorm";
    case LinkRule::kEjectCreditOnPoolBit:
      return "EjectCreditOnPoolBit";
  }
  return "?";
}

inline constexpr std::uint32_t link_rule_bit(LinkRule rule) { return 1u << static_cast<unsigned>(rule); }

// One ejection link. A cycle with neither a flit nor a credit changes nothing, so a caller may
// skip idle cycles. As in the SV checker, a flit that breaks a worm rule leaves its stream's worm
// as it was and a count that would leave 0..depth is clamped, so one fault fires once.
class EjectionLinkChecker {
 public:
  // `vcs`: credit bits of the port (the router's NumVcs, 1..32); `streams`: the router's input VCs
  // (ports x VCs); `depth`: the pool's credits after reset.
  EjectionLinkChecker(unsigned vcs, unsigned streams, unsigned depth)
      : vc_mask_(vcs >= 32 ? ~0u : (1u << vcs) - 1), depth_(depth), count_(depth), open_(streams, 0) {}

  // One cycle: the flit on the link (link.valid) and the credits the receiver returns in it (bit
  // v: VC v; bits at or above `vcs` are not the port's). Returns the rules broken, link_rule_bit
  // each; 0 when the cycle is legal.
  std::uint32_t cycle(const Link& link, std::uint32_t credits) {
    std::uint32_t broken = 0;
    const std::uint32_t bits = credits & vc_mask_;
    if ((bits & ~1u) != 0) broken |= link_rule_bit(LinkRule::kEjectCreditOnPoolBit);
    // The pool: this cycle's credit counts for this cycle's flit.
    const unsigned take = link.valid ? 1 : 0;
    const unsigned avail = count_ + (bits & 1u);
    if (take > avail) broken |= link_rule_bit(LinkRule::kFlitHasCredit);
    if (avail > depth_ + take) broken |= link_rule_bit(LinkRule::kCreditWithinDepth);
    count_ = take > avail ? 0 : avail - take;
    if (count_ > depth_) count_ = depth_;
    if (!link.valid) return broken;
    if (link.vc != 0) broken |= link_rule_bit(LinkRule::kVcInRange);
    if (link.stream >= open_.size()) return broken | link_rule_bit(LinkRule::kStreamInRange);
    std::uint8_t& open = open_[link.stream];
    if (link.flit.head && open != 0) return broken | link_rule_bit(LinkRule::kHeadOpensWorm);
    if (!link.flit.head && open == 0) return broken | link_rule_bit(LinkRule::kBodyInsideWorm);
    open = link.flit.tail ? 0 : 1;
    return broken;
  }
  // The sender's credits after the cycles so far.
  unsigned credits() const { return count_; }
  unsigned streams() const { return static_cast<unsigned>(open_.size()); }
  // Whether stream s has a worm open (s < streams()).
  bool open(unsigned s) const { return open_[s] != 0; }

 private:
  std::uint32_t vc_mask_;
  unsigned depth_, count_;
  std::vector<std::uint8_t> open_;  // per stream
};

// Every ejection link of a network of routers: per node, one per local pair.
class EjectionLinkCheckers {
 public:
  // Routers with `net_ports` network ports, `locals` local pairs and `vcs` VCs per port; pools of
  // `depth` credits.
  EjectionLinkCheckers(const model::Topology& topology, unsigned net_ports, unsigned locals, unsigned vcs,
                       unsigned depth = kRouterDepth)
      : topology_(topology),
        net_(net_ports),
        locals_(locals),
        links_(static_cast<std::size_t>(topology.node_count()) * locals,
               EjectionLinkChecker(vcs, (net_ports + locals) * vcs, depth)) {}

  // Cycle `cycle` of node n's ejection link `local`: "" when legal, else what broke, naming the
  // link, the cycle and each rule ("ejection link router 1,2 port 4 (local 0) in cycle 17:
  // HeadOpensWorm (a head on stream 6, whose worm is open)").
  std::string cycle(model::NodeId n, unsigned local, long cycle, const Link& link, std::uint32_t credits) {
    EjectionLinkChecker& c = links_[static_cast<std::size_t>(n) * locals_ + local];
    const unsigned before = c.credits();
    const std::uint32_t broken = c.cycle(link, credits);
    if (broken == 0) return "";
    return describe(n, local, cycle, link, credits, broken, before, c.streams());
  }

 private:
  std::string describe(model::NodeId n, unsigned local, long cycle, const Link& link, std::uint32_t credits,
                       std::uint32_t broken, unsigned before, unsigned streams) const {
    std::string s = fmt::format("ejection link router {} port {} (local {}) in cycle {}:", topology_.node_name(n),
                                net_ + local, local, cycle);
    for (unsigned r = 0; r < kLinkRules; ++r) {
      if (((broken >> r) & 1) == 0) continue;
      const auto rule = static_cast<LinkRule>(r);
      std::string why;
      switch (rule) {
        case LinkRule::kFlitHasCredit:
          why = "a flit while the router held no credit of the port's pool";
          break;
        case LinkRule::kCreditWithinDepth:
          why = fmt::format("a credit returned while the router held all {} credits of the pool", before);
          break;
        case LinkRule::kVcInRange:
          why = fmt::format("a flit on VC {}, not 0", link.vc);
          break;
        case LinkRule::kStreamInRange:
          why = fmt::format("stream {} is not one of the router's input VCs 0..{}", link.stream, streams - 1);
          break;
        case LinkRule::kHeadOpensWorm:
          why = fmt::format("a head on stream {}, whose worm is open", link.stream);
          break;
        case LinkRule::kBodyInsideWorm:
          why = fmt::format("a flit without the head bit on stream {}, which has no open worm", link.stream);
          break;
        case LinkRule::kEjectCreditOnPoolBit:
          why = fmt::format("credit bits {:#x}: the pool's credit is bit 0 alone", credits);
          break;
      }
      s += fmt::format(" {} ({});", link_rule_name(rule), why);
    }
    s.pop_back();
    return s;
  }

  model::Topology topology_;
  unsigned net_, locals_;
  std::vector<EjectionLinkChecker> links_;  // n * locals_ + local
};

}  // namespace wormcast::sim
