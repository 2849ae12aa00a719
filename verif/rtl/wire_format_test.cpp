// SPDX-License-Identifier: Apache-2.0
// Bit-identity of the two definitions of the wire format: rtl/noc_pkg.sv (through the test-only
// probe verif/rtl/noc_wire_probe.sv, verilated) and firmware/noc_wire_format.hpp. Every conversion
// the probe makes through noc_pkg's structs and functions must give exactly the bits the C++
// header gives: head flits both ways (address flits share the head layout), coordinate
// destinations, source-route entries and link flits. Random values use fixed seeds, so every run drives the same
// vectors; edge values (all zeros, all ones, each field alone at its maximum, a walking one over every bit) pin each
// field to its bit range. The encodings (routing modes, CPR control fields, VC classes) must be
// equal too. The `fits` tests check that every over-wide field is rejected.
// Every test runs for both head layouts (typed tests): the 64-bit one against the probe built with
// the default NOC_DATA_W, the compact 32-bit one against the probe built with NOC_DATA_W = 32. The
// expected bit ranges and limits are written out per layout from docs/header-format.md, not taken
// from either definition. docs/header-format.md describes the format and this test.
#include <gtest/gtest.h>
#include <verilated.h>

#include <array>
#include <cstdint>
#include <iterator>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <type_traits>

#include "Vnoc_wire_probe.h"
#include "Vnoc_wire_probe_w32.h"
#include "firmware/noc_wire_format.hpp"
#include "verilated_dut.hpp"

// Readable failure messages: GoogleTest finds these through argument-dependent lookup.
namespace wormcast::wire {
void PrintTo(const HeadFields& h, std::ostream* os) {
  *os << "{mode " << int{static_cast<std::uint8_t>(h.mode)} << ", network " << int{h.network} << ", vc_class "
      << int{h.vc_class} << ", cf " << int{static_cast<std::uint8_t>(h.cf)} << ", more " << h.more << ", dest "
      << h.dest << ", src " << h.src << ", tag " << int{h.tag} << "}";
}
void PrintTo(const Coords& c, std::ostream* os) { *os << "(" << int{c.x} << "," << int{c.y} << "," << int{c.z} << ")"; }
void PrintTo(const RouteEntry& e, std::ostream* os) {
  *os << "{deliver " << e.deliver << ", port " << int{e.port} << "}";
}
void PrintTo(const Flit& f, std::ostream* os) {
  *os << "{head " << f.head << ", tail " << f.tail << ", data 0x" << std::hex << f.data << std::dec << "}";
}
}  // namespace wormcast::wire

namespace wormcast::verif {
namespace {

namespace wire = wormcast::wire;

constexpr int kRandomVectors = 100'000;
constexpr std::uint32_t kSeed = 20240611;

// Narrows a value to the type of a verilated port (CData, SData, IData or QData).
template <class Port>
auto As(std::uint64_t value) {
  return static_cast<std::remove_reference_t<Port>>(value);
}

// The bit range of each head field, in field order: width (0: the layout has no such field) and
// lowest bit (docs/header-format.md).
struct FieldRange {
  const char* name;
  unsigned width;
  unsigned lsb;
};

// The 64-bit layout (NOC_DATA_W = 64, the default) and its probe, with the documented figures.
struct WideFormat {
  using Verilated = Vnoc_wire_probe;
  static constexpr const wire::Layout& kLayout = wire::kWide;
  static constexpr std::array<FieldRange, 8> kRanges{{{"mode", 3, 61},
                                                      {"network", 1, 60},
                                                      {"vc_class", 2, 58},
                                                      {"cf", 2, 56},
                                                      {"more", 12, 44},
                                                      {"dest", 20, 24},
                                                      {"src", 20, 4},
                                                      {"tag", 4, 0}}};
  static constexpr unsigned kMaxCoord = 63;
  static constexpr std::uint32_t kMaxDest = 0xFFFFF;
  // (1, 2, 3) is 3 << 12 | 2 << 6 | 1.
  static constexpr std::uint32_t kCoord123 = (3U << 12) | (2U << 6) | 1U;
  // +X, +X delivering a copy, +Y, end; the rest unused.
  static constexpr std::uint32_t kExampleRoute = 0xF7280;
};

// The compact 32-bit layout (NOC_DATA_W = 32) and its probe.
struct CompactFormat {
  using Verilated = Vnoc_wire_probe_w32;
  static constexpr const wire::Layout& kLayout = wire::kCompact;
  static constexpr std::array<FieldRange, 8> kRanges{{{"mode", 3, 29},
                                                      {"network", 1, 28},
                                                      {"vc_class", 2, 26},
                                                      {"cf", 2, 24},
                                                      {"more", 6, 18},
                                                      {"dest", 16, 2},
                                                      {"src", 0, 2},
                                                      {"tag", 2, 0}}};
  static constexpr unsigned kMaxCoord = 31;
  static constexpr std::uint32_t kMaxDest = 0xFFFF;
  static constexpr std::uint32_t kCoord123 = (3U << 10) | (2U << 5) | 1U;
  static constexpr std::uint32_t kExampleRoute = 0x7280;
};

// The probe of one layout in its own context. It is combinational: set inputs, Eval(), read
// outputs.
template <class Format>
class Probe {
 public:
  using Verilated = typename Format::Verilated;
  static constexpr const wire::Layout& kLayout = Format::kLayout;

