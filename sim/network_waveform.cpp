// SPDX-License-Identifier: Apache-2.0
#include "sim/network_waveform.hpp"

#include <fmt/format.h>
#include <gtkwave/fstapi.h>

#include <bit>
#include <vector>

#include "model/errors.hpp"

namespace wormcast::sim {

namespace {

bool started_once(const std::string& last) { return !last.empty(); }

// `value`'s low `width` bits, most significant first.
std::string bits(std::uint64_t value, unsigned width) {
  std::string out(width, '0');
  for (unsigned i = 0; i < width && i < 64; ++i) {
    if ((value >> i) & 1) out[width - 1 - i] = '1';
  }
  return out;
}

// A flit as the router's flit port carries it: head, tail, 64 data bits.
std::string flit_bits(const Link& l) {
  return std::string(1, l.flit.head ? '1' : '0') + (l.flit.tail ? '1' : '0') + bits(l.flit.data, 64);
}

}  // namespace

// One router behind the RouterModel interface, its ports recorded at each rising edge.
class RecordedRouter final : public RouterModel {
 public:
  RecordedRouter(NetworkWaveform& wave, std::unique_ptr<RouterModel> inner, const std::string& name)
      : wave_(wave), inner_(std::move(inner)), inputs_(inner_->ports()) {
    const unsigned ports = inner_->ports(), credit_bits = ports * inner_->vcs(), vc_bits = ports * vc_w();
    fstWriterSetScope(wave_.fst_, FST_ST_VCD_MODULE, name.c_str(), nullptr);
    rst_ = wave_.add_signal(1, "rst_ni");
    in_valid_ = wave_.add_signal(ports, fmt::format("in_valid_i [{}:0]", ports - 1));
    in_vc_ = wave_.add_signal(vc_bits, fmt::format("in_vc_i [{}:0]", vc_bits - 1));
    out_valid_ = wave_.add_signal(ports, fmt::format("out_valid_o [{}:0]", ports - 1));
    out_vc_ = wave_.add_signal(vc_bits, fmt::format("out_vc_o [{}:0]", vc_bits - 1));
    in_credit_ = wave_.add_signal(credit_bits, fmt::format("in_credit_o [{}:0]", credit_bits - 1));
    out_credit_ = wave_.add_signal(credit_bits, fmt::format("out_credit_i [{}:0]", credit_bits - 1));
    draining_ = wave_.add_signal(credit_bits, fmt::format("draining_o [{}:0]", credit_bits - 1));
    route_drops_ = wave_.add_signal(8, "route_drops_o [7:0]");
    errors_ = wave_.add_signal(3, "errors_o [2:0]");
    // Port p's flits ({head, tail, data}), named as the router numbers its ports (docs/rtl.md).
    for (unsigned p = 0; p < ports; ++p) {
      in_flit_.push_back(wave_.add_signal(2 + 64, fmt::format("in_flit_p{} [65:0]", p)));
      out_flit_.push_back(wave_.add_signal(2 + 64, fmt::format("out_flit_p{} [65:0]", p)));
    }
    fstWriterSetUpscope(wave_.fst_);
  }

  unsigned net_ports() const override { return inner_->net_ports(); }
  unsigned locals() const override { return inner_->locals(); }
  unsigned vcs() const override { return inner_->vcs(); }
  void configure(const RouterConfig& config) override { inner_->configure(config); }
  void set_reset(bool active) override {
    reset_ = active;
    inner_->set_reset(active);
  }
  Link output(unsigned port) const override { return inner_->output(port); }
  std::uint32_t credits_to_senders() const override { return inner_->credits_to_senders(); }
  std::uint64_t draining() const override { return inner_->draining(); }
  unsigned route_drops() const override { return inner_->route_drops(); }
  unsigned errors() const override { return inner_->errors(); }
  void set_input(unsigned port, const Link& link) override {
    inputs_.at(port) = link;
    inner_->set_input(port, link);
  }
  void set_credits_from_receivers(std::uint32_t credit_bits) override {
    out_credit_bits_ = credit_bits;
    inner_->set_credits_from_receivers(credit_bits);
  }
  void set_clock(bool high) override {
    if (high) record();
    inner_->set_clock(high);
  }

