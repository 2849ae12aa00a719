// Bit-identity of the two definitions of the wire format: rtl/noc_pkg.sv (through the test-only
// probe verif/rtl/noc_wire_probe.sv, verilated) and firmware/noc_wire_format.hpp. Every conversion
// the probe makes through noc_pkg's structs and functions must give exactly the bits the C++
// header gives: head flits both ways (address flits share the head layout), coordinate
// destinations, source-route entries and link flits. Random values use fixed seeds, so every run drives the same
// vectors; edge values (all zeros, all ones, each field alone at its maximum, a walking one over every bit) pin each
// field to its bit range. The encodings (routing modes, CPR control fields, VC classes) must be
// equal too. The `fits` tests check that every over-wide field is rejected.
// docs/header-format.md describes the format and this test.
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
#include "firmware/noc_wire_format.hpp"

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

// The probe in its own context. It is combinational: set inputs, Eval(), read outputs.
class Probe {
 public:
  Probe() : context_(std::make_unique<VerilatedContext>()) {
    context_->fatalOnError(false);
    probe_ = std::make_unique<Vnoc_wire_probe>(context_.get(), "probe");
    probe_->eval();
  }
  ~Probe() { probe_->final(); }
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

  Vnoc_wire_probe* operator->() { return probe_.get(); }
  void Eval() { probe_->eval(); }
  bool AnyError() const { return context_->gotError(); }

  // The head data the RTL builds from `h` through noc_pkg::head_t.
  std::uint64_t PackHead(const wire::HeadFields& h) {
    probe_->mode_i = As<decltype(probe_->mode_i)>(static_cast<std::uint64_t>(h.mode));
    probe_->network_i = As<decltype(probe_->network_i)>(h.network);
    probe_->vc_class_i = As<decltype(probe_->vc_class_i)>(h.vc_class);
    probe_->cf_i = As<decltype(probe_->cf_i)>(static_cast<std::uint64_t>(h.cf));
    probe_->more_i = As<decltype(probe_->more_i)>(h.more);
    probe_->dest_i = As<decltype(probe_->dest_i)>(h.dest);
    probe_->src_i = As<decltype(probe_->src_i)>(h.src);
    probe_->tag_i = As<decltype(probe_->tag_i)>(h.tag);
    probe_->eval();
    return probe_->head_o;
  }

  // The fields the RTL reads from head data through noc_pkg::head_t.
  wire::HeadFields UnpackHead(std::uint64_t data) {
    probe_->head_i = data;
    probe_->eval();
    wire::HeadFields h;
    h.mode = static_cast<wire::Mode>(probe_->mode_o);
    h.network = probe_->network_o;
    h.vc_class = probe_->vc_class_o;
    h.cf = static_cast<wire::Cf>(probe_->cf_o);
    h.more = probe_->more_o;
    h.dest = probe_->dest_o;
    h.src = probe_->src_o;
    h.tag = probe_->tag_o;
    return h;
  }

  // A link flit through noc_pkg::flit_t: the FlitW bits as {bits 63..0, bits 65..64}.
  struct FlitBits {
    std::uint64_t low = 0;
    std::uint32_t high = 0;  // bit 1 = head (flit bit 65), bit 0 = tail (flit bit 64)
  };
  FlitBits PackFlit(const wire::Flit& f) {
    probe_->flit_head_i = f.head ? 1 : 0;
    probe_->flit_tail_i = f.tail ? 1 : 0;
    probe_->flit_data_i = f.data;
    probe_->eval();
    const auto& w = probe_->flit_o;
    return {std::uint64_t{w.at(0)} | (std::uint64_t{w.at(1)} << 32), w.at(2)};
  }
  wire::Flit UnpackFlit(const FlitBits& bits) {
    probe_->flit_i.at(0) = static_cast<std::uint32_t>(bits.low);
    probe_->flit_i.at(1) = static_cast<std::uint32_t>(bits.low >> 32);
    probe_->flit_i.at(2) = bits.high;
    probe_->eval();
    return {probe_->flit_head_o != 0, probe_->flit_tail_o != 0, probe_->flit_data_o};
  }

 private:
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Vnoc_wire_probe> probe_;
};

std::string Describe(const wire::HeadFields& h) { return ::testing::PrintToString(h); }

// A uniformly random value of a field `width` bits wide.
std::uint64_t RandomField(std::mt19937_64& rng, unsigned width) { return rng() & wire::field_max(width); }