  Probe() : context_(std::make_unique<VerilatedContext>()) {
    context_->fatalOnError(false);
    probe_ = std::make_unique<Verilated>(context_.get(), "probe");
    probe_->eval();
  }
  ~Probe() { probe_->final(); }
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

  Verilated* operator->() { return probe_.get(); }
  void Eval() { probe_->eval(); }
  bool AnyError() const { return context_->gotError(); }

  // The head data the RTL builds from `h` through noc_pkg::head_t (ident = {src, tag}).
  std::uint64_t PackHead(const wire::HeadFields& h) {
    probe_->mode_i = As<decltype(probe_->mode_i)>(static_cast<std::uint64_t>(h.mode));
    probe_->network_i = As<decltype(probe_->network_i)>(h.network);
    probe_->vc_class_i = As<decltype(probe_->vc_class_i)>(h.vc_class);
    probe_->cf_i = As<decltype(probe_->cf_i)>(static_cast<std::uint64_t>(h.cf));
    probe_->more_i = As<decltype(probe_->more_i)>(h.more);
    probe_->dest_i = As<decltype(probe_->dest_i)>(h.dest);
    probe_->ident_i = As<decltype(probe_->ident_i)>((std::uint64_t{h.src} << kLayout.tag_w) | h.tag);
    probe_->eval();
    return probe_->head_o;
  }

  // The fields the RTL reads from head data through noc_pkg::head_t.
  wire::HeadFields UnpackHead(std::uint64_t data) {
    probe_->head_i = As<decltype(probe_->head_i)>(data);
    probe_->eval();
    wire::HeadFields h;
    h.mode = static_cast<wire::Mode>(probe_->mode_o);
    h.network = probe_->network_o;
    h.vc_class = probe_->vc_class_o;
    h.cf = static_cast<wire::Cf>(probe_->cf_o);
    h.more = probe_->more_o;
    h.dest = probe_->dest_o;
    const std::uint64_t ident = probe_->ident_o;
    h.src = static_cast<std::uint32_t>(ident >> kLayout.tag_w);
    h.tag = static_cast<std::uint8_t>(ident & wire::field_max(kLayout.tag_w));
    return h;
  }

  // A link flit through noc_pkg::flit_t: the flit_w() bits as {data bits, then head and tail}.
  struct FlitBits {
    std::uint64_t data = 0;  // flit bits data_w-1..0
    std::uint32_t high = 0;  // bit 1 = head (flit bit data_w+1), bit 0 = tail (flit bit data_w)
  };
  FlitBits PackFlit(const wire::Flit& f) {
    probe_->flit_head_i = f.head ? 1 : 0;
    probe_->flit_tail_i = f.tail ? 1 : 0;
    probe_->flit_data_i = As<decltype(probe_->flit_data_i)>(f.data);
    probe_->eval();
    return {GetField(probe_->flit_o, 0, kLayout.data_w),
            static_cast<std::uint32_t>(GetField(probe_->flit_o, kLayout.data_w, 2))};
  }
  wire::Flit UnpackFlit(const FlitBits& bits) {
    SetField(probe_->flit_i, 0, kLayout.data_w, bits.data);
    SetField(probe_->flit_i, kLayout.data_w, 2, bits.high);
    probe_->eval();
    return {probe_->flit_head_o != 0, probe_->flit_tail_o != 0, probe_->flit_data_o};
  }

