// SPDX-License-Identifier: Apache-2.0
#include "sim/rtl_router.hpp"

#include <fmt/format.h>
#include <verilated.h>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <type_traits>

#include "Vnoc_router_p3_l3_v2_d4.h"
#include "Vnoc_router_p3_v2_d4.h"
#include "Vnoc_router_p4_l2_v4_d4.h"
#include "Vnoc_router_p4_l4_v4_d4.h"
#include "Vnoc_router_p4_v4_d4.h"
#include "Vnoc_router_p5_l5_v2_d4.h"
#include "Vnoc_router_p5_v2_d4.h"
#include "Vnoc_router_p6_l2_v2_d4.h"
#include "Vnoc_router_p6_l6_v2_d4.h"

namespace wormcast::sim {
namespace {

// Bits of a verilated port of any width (CData..QData or VlWide), LSB first.
template <class T>
std::uint64_t get_bits(const T& sig, unsigned lsb, unsigned width) {
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t v = static_cast<std::uint64_t>(sig) >> lsb;
    return width >= 64 ? v : v & ((std::uint64_t{1} << width) - 1);
  } else {
    std::uint64_t v = 0;
    for (unsigned got = 0; got < width;) {
      const unsigned bit = lsb + got, off = bit % 32, take = std::min(32 - off, width - got);
      const std::uint64_t chunk = (sig.m_storage[bit / 32] >> off) & ((std::uint64_t{1} << take) - 1);
      v |= chunk << got;
      got += take;
    }
    return v;
  }
}

template <class T>
void set_bits(T& sig, unsigned lsb, unsigned width, std::uint64_t value) {
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t mask = (width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1) << lsb;
    sig = static_cast<T>((static_cast<std::uint64_t>(sig) & ~mask) | ((value << lsb) & mask));
  } else {
    for (unsigned put = 0; put < width;) {
      const unsigned bit = lsb + put, off = bit % 32, take = std::min(32 - off, width - put);
      const std::uint32_t mask = static_cast<std::uint32_t>(((std::uint64_t{1} << take) - 1) << off);
      const auto chunk = static_cast<std::uint32_t>(((value >> put) << off) & mask);
      sig.m_storage[bit / 32] = (sig.m_storage[bit / 32] & ~mask) | chunk;
      put += take;
    }
  }
}

template <class V, unsigned NetPorts, unsigned Locals, unsigned Vcs>
class Router final : public RouterModel {
 public:
  Router(VerilatedContext* context, const std::string& name) : v_(context, name.c_str()) {}
  unsigned net_ports() const override { return NetPorts; }
  unsigned locals() const override { return Locals; }
  unsigned vcs() const override { return Vcs; }

  void configure(const RouterConfig& c) override {
    v_.own_label_i = static_cast<std::uint16_t>(c.own_label);
    set_bits(v_.nbr_label_i, 0, NetPorts * kRouterLabelW, 0);
    for (unsigned p = 0; p < NetPorts; ++p) set_bits(v_.nbr_label_i, p * kRouterLabelW, kRouterLabelW, c.nbr_label[p]);
    v_.port_connected_i = static_cast<std::uint8_t>(c.connected);
    v_.port_is_wrap_i = static_cast<std::uint8_t>(c.wrap);
    v_.port_is_boundary_i = static_cast<std::uint8_t>(c.boundary);
    v_.own_coord_i = c.coord[0] | c.coord[1] << wire::kCoordW | c.coord[2] << (2 * wire::kCoordW);
    v_.dim_size_i = c.size[0] | c.size[1] << kRouterDimSizeW | c.size[2] << (2 * kRouterDimSizeW);
    v_.is_torus_i = c.torus;
    v_.num_dims_i = static_cast<std::uint8_t>(c.dims);
    v_.in_valid_i = 0;
    v_.out_credit_i = 0;
  }
  void set_reset(bool active) override {
    v_.rst_ni = !active;
    v_.eval();
    if (active) buffered_ = 0;
  }
  Link output(unsigned port) const override {
    Link l;
    l.valid = (v_.out_valid_o >> port) & 1;
    l.vc = static_cast<unsigned>(get_bits(v_.out_vc_o, port * kVcIdW, kVcIdW));
    const unsigned lsb = port * wire::kFlitW;
    l.flit = {get_bits(v_.out_flit_o, lsb + wire::kFlitHeadBit, 1) != 0,
              get_bits(v_.out_flit_o, lsb + wire::kFlitTailBit, 1) != 0, get_bits(v_.out_flit_o, lsb, 64)};
    if (port >= NetPorts)
      l.stream = static_cast<unsigned>(get_bits(v_.eject_stream_o, (port - NetPorts) * kStreamW, kStreamW));
    return l;
  }
  std::uint32_t credits_to_senders() const override { return v_.in_credit_o; }
  // Width of a VC id on a link (noc_router VcIdW) and of a stream id: the router's input VCs,
  // (NetPorts + Locals) x Vcs (noc_router StreamW).
  static constexpr unsigned kVcIdW = Vcs > 1 ? std::bit_width(Vcs - 1u) : 1u;
  static constexpr unsigned kStreamW = std::bit_width((NetPorts + Locals) * Vcs - 1u);
  std::uint64_t draining() const override { return v_.draining_o; }
  unsigned route_drops() const override { return v_.route_drops_o; }
  unsigned errors() const override { return v_.errors_o; }
  void set_input(unsigned port, const Link& l) override {
    set_bits(v_.in_valid_i, port, 1, l.valid);
    set_bits(v_.in_vc_i, port * kVcIdW, kVcIdW, l.vc);
    const unsigned lsb = port * wire::kFlitW;
    set_bits(v_.in_flit_i, lsb, 64, l.flit.data);
    set_bits(v_.in_flit_i, lsb + wire::kFlitTailBit, 1, l.flit.tail);
    set_bits(v_.in_flit_i, lsb + wire::kFlitHeadBit, 1, l.flit.head);
  }
  void set_credits_from_receivers(std::uint32_t bits) override {
    v_.out_credit_i = static_cast<std::remove_reference_t<decltype(v_.out_credit_i)>>(bits);
  }
  void set_clock(bool high) override {
    const bool rising = high && v_.clk_i == 0;
    if (rising && v_.rst_ni != 0) buffered_ += std::popcount(static_cast<std::uint64_t>(v_.in_valid_i));
    v_.clk_i = high;
    v_.eval();
    // in_credit_o after the edge: one bit per flit popped at it (OneCreditPerPop_A).
    if (rising && v_.rst_ni != 0) buffered_ -= std::popcount(static_cast<std::uint64_t>(v_.in_credit_o));
  }
  // From the router's ports and the credit protocol, not its internals: the flits taken at the
  // rising edges less the credits given back are the flits in its input buffers (a flit lost to a
  // full buffer stays counted, so that router is simply never skipped; errors_o flags it). With
  // empty buffers no stage has a request (every request comes from a buffered flit), so with idle
  // inputs no register changes: the same test as the timing model's own (TimingRouter::quiescent),
  // and the lockstep tests (verif/system/activity_lockstep_test.cpp) check it edge by edge.
  bool can_skip() const override {
    return buffered_ == 0 && v_.rst_ni != 0 && v_.out_valid_o == 0 && v_.in_credit_o == 0 && v_.in_valid_i == 0 &&
           v_.out_credit_i == 0;
  }