wire::HeadFields RandomHead(std::mt19937_64& rng) {
  wire::HeadFields h;
  h.mode = static_cast<wire::Mode>(RandomField(rng, wire::kModeW));
  h.network = static_cast<std::uint8_t>(RandomField(rng, wire::kNetworkW));
  h.vc_class = static_cast<std::uint8_t>(RandomField(rng, wire::kClassW));
  h.cf = static_cast<wire::Cf>(RandomField(rng, wire::kCfW));
  h.more = static_cast<std::uint16_t>(RandomField(rng, wire::kMoreW));
  h.dest = static_cast<std::uint32_t>(RandomField(rng, wire::kAddrW));
  h.src = static_cast<std::uint32_t>(RandomField(rng, wire::kNodeW));
  h.tag = static_cast<std::uint8_t>(RandomField(rng, wire::kTagW));
  return h;
}

// The head with every field 0 except field `index` (0 = mode .. 7 = tag) at its maximum.
wire::HeadFields OneFieldAtMax(int index) {
  wire::HeadFields h;
  switch (index) {
    case 0:
      h.mode = static_cast<wire::Mode>(wire::field_max(wire::kModeW));
      break;
    case 1:
      h.network = static_cast<std::uint8_t>(wire::field_max(wire::kNetworkW));
      break;
    case 2:
      h.vc_class = static_cast<std::uint8_t>(wire::field_max(wire::kClassW));
      break;
    case 3:
      h.cf = static_cast<wire::Cf>(wire::field_max(wire::kCfW));
      break;
    case 4:
      h.more = static_cast<std::uint16_t>(wire::field_max(wire::kMoreW));
      break;
    case 5:
      h.dest = static_cast<std::uint32_t>(wire::field_max(wire::kAddrW));
      break;
    case 6:
      h.src = static_cast<std::uint32_t>(wire::field_max(wire::kNodeW));
      break;
    default:
      h.tag = static_cast<std::uint8_t>(wire::field_max(wire::kTagW));
      break;
  }
  return h;
}

// The bit range [msb:lsb] of each head field, in field order (docs/header-format.md).
struct FieldRange {
  const char* name;
  unsigned msb;
  unsigned lsb;
};
constexpr std::array<FieldRange, 8> kHeadRanges{{{"mode", 63, 61},
                                                 {"network", 60, 60},
                                                 {"vc_class", 59, 58},
                                                 {"cf", 57, 56},
                                                 {"more", 55, 44},
                                                 {"dest", 43, 24},
                                                 {"src", 23, 4},
                                                 {"tag", 3, 0}}};

std::uint64_t RangeMask(const FieldRange& r) { return wire::field_max(r.msb - r.lsb + 1) << r.lsb; }

// ------------------------------------------------------------------------------------------------
// Head flit.