 private:
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Verilated> probe_;
};

std::string Describe(const wire::HeadFields& h) { return ::testing::PrintToString(h); }

// A uniformly random value of a field `width` bits wide.
std::uint64_t RandomField(std::mt19937_64& rng, unsigned width) { return rng() & wire::field_max(width); }

wire::HeadFields RandomHead(std::mt19937_64& rng, const wire::Layout& layout) {
  wire::HeadFields h;
  h.mode = static_cast<wire::Mode>(RandomField(rng, wire::kModeW));
  h.network = static_cast<std::uint8_t>(RandomField(rng, wire::kNetworkW));
  h.vc_class = static_cast<std::uint8_t>(RandomField(rng, wire::kClassW));
  h.cf = static_cast<wire::Cf>(RandomField(rng, wire::kCfW));
  h.more = static_cast<std::uint16_t>(RandomField(rng, layout.more_w));
  h.dest = static_cast<std::uint32_t>(RandomField(rng, layout.addr_w));
  h.src = static_cast<std::uint32_t>(RandomField(rng, layout.node_w));
  h.tag = static_cast<std::uint8_t>(RandomField(rng, layout.tag_w));
  return h;
}

// The head with every field 0 except field `index` (0 = mode .. 7 = tag) at the maximum of its
// documented width.
wire::HeadFields OneFieldAtMax(const std::array<FieldRange, 8>& ranges, int index) {
  const std::uint64_t max = wire::field_max(ranges[static_cast<std::size_t>(index)].width);
  wire::HeadFields h;
  switch (index) {
    case 0:
      h.mode = static_cast<wire::Mode>(max);
      break;
    case 1:
      h.network = static_cast<std::uint8_t>(max);
      break;
    case 2:
      h.vc_class = static_cast<std::uint8_t>(max);
      break;
    case 3:
      h.cf = static_cast<wire::Cf>(max);
      break;
    case 4:
      h.more = static_cast<std::uint16_t>(max);
      break;
    case 5:
      h.dest = static_cast<std::uint32_t>(max);
      break;
    case 6:
      h.src = static_cast<std::uint32_t>(max);
      break;
    default:
      h.tag = static_cast<std::uint8_t>(max);
      break;
  }
  return h;
}

std::uint64_t RangeMask(const FieldRange& r) { return wire::field_max(r.width) << r.lsb; }

template <class Format>
class WireFormat : public ::testing::Test {};
using Formats = ::testing::Types<WideFormat, CompactFormat>;
class FormatNames {
 public:
  template <class T>
  static std::string GetName(int) {
    return std::is_same_v<T, WideFormat> ? "Wide64" : "Compact32";
  }
};
TYPED_TEST_SUITE(WireFormat, Formats, FormatNames);

// ------------------------------------------------------------------------------------------------
// Head flit.

TYPED_TEST(WireFormat, RtlHeadPackingEqualsPackHeadOnRandomFields) {
  Probe<TypeParam> probe;
  const wire::Layout& layout = TypeParam::kLayout;
  std::mt19937_64 rng(kSeed);
  int mismatches = 0;
  for (int i = 0; i < kRandomVectors; ++i) {
    const wire::HeadFields h = RandomHead(rng, layout);
    ASSERT_TRUE(wire::fits(h, layout));
    const std::uint64_t rtl = probe.PackHead(h);
    const std::uint64_t cpp = wire::pack_head(h, layout);
    if (rtl != cpp && ++mismatches <= 10) {
      ADD_FAILURE() << "vector " << i << " (" << Describe(h) << "): RTL 0x" << std::hex << rtl << ", C++ 0x" << cpp;
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_FALSE(probe.AnyError());
}

TYPED_TEST(WireFormat, RtlHeadUnpackingEqualsUnpackHeadOnRandomData) {
  Probe<TypeParam> probe;
  const wire::Layout& layout = TypeParam::kLayout;
  std::mt19937_64 rng(kSeed + 1);
  int mismatches = 0;
  for (int i = 0; i < kRandomVectors; ++i) {
    const std::uint64_t data = rng() & wire::field_max(layout.data_w);
    const wire::HeadFields rtl = probe.UnpackHead(data);
    const wire::HeadFields cpp = wire::unpack_head(data, layout);
    if (!(rtl == cpp) && ++mismatches <= 10) {
      ADD_FAILURE() << "data 0x" << std::hex << data << ": RTL " << Describe(rtl) << ", C++ " << Describe(cpp);
    }
    // Every data value is a head: unpacking then packing gives it back.
    if (wire::pack_head(cpp, layout) != data && ++mismatches <= 10) {
      ADD_FAILURE() << "data 0x" << std::hex << data << " does not survive unpack_head + pack_head";
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TYPED_TEST(WireFormat, RtlHeadRoundTripsRandomFields) {
  Probe<TypeParam> probe;
  std::mt19937_64 rng(kSeed + 2);
  for (int i = 0; i < kRandomVectors; ++i) {
    const wire::HeadFields h = RandomHead(rng, TypeParam::kLayout);
    const wire::HeadFields back = probe.UnpackHead(probe.PackHead(h));
    ASSERT_EQ(back, h) << "vector " << i << ": " << Describe(h) << " came back as " << Describe(back);
  }
}

TYPED_TEST(WireFormat, HeadAllZerosAndAllOnes) {
  Probe<TypeParam> probe;
  const wire::Layout& layout = TypeParam::kLayout;
  const wire::HeadFields zeros;
  EXPECT_EQ(probe.PackHead(zeros), 0U);
  EXPECT_EQ(wire::pack_head(zeros, layout), 0U);
  EXPECT_EQ(probe.UnpackHead(0), zeros);
  EXPECT_EQ(wire::unpack_head(0, layout), zeros);

  // Every field at its documented maximum fills all data bits: the widths sum to DataW in both
  // definitions.
  wire::HeadFields ones;
  for (int f = 0; f < 8; ++f) {
    const wire::HeadFields one = OneFieldAtMax(TypeParam::kRanges, f);
    ones.mode = static_cast<wire::Mode>(static_cast<int>(ones.mode) | static_cast<int>(one.mode));
    ones.network |= one.network;
    ones.vc_class |= one.vc_class;
    ones.cf = static_cast<wire::Cf>(static_cast<int>(ones.cf) | static_cast<int>(one.cf));
    ones.more |= one.more;
    ones.dest |= one.dest;
    ones.src |= one.src;
    ones.tag |= one.tag;
  }
  const std::uint64_t all = wire::field_max(layout.data_w);
  ASSERT_TRUE(wire::fits(ones, layout));
  EXPECT_EQ(probe.PackHead(ones), all);
  EXPECT_EQ(wire::pack_head(ones, layout), all);
  EXPECT_EQ(probe.UnpackHead(all), ones);
  EXPECT_EQ(wire::unpack_head(all, layout), ones);
  EXPECT_FALSE(probe.AnyError());
}

TYPED_TEST(WireFormat, EachHeadFieldAtMaxFillsExactlyItsDocumentedBits) {
  Probe<TypeParam> probe;
  for (int f = 0; f < 8; ++f) {
    const FieldRange& range = TypeParam::kRanges[static_cast<std::size_t>(f)];
    const wire::HeadFields h = OneFieldAtMax(TypeParam::kRanges, f);
    const std::uint64_t expected = RangeMask(range);
    EXPECT_EQ(probe.PackHead(h), expected) << "RTL, field " << range.name;
    EXPECT_EQ(wire::pack_head(h, TypeParam::kLayout), expected) << "C++, field " << range.name;
    EXPECT_EQ(probe.UnpackHead(expected), h) << "RTL, field " << range.name;
    EXPECT_EQ(wire::unpack_head(expected, TypeParam::kLayout), h) << "C++, field " << range.name;
  }
}

TYPED_TEST(WireFormat, WalkingOneLandsInTheSameFieldBitInRtlAndCpp) {
  Probe<TypeParam> probe;
  for (unsigned bit = 0; bit < TypeParam::kLayout.data_w; ++bit) {
    const std::uint64_t data = std::uint64_t{1} << bit;
    const wire::HeadFields rtl = probe.UnpackHead(data);
    const wire::HeadFields cpp = wire::unpack_head(data, TypeParam::kLayout);
    EXPECT_EQ(rtl, cpp) << "bit " << bit << ": RTL " << Describe(rtl) << ", C++ " << Describe(cpp);
    EXPECT_EQ(probe.PackHead(cpp), data) << "bit " << bit;
  }
}

// ------------------------------------------------------------------------------------------------
// Coordinate destinations.

TYPED_TEST(WireFormat, RtlCoordinateDestEqualsCppOnRandomAndEdgeValues) {
  Probe<TypeParam> probe;
  const wire::Layout& layout = TypeParam::kLayout;
  std::mt19937_64 rng(kSeed + 4);
  auto check_pack = [&](const wire::Coords& c) {
    probe->coord_x_i = c.x;
    probe->coord_y_i = c.y;
    probe->coord_z_i = c.z;
    probe.Eval();
    ASSERT_EQ(probe->coord_dest_o, wire::pack_coord_dest(c, layout))
        << "coordinates " << int{c.x} << "," << int{c.y} << "," << int{c.z};
  };
  auto check_unpack = [&](std::uint32_t dest) {
    probe->coord_dest_i = As<decltype(probe->coord_dest_i)>(dest);
    probe.Eval();
    const wire::Coords c = wire::unpack_coord_dest(dest, layout);
    ASSERT_EQ(probe->coord_x_o, c.x) << "dest " << dest;
    ASSERT_EQ(probe->coord_y_o, c.y) << "dest " << dest;
    ASSERT_EQ(probe->coord_z_o, c.z) << "dest " << dest;
    ASSERT_EQ(probe->coord_dest_ok_o != 0, wire::coord_dest_ok(dest, layout)) << "dest " << dest;
    ASSERT_EQ(probe->coord_struct_agrees_o, 1) << "dest " << dest;
  };
  const auto m = static_cast<std::uint8_t>(TypeParam::kMaxCoord);
  for (const wire::Coords& c : {wire::Coords{0, 0, 0}, wire::Coords{m, 0, 0}, wire::Coords{0, m, 0},
                                wire::Coords{0, 0, m}, wire::Coords{m, m, m}}) {
    check_pack(c);
  }
  const unsigned coords_w = 3 * layout.coord_w;
  const std::uint32_t coords_mask = static_cast<std::uint32_t>(wire::field_max(coords_w));
  for (const std::uint32_t dest : {0U, coords_mask, coords_mask + 1, TypeParam::kMaxDest}) check_unpack(dest);
  for (int i = 0; i < kRandomVectors; ++i) {
    const wire::Coords c{static_cast<std::uint8_t>(RandomField(rng, layout.coord_w)),
                         static_cast<std::uint8_t>(RandomField(rng, layout.coord_w)),
                         static_cast<std::uint8_t>(RandomField(rng, layout.coord_w))};
    check_pack(c);
    EXPECT_EQ(wire::unpack_coord_dest(wire::pack_coord_dest(c, layout), layout), c);
    EXPECT_TRUE(wire::coord_dest_ok(wire::pack_coord_dest(c, layout), layout));
    check_unpack(static_cast<std::uint32_t>(RandomField(rng, layout.addr_w)));  // pad bits random too
    if (this->HasFailure()) break;  // an ASSERT in a lambda only leaves the lambda
  }
  // x in the low bits.
  EXPECT_EQ(wire::pack_coord_dest({1, 2, 3}, layout), TypeParam::kCoord123);
  EXPECT_FALSE(probe.AnyError());
}

// ------------------------------------------------------------------------------------------------
// Source routes.

TYPED_TEST(WireFormat, RtlRouteEntryAndShiftEqualCppOnRandomAndEdgeValues) {
  Probe<TypeParam> probe;
  const wire::Layout& layout = TypeParam::kLayout;
  std::mt19937_64 rng(kSeed + 5);
  auto check = [&](std::uint32_t dest) {
    probe->route_i = As<decltype(probe->route_i)>(dest);
    probe.Eval();
    const wire::RouteEntry next = wire::route_entry(dest, 0);
    ASSERT_EQ(probe->route_deliver_o != 0, next.deliver) << "route " << dest;
    ASSERT_EQ(probe->route_port_o, next.port) << "route " << dest;
    ASSERT_EQ(probe->route_shift_o, wire::route_shift(dest, layout)) << "route " << dest;
    ASSERT_EQ(probe->route_used_up_o != 0, wire::route_used_up(dest, layout)) << "route " << dest;
  };
  const std::uint32_t all = TypeParam::kMaxDest;
  for (const std::uint32_t dest : {0U, 0xFU, all & ~0xFU, all, all >> 1, all & ~(1U << (layout.addr_w - 4))}) {
    check(dest);
  }
  for (int i = 0; i < kRandomVectors && !this->HasFailure(); ++i) {
    check(static_cast<std::uint32_t>(RandomField(rng, layout.addr_w)));
  }
}

TYPED_TEST(WireFormat, SourceRouteHelpersBuildShiftAndUseUpARoute) {
  const wire::Layout& layout = TypeParam::kLayout;
  // +X (port 0), +X delivering a copy, +Y (port 2), then end: entries 0..3, the rest unused.
  std::uint32_t route = layout.route_all_unused();
  EXPECT_EQ(route, TypeParam::kMaxDest);
  route = wire::with_route_entry(route, 0, {false, 0});
  route = wire::with_route_entry(route, 1, {true, 0});
  route = wire::with_route_entry(route, 2, {false, 2});
  route = wire::with_route_entry(route, 3, {false, wire::kRoutePortEnd});
  EXPECT_EQ(route, TypeParam::kExampleRoute);
  EXPECT_EQ(wire::route_entry(route, 1), (wire::RouteEntry{true, 0}));
  // Each shift moves the entries down one place and fills the top with an unused entry: four
  // shifts take entries 0..3 off, and then every entry is unused.
  int hops = 0;
  while (!wire::route_used_up(route, layout) && hops < 10) {
    route = wire::route_shift(route, layout);
    ++hops;
  }
  EXPECT_EQ(hops, 4);
  EXPECT_EQ(wire::route_shift(layout.route_all_unused(), layout), layout.route_all_unused());
  EXPECT_EQ(wire::pack_route_entry({true, 5}), 0xDU);
}

// ------------------------------------------------------------------------------------------------
// Link flit.

TYPED_TEST(WireFormat, RtlLinkFlitEqualsCppLayout) {
  Probe<TypeParam> probe;
  const wire::Layout& layout = TypeParam::kLayout;
  std::mt19937_64 rng(kSeed + 6);
  for (int i = 0; i < kRandomVectors; ++i) {
    const std::uint64_t bits = rng();
    const wire::Flit f{(bits & 1) != 0, (bits & 2) != 0, rng() & wire::field_max(layout.data_w)};
    const auto packed = probe.PackFlit(f);
    // {head, tail, data}: data in the low data_w bits, then tail, then head.
    ASSERT_EQ(packed.data, f.data);
    ASSERT_EQ(packed.high, ((f.head ? 1U : 0U) << (layout.flit_head_bit() - layout.data_w)) |
                               ((f.tail ? 1U : 0U) << (layout.flit_tail_bit() - layout.data_w)));
    ASSERT_EQ(probe.UnpackFlit(packed), f);
  }
  EXPECT_EQ(layout.flit_w(), layout.data_w + 2);
  // The single-flit worm: head = tail = 1.
  const auto single = probe.PackFlit({true, true, 0});
  EXPECT_EQ(single.high, 3U);
  EXPECT_EQ(single.data, 0U);
}

// ------------------------------------------------------------------------------------------------
// Encodings: the values of noc_pkg's enums and constants equal the C++ ones (in both layouts).

TYPED_TEST(WireFormat, RtlEncodingsEqualCppEncodings) {
  Probe<TypeParam> probe;
  probe.Eval();
  auto field = [](std::uint64_t packed, unsigned width, unsigned i) {
    return (packed >> (width * i)) & wire::field_max(width);
  };
  const wire::Mode modes[] = {wire::Mode::kHamiltonianPath, wire::Mode::kHamiltonianCycle, wire::Mode::kDimensionOrder,
                              wire::Mode::kCprLine, wire::Mode::kSourceRouted};
  for (unsigned i = 0; i < std::size(modes); ++i) {
    EXPECT_EQ(field(probe->mode_enc_o, wire::kModeW, i), static_cast<std::uint64_t>(modes[i])) << "mode #" << i;
  }
  const wire::Cf cfs[] = {wire::Cf::kUnicastTransit, wire::Cf::kDeliverStop, wire::Cf::kPassOnly,
                          wire::Cf::kDeliverPass};
  for (unsigned i = 0; i < std::size(cfs); ++i) {
    EXPECT_EQ(field(probe->cf_enc_o, wire::kCfW, i), static_cast<std::uint64_t>(cfs[i])) << "cf #" << i;
  }
  const std::uint8_t classes[] = {wire::kHcClassPHigh,     wire::kHcClassQHigh,      wire::kHcClassPLow,
                                  wire::kHcClassQLow,      wire::kDorClassWrapAhead, wire::kDorClassNoWrap,
                                  wire::kHpClassHigh,      wire::kHpClassLow,        wire::kBranchClassPlusX,
                                  wire::kBranchClassMinusX};
  for (unsigned i = 0; i < std::size(classes); ++i) {
    EXPECT_EQ(field(probe->class_enc_o, wire::kClassW, i), classes[i]) << "class #" << i;
  }
  EXPECT_EQ(field(probe->network_enc_o, wire::kNetworkW, 0), wire::kNetworkLow);
  EXPECT_EQ(field(probe->network_enc_o, wire::kNetworkW, 1), wire::kNetworkHigh);
  EXPECT_EQ(field(probe->route_enc_o, wire::kRoutePortW, 0), wire::kRoutePortEnd);
  EXPECT_EQ(probe->route_enc_o >> wire::kRoutePortW, wire::kRouteEntryUnused);
}

// ------------------------------------------------------------------------------------------------
// fits: every over-wide field is rejected, every field at its maximum accepted.

template <class Format>
class WireFormatFits : public ::testing::Test {};
TYPED_TEST_SUITE(WireFormatFits, Formats, FormatNames);

TYPED_TEST(WireFormatFits, RejectsEachOverWideHeadField) {
  const wire::Layout& layout = TypeParam::kLayout;
  for (int f = 0; f < 8; ++f) {
    EXPECT_TRUE(wire::fits(OneFieldAtMax(TypeParam::kRanges, f), layout)) << TypeParam::kRanges[std::size_t(f)].name;
  }
  // One past the documented maximum of field f.
  auto over = [](const FieldRange& r) { return wire::field_max(r.width) + 1; };
  const auto& ranges = TypeParam::kRanges;
  wire::HeadFields h;
  h.mode = static_cast<wire::Mode>(over(ranges[0]));
  EXPECT_FALSE(wire::fits(h, layout)) << "mode " << over(ranges[0]);
  h.mode = static_cast<wire::Mode>(255);
  EXPECT_FALSE(wire::fits(h, layout)) << "mode 255";
  h = {};
  h.network = static_cast<std::uint8_t>(over(ranges[1]));
  EXPECT_FALSE(wire::fits(h, layout)) << "network " << over(ranges[1]);
  h = {};
  h.vc_class = static_cast<std::uint8_t>(over(ranges[2]));
  EXPECT_FALSE(wire::fits(h, layout)) << "vc_class " << over(ranges[2]);
  h = {};
  h.cf = static_cast<wire::Cf>(over(ranges[3]));
  EXPECT_FALSE(wire::fits(h, layout)) << "cf " << over(ranges[3]);
  h = {};
  h.more = static_cast<std::uint16_t>(over(ranges[4]));
  EXPECT_FALSE(wire::fits(h, layout)) << "more " << over(ranges[4]);
  h.more = 0xFFFF;
  EXPECT_FALSE(wire::fits(h, layout)) << "more 65535";
  h = {};
  h.dest = static_cast<std::uint32_t>(over(ranges[5]));
  EXPECT_FALSE(wire::fits(h, layout)) << "dest " << over(ranges[5]);
  h.dest = 0xFFFFFFFFU;
  EXPECT_FALSE(wire::fits(h, layout)) << "dest 2^32-1";
  h = {};
  h.src = static_cast<std::uint32_t>(over(ranges[6]));
  EXPECT_FALSE(wire::fits(h, layout)) << "src " << over(ranges[6]);
  h = {};
  h.tag = static_cast<std::uint8_t>(over(ranges[7]));
  EXPECT_FALSE(wire::fits(h, layout)) << "tag " << over(ranges[7]);
}

TYPED_TEST(WireFormatFits, RejectsOverWideCoordinatesDestsAndRouteEntries) {
  const wire::Layout& layout = TypeParam::kLayout;
  const auto m = static_cast<std::uint8_t>(TypeParam::kMaxCoord);
  const auto m1 = static_cast<std::uint8_t>(TypeParam::kMaxCoord + 1);
  EXPECT_TRUE(wire::fits(wire::Coords{m, m, m}, layout));
  EXPECT_FALSE(wire::fits(wire::Coords{m1, 0, 0}, layout));
  EXPECT_FALSE(wire::fits(wire::Coords{0, m1, 0}, layout));
  EXPECT_FALSE(wire::fits(wire::Coords{0, 0, m1}, layout));
  EXPECT_TRUE(wire::fits_dest(TypeParam::kMaxDest, layout));
  EXPECT_FALSE(wire::fits_dest(TypeParam::kMaxDest + 1, layout));
  EXPECT_TRUE(wire::fits(wire::RouteEntry{true, 7}));
  EXPECT_FALSE(wire::fits(wire::RouteEntry{false, 8}));
}

TYPED_TEST(WireFormatFits, PackingAnOverWideFieldNeverTouchesTheOtherFields) {
  // The contract: callers check fits() first. Should one not, pack_head masks the bad field to its
  // width, so the neighbours stay intact (the bad field's own value is then wrong).
  const wire::Layout& layout = TypeParam::kLayout;
  std::mt19937_64 rng(kSeed + 7);
  for (int i = 0; i < 1000; ++i) {
    const wire::HeadFields good = RandomHead(rng, layout);
    wire::HeadFields bad = good;
    bad.network = static_cast<std::uint8_t>(good.network | 0xFE);
    bad.more = static_cast<std::uint16_t>(good.more | ~wire::field_max(layout.more_w));
    bad.dest = good.dest | static_cast<std::uint32_t>(~wire::field_max(layout.addr_w));
    bad.tag = static_cast<std::uint8_t>(good.tag | ~wire::field_max(layout.tag_w));
    ASSERT_FALSE(wire::fits(bad, layout));
    ASSERT_EQ(wire::pack_head(bad, layout), wire::pack_head(good, layout));
  }
}

TEST(WireFormatLayouts, DataWidthNamesItsLayoutAndNothingElse) {
  EXPECT_EQ(wire::layout_for_data_width(64), &wire::kWide);
  EXPECT_EQ(wire::layout_for_data_width(32), &wire::kCompact);
  for (const unsigned bad : {0U, 16U, 31U, 33U, 48U, 63U, 65U, 128U}) {
    EXPECT_EQ(wire::layout_for_data_width(bad), nullptr) << bad;
  }
}

}  // namespace
}  // namespace wormcast::verif