 private:
  // Before v_ (hundreds of kB): next to the object's start, in the cache line can_skip reads.
  std::int64_t buffered_ = 0;  // flits in the input buffers (taken - credited back since reset)
  V v_;
};

}  // namespace

std::string router_variants() {
  return "3 network ports (star:4) with 1 or 3 local pairs; 4 network ports with 1, 2 or 4; 5 network ports (star:6) "
         "with 1 or 5; 6 network ports with 2 or 6";
}

std::string router_error_text(unsigned bits) {
  std::string s;
  const auto add = [&s](const char* what) { s += s.empty() ? what : fmt::format("; {}", what); };
  if (bits & kRouterErrorBufferOverflow) add("a flit arrived for a full input VC buffer and was lost");
  if (bits & kRouterErrorCreditOverflow) add("a credit came back to a full output-VC counter and was lost");
  if (bits & kRouterErrorEjectCreditOverflow) add("a credit came back to a full ejection pool and was lost");
  const unsigned unknown =
      bits & ~(kRouterErrorBufferOverflow | kRouterErrorCreditOverflow | kRouterErrorEjectCreditOverflow);
  if (unknown != 0) add(fmt::format("unknown error bits {:#x}", unknown).c_str());
  return s;
}

unsigned router_variant_vcs(unsigned net_ports) { return net_ports == 4 ? 4 : 2; }

unsigned router_variant_locals(unsigned net_ports, unsigned locals) {
  if (net_ports == 3 && locals <= 1) return 1;
  if (net_ports == 3 && locals <= 3) return 3;
  if (net_ports == 4 && locals <= 1) return 1;
  if (net_ports == 4 && locals <= 2) return 2;
  if (net_ports == 4 && locals <= 4) return 4;
  if (net_ports == 5 && locals <= 1) return 1;
  if (net_ports == 5 && locals <= 5) return 5;
  if (net_ports == 6 && locals <= 2) return 2;
  if (net_ports == 6 && locals <= 6) return 6;
  throw std::invalid_argument(fmt::format("no router variant with {} network ports and {} local pairs; built: {}",
                                          net_ports, locals, router_variants()));
}

std::unique_ptr<RouterModel> make_router(VerilatedContext* context, unsigned net_ports, unsigned locals,
                                         const std::string& name) {
  switch (net_ports * 10 + router_variant_locals(net_ports, locals)) {
    case 31:
      return std::make_unique<Router<Vnoc_router_p3_v2_d4, 3, 1, 2>>(context, name);
    case 33:
      return std::make_unique<Router<Vnoc_router_p3_l3_v2_d4, 3, 3, 2>>(context, name);
    case 41:
      return std::make_unique<Router<Vnoc_router_p4_v4_d4, 4, 1, 4>>(context, name);
    case 42:
      return std::make_unique<Router<Vnoc_router_p4_l2_v4_d4, 4, 2, 4>>(context, name);
    case 44:
      return std::make_unique<Router<Vnoc_router_p4_l4_v4_d4, 4, 4, 4>>(context, name);
    case 51:
      return std::make_unique<Router<Vnoc_router_p5_v2_d4, 5, 1, 2>>(context, name);
    case 55:
      return std::make_unique<Router<Vnoc_router_p5_l5_v2_d4, 5, 5, 2>>(context, name);
    case 62:
      return std::make_unique<Router<Vnoc_router_p6_l2_v2_d4, 6, 2, 2>>(context, name);
    default:
      return std::make_unique<Router<Vnoc_router_p6_l6_v2_d4, 6, 6, 2>>(context, name);
  }
}

}  // namespace wormcast::sim