TEST(WireFormat, RtlHeadPackingEqualsPackHeadOnRandomFields) {
  Probe probe;
  std::mt19937_64 rng(kSeed);
  int mismatches = 0;
  for (int i = 0; i < kRandomVectors; ++i) {
    const wire::HeadFields h = RandomHead(rng);
    ASSERT_TRUE(wire::fits(h));
    const std::uint64_t rtl = probe.PackHead(h);
    const std::uint64_t cpp = wire::pack_head(h);
    if (rtl != cpp && ++mismatches <= 10) {
      ADD_FAILURE() << "vector " << i << " (" << Describe(h) << "): RTL 0x" << std::hex << rtl << ", C++ 0x" << cpp;
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_FALSE(probe.AnyError());
}

TEST(WireFormat, RtlHeadUnpackingEqualsUnpackHeadOnRandomData) {
  Probe probe;
  std::mt19937_64 rng(kSeed + 1);
  int mismatches = 0;
  for (int i = 0; i < kRandomVectors; ++i) {
    const std::uint64_t data = rng();
    const wire::HeadFields rtl = probe.UnpackHead(data);
    const wire::HeadFields cpp = wire::unpack_head(data);
    if (!(rtl == cpp) && ++mismatches <= 10) {
      ADD_FAILURE() << "data 0x" << std::hex << data << ": RTL " << Describe(rtl) << ", C++ " << Describe(cpp);
    }
    // Every 64-bit value is a head: unpacking then packing gives it back.
    if (wire::pack_head(cpp) != data && ++mismatches <= 10) {
      ADD_FAILURE() << "data 0x" << std::hex << data << " does not survive unpack_head + pack_head";
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(WireFormat, RtlHeadRoundTripsRandomFields) {
  Probe probe;
  std::mt19937_64 rng(kSeed + 2);
  for (int i = 0; i < kRandomVectors; ++i) {
    const wire::HeadFields h = RandomHead(rng);
    const wire::HeadFields back = probe.UnpackHead(probe.PackHead(h));
    ASSERT_EQ(back, h) << "vector " << i << ": " << Describe(h) << " came back as " << Describe(back);
  }
}

TEST(WireFormat, HeadAllZerosAndAllOnes) {
  Probe probe;
  const wire::HeadFields zeros;
  EXPECT_EQ(probe.PackHead(zeros), 0U);
  EXPECT_EQ(wire::pack_head(zeros), 0U);
  EXPECT_EQ(probe.UnpackHead(0), zeros);
  EXPECT_EQ(wire::unpack_head(0), zeros);

  // Every field at its maximum fills all 64 bits: the widths sum to DataW in both definitions.
  wire::HeadFields ones;
  for (int f = 0; f < 8; ++f) {
    const wire::HeadFields one = OneFieldAtMax(f);
    ones.mode = static_cast<wire::Mode>(static_cast<int>(ones.mode) | static_cast<int>(one.mode));
    ones.network |= one.network;
    ones.vc_class |= one.vc_class;
    ones.cf = static_cast<wire::Cf>(static_cast<int>(ones.cf) | static_cast<int>(one.cf));
    ones.more |= one.more;
    ones.dest |= one.dest;
    ones.src |= one.src;
    ones.tag |= one.tag;
  }
  ASSERT_TRUE(wire::fits(ones));
  EXPECT_EQ(probe.PackHead(ones), ~std::uint64_t{0});
  EXPECT_EQ(wire::pack_head(ones), ~std::uint64_t{0});
  EXPECT_EQ(probe.UnpackHead(~std::uint64_t{0}), ones);
  EXPECT_EQ(wire::unpack_head(~std::uint64_t{0}), ones);
  EXPECT_FALSE(probe.AnyError());
}

TEST(WireFormat, EachHeadFieldAtMaxFillsExactlyItsDocumentedBits) {
  Probe probe;
  for (int f = 0; f < 8; ++f) {
    const wire::HeadFields h = OneFieldAtMax(f);
    const std::uint64_t expected = RangeMask(kHeadRanges[static_cast<std::size_t>(f)]);
    EXPECT_EQ(probe.PackHead(h), expected) << "RTL, field " << kHeadRanges[static_cast<std::size_t>(f)].name;
    EXPECT_EQ(wire::pack_head(h), expected) << "C++, field " << kHeadRanges[static_cast<std::size_t>(f)].name;
    EXPECT_EQ(probe.UnpackHead(expected), h) << "RTL, field " << kHeadRanges[static_cast<std::size_t>(f)].name;
    EXPECT_EQ(wire::unpack_head(expected), h) << "C++, field " << kHeadRanges[static_cast<std::size_t>(f)].name;
  }
}

TEST(WireFormat, WalkingOneLandsInTheSameFieldBitInRtlAndCpp) {
  Probe probe;
  for (unsigned bit = 0; bit < wire::kDataW; ++bit) {
    const std::uint64_t data = std::uint64_t{1} << bit;
    const wire::HeadFields rtl = probe.UnpackHead(data);
    const wire::HeadFields cpp = wire::unpack_head(data);
    EXPECT_EQ(rtl, cpp) << "bit " << bit << ": RTL " << Describe(rtl) << ", C++ " << Describe(cpp);
    EXPECT_EQ(probe.PackHead(cpp), data) << "bit " << bit;
  }
}

// ------------------------------------------------------------------------------------------------
// Coordinate destinations.

TEST(WireFormat, RtlCoordinateDestEqualsCppOnRandomAndEdgeValues) {
  Probe probe;
  std::mt19937_64 rng(kSeed + 4);
  auto check_pack = [&](const wire::Coords& c) {
    probe->coord_x_i = c.x;
    probe->coord_y_i = c.y;
    probe->coord_z_i = c.z;
    probe.Eval();
    ASSERT_EQ(probe->coord_dest_o, wire::pack_coord_dest(c))
        << "coordinates " << int{c.x} << "," << int{c.y} << "," << int{c.z};
  };
  auto check_unpack = [&](std::uint32_t dest) {
    probe->coord_dest_i = dest;
    probe.Eval();
    const wire::Coords c = wire::unpack_coord_dest(dest);
    ASSERT_EQ(probe->coord_x_o, c.x) << "dest " << dest;
    ASSERT_EQ(probe->coord_y_o, c.y) << "dest " << dest;
    ASSERT_EQ(probe->coord_z_o, c.z) << "dest " << dest;
    ASSERT_EQ(probe->coord_dest_ok_o != 0, wire::coord_dest_ok(dest)) << "dest " << dest;
    ASSERT_EQ(probe->coord_struct_agrees_o, 1) << "dest " << dest;
  };
  for (const wire::Coords& c : {wire::Coords{0, 0, 0}, wire::Coords{63, 0, 0}, wire::Coords{0, 63, 0},
                                wire::Coords{0, 0, 63}, wire::Coords{63, 63, 63}}) {
    check_pack(c);
  }
  for (const std::uint32_t dest : {0U, 0x3FFFFU, 0x40000U, 0x80000U, 0xFFFFFU}) check_unpack(dest);
  for (int i = 0; i < kRandomVectors; ++i) {
    const wire::Coords c{static_cast<std::uint8_t>(RandomField(rng, wire::kCoordW)),
                         static_cast<std::uint8_t>(RandomField(rng, wire::kCoordW)),
                         static_cast<std::uint8_t>(RandomField(rng, wire::kCoordW))};
    check_pack(c);
    EXPECT_EQ(wire::unpack_coord_dest(wire::pack_coord_dest(c)), c);
    EXPECT_TRUE(wire::coord_dest_ok(wire::pack_coord_dest(c)));
    check_unpack(static_cast<std::uint32_t>(RandomField(rng, wire::kAddrW)));  // pad bits random too
    if (HasFailure()) break;  // an ASSERT in a lambda only leaves the lambda
  }
  // x in the low bits: (1, 2, 3) is 3 << 12 | 2 << 6 | 1.
  EXPECT_EQ(wire::pack_coord_dest({1, 2, 3}), (3U << 12) | (2U << 6) | 1U);
}

// ------------------------------------------------------------------------------------------------
// Source routes.

TEST(WireFormat, RtlRouteEntryAndShiftEqualCppOnRandomAndEdgeValues) {
  Probe probe;
  std::mt19937_64 rng(kSeed + 5);
  auto check = [&](std::uint32_t dest) {
    probe->route_i = dest;
    probe.Eval();
    const wire::RouteEntry next = wire::route_entry(dest, 0);
    ASSERT_EQ(probe->route_deliver_o != 0, next.deliver) << "route " << dest;
    ASSERT_EQ(probe->route_port_o, next.port) << "route " << dest;
    ASSERT_EQ(probe->route_shift_o, wire::route_shift(dest)) << "route " << dest;
    ASSERT_EQ(probe->route_used_up_o != 0, wire::route_used_up(dest)) << "route " << dest;
  };
  for (const std::uint32_t dest : {0U, 0xFU, 0xFFFF0U, 0xFFFFFU, 0x7FFFFU, 0xEFFFFU}) check(dest);
  for (int i = 0; i < kRandomVectors && !HasFailure(); ++i) {
    check(static_cast<std::uint32_t>(RandomField(rng, wire::kAddrW)));
  }
}

TEST(WireFormat, SourceRouteHelpersBuildShiftAndUseUpARoute) {
  // +X (port 0), +X delivering a copy, +Y (port 2), then end: entries 0..3; entry 4 unused.
  std::uint32_t route = wire::kRouteAllUnused;
  route = wire::with_route_entry(route, 0, {false, 0});
  route = wire::with_route_entry(route, 1, {true, 0});
  route = wire::with_route_entry(route, 2, {false, 2});
  route = wire::with_route_entry(route, 3, {false, wire::kRoutePortEnd});
  EXPECT_EQ(route, 0xF7280U);
  EXPECT_EQ(wire::route_entry(route, 1), (wire::RouteEntry{true, 0}));
  EXPECT_EQ(wire::route_entry(route, 4), wire::unpack_route_entry(wire::kRouteEntryUnused));
  // Each shift moves the entries down one place and fills the top with an unused entry: four
  // shifts take entries 0..3 off, and then every entry is unused.
  int hops = 0;
  while (!wire::route_used_up(route)) {
    route = wire::route_shift(route);
    ++hops;
  }
  EXPECT_EQ(hops, 4);
  EXPECT_EQ(wire::route_shift(wire::kRouteAllUnused), wire::kRouteAllUnused);
  EXPECT_EQ(wire::pack_route_entry({true, 5}), 0xDU);
}

// ------------------------------------------------------------------------------------------------
// Link flit.

TEST(WireFormat, RtlLinkFlitEqualsCppLayout) {
  Probe probe;
  std::mt19937_64 rng(kSeed + 6);
  for (int i = 0; i < kRandomVectors; ++i) {
    const std::uint64_t bits = rng();
    const wire::Flit f{(bits & 1) != 0, (bits & 2) != 0, rng()};
    const Probe::FlitBits packed = probe.PackFlit(f);
    // {head, tail, data}: data in bits 63..0, tail at kFlitTailBit (64), head at kFlitHeadBit (65).
    ASSERT_EQ(packed.low, f.data);
    ASSERT_EQ(packed.high,
              ((f.head ? 1U : 0U) << (wire::kFlitHeadBit - 64)) | ((f.tail ? 1U : 0U) << (wire::kFlitTailBit - 64)));
    ASSERT_EQ(probe.UnpackFlit(packed), f);
  }
  // The single-flit worm: head = tail = 1.
  const Probe::FlitBits single = probe.PackFlit({true, true, 0});
  EXPECT_EQ(single.high, 3U);
  EXPECT_EQ(single.low, 0U);
}

// ------------------------------------------------------------------------------------------------
// Encodings: the values of noc_pkg's enums and constants equal the C++ ones.

TEST(WireFormat, RtlEncodingsEqualCppEncodings) {
  Probe probe;
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
  const std::uint8_t classes[] = {wire::kHcClassPHigh, wire::kHcClassQHigh,      wire::kHcClassPLow,
                                  wire::kHcClassQLow,  wire::kDorClassWrapAhead, wire::kDorClassNoWrap};
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

TEST(WireFormatFits, RejectsEachOverWideHeadField) {
  for (int f = 0; f < 8; ++f)
    EXPECT_TRUE(wire::fits(OneFieldAtMax(f))) << kHeadRanges[static_cast<std::size_t>(f)].name;
  wire::HeadFields h;
  h.mode = static_cast<wire::Mode>(8);
  EXPECT_FALSE(wire::fits(h)) << "mode 8";
  h.mode = static_cast<wire::Mode>(255);
  EXPECT_FALSE(wire::fits(h)) << "mode 255";
  h = {};
  h.network = 2;
  EXPECT_FALSE(wire::fits(h)) << "network 2";
  h = {};
  h.vc_class = 4;
  EXPECT_FALSE(wire::fits(h)) << "vc_class 4";
  h = {};
  h.cf = static_cast<wire::Cf>(4);
  EXPECT_FALSE(wire::fits(h)) << "cf 4";
  h = {};
  h.more = 4096;
  EXPECT_FALSE(wire::fits(h)) << "more 4096";
  h.more = 0xFFFF;
  EXPECT_FALSE(wire::fits(h)) << "more 65535";
  h = {};
  h.dest = 1U << 20;
  EXPECT_FALSE(wire::fits(h)) << "dest 2^20";
  h.dest = 0xFFFFFFFFU;
  EXPECT_FALSE(wire::fits(h)) << "dest 2^32-1";
  h = {};
  h.src = 1U << 20;
  EXPECT_FALSE(wire::fits(h)) << "src 2^20";
  h = {};
  h.tag = 16;
  EXPECT_FALSE(wire::fits(h)) << "tag 16";
}

TEST(WireFormatFits, RejectsOverWideCoordinatesDestsAndRouteEntries) {
  EXPECT_TRUE(wire::fits(wire::Coords{63, 63, 63}));
  EXPECT_FALSE(wire::fits(wire::Coords{64, 0, 0}));
  EXPECT_FALSE(wire::fits(wire::Coords{0, 64, 0}));
  EXPECT_FALSE(wire::fits(wire::Coords{0, 0, 64}));
  EXPECT_TRUE(wire::fits_dest(0xFFFFF));
  EXPECT_FALSE(wire::fits_dest(0x100000));
  EXPECT_TRUE(wire::fits(wire::RouteEntry{true, 7}));
  EXPECT_FALSE(wire::fits(wire::RouteEntry{false, 8}));
}

TEST(WireFormatFits, PackingAnOverWideFieldNeverTouchesTheOtherFields) {
  // The contract: callers check fits() first. Should one not, pack_head masks the bad field to its
  // width, so the neighbours stay intact (the bad field's own value is then wrong).
  std::mt19937_64 rng(kSeed + 7);
  for (int i = 0; i < 1000; ++i) {
    const wire::HeadFields good = RandomHead(rng);
    wire::HeadFields bad = good;
    bad.network = static_cast<std::uint8_t>(good.network | 0xFE);
    bad.more = static_cast<std::uint16_t>(good.more | 0xF000);
    bad.dest = good.dest | 0xFFF00000U;
    bad.tag = static_cast<std::uint8_t>(good.tag | 0xF0);
    ASSERT_FALSE(wire::fits(bad));
    ASSERT_EQ(wire::pack_head(bad), wire::pack_head(good));
  }
}

}  // namespace
}  // namespace wormcast::verif