 private:
  // Bits of a VC id per port, as the router's in_vc_i/out_vc_o (noc_router VcIdW).
  unsigned vc_w() const { return inner_->vcs() > 1 ? static_cast<unsigned>(std::bit_width(inner_->vcs() - 1)) : 1u; }

  // What the router shows and samples at this rising edge, before it takes the edge.
  void record() {
    wave_.at_edge(edge_++);
    const unsigned ports = inner_->ports();
    std::uint64_t in_valid = 0, in_vc = 0, out_valid = 0, out_vc = 0;
    for (unsigned p = 0; p < ports; ++p) {
      const Link in = inputs_[p], out = inner_->output(p);
      in_valid |= std::uint64_t{in.valid} << p;
      in_vc |= std::uint64_t{in.vc} << (p * vc_w());
      out_valid |= std::uint64_t{out.valid} << p;
      out_vc |= std::uint64_t{out.vc} << (p * vc_w());
      wave_.change(in_flit_[p], flit_bits(in));
      wave_.change(out_flit_[p], flit_bits(out));
    }
    const unsigned credit_bits = ports * inner_->vcs();
    wave_.change(rst_, reset_ ? "0" : "1");
    wave_.change(in_valid_, bits(in_valid, ports));
    wave_.change(in_vc_, bits(in_vc, ports * vc_w()));
    wave_.change(out_valid_, bits(out_valid, ports));
    wave_.change(out_vc_, bits(out_vc, ports * vc_w()));
    wave_.change(in_credit_, bits(inner_->credits_to_senders(), credit_bits));
    wave_.change(out_credit_, bits(out_credit_bits_, credit_bits));
    wave_.change(draining_, bits(inner_->draining(), credit_bits));
    wave_.change(route_drops_, bits(inner_->route_drops(), 8));
    wave_.change(errors_, bits(inner_->errors(), 3));
  }

  NetworkWaveform& wave_;
  std::unique_ptr<RouterModel> inner_;
  std::vector<Link> inputs_;
  std::uint32_t out_credit_bits_ = 0;
  bool reset_ = false;
  std::uint64_t edge_ = 0;
  std::uint32_t rst_ = 0, in_valid_ = 0, in_vc_ = 0, out_valid_ = 0, out_vc_ = 0, in_credit_ = 0, out_credit_ = 0,
                draining_ = 0, route_drops_ = 0, errors_ = 0;
  std::vector<std::uint32_t> in_flit_, out_flit_;
};

NetworkWaveform::NetworkWaveform(const std::string& path) {
  if (!path.ends_with(".fst")) {
    throw model::RequestError(fmt::format("trace file '{}' must end in .fst (the FST waveform format)", path));
  }
  fst_ = fstWriterCreate(path.c_str(), 1);
  if (fst_ == nullptr) throw model::RequestError(fmt::format("cannot write the trace file '{}'", path));
  fstWriterSetTimescale(fst_, -9);  // one rising edge per nanosecond: a 1 GHz clock, for the viewer
  fstWriterSetVersion(fst_, "wormcast run --trace");
}

NetworkWaveform::~NetworkWaveform() { close(); }

void NetworkWaveform::close() {
  if (fst_ == nullptr) return;
  fstWriterClose(fst_);
  fst_ = nullptr;
}

std::unique_ptr<RouterModel> NetworkWaveform::record(std::unique_ptr<RouterModel> router, const std::string& name) {
  return std::make_unique<RecordedRouter>(*this, std::move(router), name);
}

void NetworkWaveform::at_edge(std::uint64_t edge) {
  if (fst_ == nullptr || (started_ && edge <= time_)) return;
  time_ = edge;
  started_ = true;
  fstWriterEmitTimeChange(fst_, edge);
}

std::uint32_t NetworkWaveform::add_signal(unsigned width, const std::string& name) {
  last_.emplace_back();
  return fstWriterCreateVar(fst_, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, width, name.c_str(), 0);
}

void NetworkWaveform::change(std::uint32_t handle, const std::string& value) {
  // Handles count from 1. Only changes go into the file.
  std::string& last = last_.at(handle - 1);
  if (fst_ == nullptr || (started_once(last) && last == value)) return;
  last = value;
  fstWriterEmitValueChange(fst_, handle, value.c_str());
}

}  // namespace wormcast::sim
