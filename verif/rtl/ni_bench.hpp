// SPDX-License-Identifier: Apache-2.0
// Bench of the RTL network interface (rtl/noc_ni.sv; docs/rtl.md, "Network interface"): the
// verilated noc_ni driven cycle by cycle next to the harness's C++ NI pieces
// (sim/node_interface.hpp: packetize, injection_vc, InjectionCredits, EjectionPort, depacketize),
// with a stand-in for the router on both links:
//   - injection: per channel, random messages queued at random cycles (the same queue feeds the
//     RTL message port and the C++ packetizer); the router frees each input-VC slot, and returns
//     its credit, a random 1..MaxCreditDelay cycles after the flit arrived (one credit per VC per
//     cycle at most, as in_credit_o);
//   - ejection: per port, a pool of BufDepth credits (spent in a cycle, returned ones usable from
//     the next, as noc_eject_unit); random messages on random streams, their flits interleaved
//     per flit on the port, sent with a credit whenever the random send rate allows; random
//     consumer back-pressure, the same for both NIs.
// Every cycle it compares the RTL's link outputs with the C++ NI's decisions (flit, VC, credit,
// the flit the consumer takes) and reassembles the RTL's receive port per stream; every message
// must come out whole, in order per stream, equal to the one sent. Optionally every cycle's inputs
// and outputs go to a vector file for the netlist replay (ni_netlist_tb.v).
#pragma once

#include <gtest/gtest.h>
#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "firmware/noc_wire_format.hpp"
#include "sim/node_interface.hpp"
#include "verilated_dut.hpp"

namespace wormcast::verif::ni_bench {

constexpr unsigned Clog2(unsigned n) {
  unsigned w = 0;
  while ((1u << w) < n) ++w;
  return w;
}

// Bits [lo, lo + width) of a port of any width (width <= 64).
template <class T>
std::uint64_t Get(const T& sig, unsigned lo, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) v |= static_cast<std::uint64_t>(GetBit(sig, lo + i)) << i;
  return v;
}
template <class T>
void Put(T& sig, unsigned lo, unsigned width, std::uint64_t v) {
  for (unsigned i = 0; i < width; ++i) SetBit(sig, lo + i, (v >> i) & 1u);
}
// A port of `width` bits in hex, most significant digit first (the vector file's format).
template <class T>
std::string Hex(const T& sig, unsigned width) {
  std::string s;
  for (int d = static_cast<int>((width + 3) / 4) - 1; d >= 0; --d) {
    unsigned nibble = 0;
    for (unsigned b = 0; b < 4; ++b) {
      const unsigned bit = static_cast<unsigned>(d) * 4 + b;
      if (bit < width && GetBit(sig, bit)) nibble |= 1u << b;
    }
    s += "0123456789abcdef"[nibble];
  }
  return s;
}

// Knobs of one random run.
struct Traffic {
  double arrive = 0.3;            // probability per cycle and channel that a message is queued
  double eject = 0.7;             // probability per cycle and port that the router ejects (with a credit)
  double ready = 0.6;             // probability per cycle and port that the consumer is ready
  unsigned max_credit_delay = 6;  // the router frees an input-VC slot 1..this cycles after the flit
  unsigned max_more = 3;          // address flits per message 0..this
  unsigned max_words = 8;         // payload words 0..this
};

// Counters of a run, for the tests' "enough happened" checks.
struct Stats {
  long cycles = 0;
  long injected = 0, inject_stalls = 0;  // flits injected; cycles a word waited for a credit
  long messages_in = 0;                  // messages injected whole
  long ejected = 0, taken = 0;           // flits the router ejected; flits the consumer took
  long messages_out = 0;                 // messages the consumer got whole
  long longest_out = 0;                  // payload words of the longest message the consumer got whole
  long held_full = 0;                    // cycles an ejection FIFO held BufDepth flits
  long interleaved = 0;                  // taken flits whose stream differs from the previous one's
};

template <class Model, unsigned kLocals, unsigned kVcs, unsigned kDataW>
class NiBench {
 public:
  static constexpr unsigned kNetPorts = 4;
  static constexpr unsigned kDepth = 4;  // BufDepth = sim::kRouterDepth
  static constexpr unsigned kFlitW = kDataW + 2;
  static constexpr unsigned kStreams = (kNetPorts + kLocals) * kVcs;
  static constexpr unsigned kStreamW = kStreams > 1 ? Clog2(kStreams) : 1;
  static constexpr unsigned kVcIdW = kVcs > 1 ? Clog2(kVcs) : 1;
  static constexpr const wire::Layout& kLayout = kDataW == 32 ? wire::kCompact : wire::kWide;
  static constexpr unsigned kPosW = kLayout.more_w;
  static constexpr unsigned kErrorsW = 3;
  static_assert(kDepth == sim::kRouterDepth, "the C++ NI's credits are kRouterDepth per VC");

  NiBench(std::uint64_t seed, Traffic traffic, std::ostream* vectors = nullptr)
      : context_(std::make_unique<VerilatedContext>()), rng_(seed), traffic_(traffic), vectors_(vectors) {
    context_->fatalOnError(false);
    m_ = std::make_unique<Model>(context_.get(), "ni");
    for (unsigned l = 0; l < kLocals; ++l) {
      inject_.emplace_back(kVcs);
      eject_.emplace_back();
    }
    m_->clk_i = 0;
    m_->rst_ni = 0;
    m_->eval();
    Edge();
    m_->rst_ni = 1;
    m_->eval();
  }

  Model& m() { return *m_; }
  const Stats& stats() const { return stats_; }
  bool assertion_fired() const { return context_->gotError(); }
  // Messages queued or in flight on either side.
  bool busy() const {
    for (const Channel& c : inject_) {
      if (!c.queue.empty()) return true;
    }
    for (const Port& p : eject_) {
      if (p.pool != kDepth || p.cpp.held() != 0) return true;
      for (const auto& [s, q] : p.pending) {
        if (!q.empty()) return true;
      }
    }
    return false;
  }

  // One cycle of random traffic; `generate` = false stops new messages (the run drains).
  void Cycle(bool generate = true) {
    std::uniform_real_distribution<double> u(0, 1);
    // Inputs: the message ports and the injection credits, the ejection links and the consumers.
    for (unsigned l = 0; l < kLocals; ++l) {
      Channel& c = inject_[l];
      if (generate && u(rng_) < traffic_.arrive && c.queue.size() < 4) c.queue.push_back(RandomMessage(c.sent));
      const bool offer = !c.queue.empty();
      SetBit(m_->msg_valid_i, l, offer);
      Put(m_->msg_data_i, l * kDataW, kDataW, offer ? c.queue.front().flits[c.next].data : 0);
      SetBit(m_->msg_last_i, l, offer && c.next + 1 == c.queue.front().flits.size());
      std::uint32_t bits = 0;
      for (unsigned v = 0; v < kVcs; ++v) {
        std::deque<long>& due = c.credit_due[v];
        if (!due.empty() && due.front() <= stats_.cycles) {
          bits |= 1u << v;
          due.pop_front();
        }
      }
      c.credit_bits = bits;
      Put(m_->inj_credit_i, l * kVcs, kVcs, bits);

      Port& p = eject_[l];
      if (generate && u(rng_) < traffic_.arrive) {
        const unsigned s = std::uniform_int_distribution<unsigned>(0, kStreams - 1)(rng_);
        if (p.pending[s].size() < 3) p.pending[s].push_back(RandomMessage(p.generated));
      }
      p.link = sim::Link{};
      std::vector<unsigned> ready_streams;
      for (const auto& [s, q] : p.pending) {
        if (!q.empty()) ready_streams.push_back(s);
      }
      if (p.pool > 0 && !ready_streams.empty() && u(rng_) < traffic_.eject) {
        const unsigned s = ready_streams[std::uniform_int_distribution<std::size_t>(0, ready_streams.size() - 1)(rng_)];
        Message& msg = p.pending[s].front();
        p.link = sim::Link{true, 0, msg.flits[msg.next], s};
        --p.pool;
        ++stats_.ejected;
        if (++msg.next == msg.flits.size()) {
          p.sent[s].push_back(std::move(msg));
          p.pending[s].pop_front();
        }
      }
      SetBit(m_->ej_valid_i, l, p.link.valid);
      PutFlit(m_->ej_flit_i, l * kFlitW, p.link.flit);
      Put(m_->ej_stream_i, l * kStreamW, kStreamW, p.link.stream);
      p.ready = u(rng_) < traffic_.ready;
      SetBit(m_->rx_ready_i, l, p.ready);
    }
    m_->eval();
    Check();
    Edge();
    ++stats_.cycles;
  }

  // Cycles of traffic, then cycles without new messages until everything is delivered.
  void Run(long cycles, long drain_limit = 5000) {
    for (long i = 0; i < cycles && !::testing::Test::HasFailure(); ++i) Cycle();
    for (long i = 0; i < drain_limit && busy() && !::testing::Test::HasFailure(); ++i) Cycle(false);
    EXPECT_FALSE(busy()) << "not drained after " << drain_limit << " cycles";
    for (unsigned l = 0; l < kLocals; ++l) {
      for (const auto& [s, q] : eject_[l].sent) EXPECT_TRUE(q.empty()) << "port " << l << " stream " << s;
      for (const auto& [s, w] : eject_[l].rtl_worm) EXPECT_TRUE(w.empty()) << "port " << l << " stream " << s;
    }
  }

 private:
  struct Message {
    std::vector<wire::Flit> flits;
    std::size_t next = 0;
  };
  struct Channel {
    std::deque<Message> queue;
    std::size_t next = 0;  // the front message's next flit
    sim::InjectionCredits cpp;
    std::deque<long> credit_due[kVcs];
    std::uint32_t credit_bits = 0;
    long sent = 0;
    explicit Channel(unsigned vcs) : cpp(vcs) {}
  };
  struct Port {
    sim::EjectionPort cpp;
    unsigned pool = kDepth;                                // the router's ejection credits
    std::map<unsigned, std::deque<Message>> pending;       // per stream: messages not fully ejected
    std::map<unsigned, std::deque<Message>> sent;          // per stream: ejected, not yet received whole
    std::map<unsigned, std::vector<wire::Flit>> rtl_worm;  // per stream: the RTL receive port's flits
    sim::Link link;
    bool ready = false;
    long generated = 0;
    unsigned last_stream = ~0u;
  };

  static std::uint64_t Mask(unsigned w) { return w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1; }
  // A flit_t {head, tail, data} at bit lo of a port.
  template <class T>
  static void PutFlit(T& sig, unsigned lo, const wire::Flit& f) {
    Put(sig, lo, kDataW, f.data & Mask(kDataW));
    SetBit(sig, lo + kDataW, f.tail);
    SetBit(sig, lo + kDataW + 1, f.head);
  }

  // A random message: a head whose fields are random (its `more` says how many address flits
  // follow), address flits with random data, random payload words; packetized by the C++ NI.
  Message RandomMessage(long& count) {
    std::uniform_int_distribution<std::uint64_t> word(0, Mask(kDataW));
    wire::HeadFields h = wire::unpack_head(word(rng_), kLayout);
    h.more = static_cast<std::uint16_t>(std::uniform_int_distribution<unsigned>(0, traffic_.max_more)(rng_));
    h.tag = static_cast<std::uint8_t>(count & Mask(kLayout.tag_w));
    ++count;
    std::vector<std::uint64_t> header{wire::pack_head(h, kLayout)};
    for (unsigned k = 0; k < h.more; ++k) header.push_back(word(rng_));
    std::vector<std::uint64_t> payload(std::uniform_int_distribution<unsigned>(0, traffic_.max_words)(rng_));
    for (std::uint64_t& w : payload) w = word(rng_);
    Message m;
    m.flits = sim::packetize(header.data(), static_cast<std::uint32_t>(header.size()), payload.data(),
                             static_cast<std::uint32_t>(payload.size()));
    return m;
  }

  // The C++ NI's decisions this cycle against the RTL's outputs.
  void Check() {
    for (unsigned l = 0; l < kLocals; ++l) {
      // Injection, as NodeInterface::inject: credits returned count first, then the front flit
      // goes on its worm's VC if that VC has a credit.
      Channel& c = inject_[l];
      c.cpp.add(c.credit_bits);
      bool sent = false;
      unsigned vc = 0;
      wire::Flit flit;
      if (!c.queue.empty()) {
        const Message& msg = c.queue.front();
        flit = msg.flits[c.next];
        vc = kDataW == 64 ? sim::injection_vc(wire::unpack_head(msg.flits.front().data), kVcs)
                          : wire::unpack_head(msg.flits.front().data, kLayout).vc_class & (kVcs - 1u);
        sent = c.cpp.take(vc);
        if (!sent) ++stats_.inject_stalls;
        ASSERT_EQ(GetBit(m_->msg_ready_o, l), sent) << Where(l) << "msg_ready_o";
      }
      ASSERT_EQ(GetBit(m_->inj_valid_o, l), sent) << Where(l) << "inj_valid_o";
      if (sent) {
        ASSERT_EQ(Get(m_->inj_vc_o, l * kVcIdW, kVcIdW), vc) << Where(l) << "inj_vc_o";
        ASSERT_EQ(Get(m_->inj_flit_o, l * kFlitW, kDataW), flit.data) << Where(l) << "inj_flit_o data";
        ASSERT_EQ(GetBit(m_->inj_flit_o, l * kFlitW + kDataW + 1), flit.head) << Where(l) << "head";
        ASSERT_EQ(GetBit(m_->inj_flit_o, l * kFlitW + kDataW), flit.tail) << Where(l) << "tail";
        ++stats_.injected;
        const long delay = std::uniform_int_distribution<long>(1, traffic_.max_credit_delay)(rng_);
        std::deque<long>& due = c.credit_due[vc];
        due.push_back(std::max(stats_.cycles + delay, due.empty() ? 0 : due.back() + 1));
        if (++c.next == c.queue.front().flits.size()) {
          c.queue.pop_front();
          c.next = 0;
          ++stats_.messages_in;
        }
      }

      // Ejection, as NodeInterface::take_ejected then drain_ejection.
      Port& p = eject_[l];
      if (p.link.valid) {
        ASSERT_TRUE(p.cpp.hold(p.link)) << Where(l) << "the bench ejected without a credit";
      }
      ASSERT_EQ(GetBit(m_->rx_valid_o, l), p.cpp.held() != 0) << Where(l) << "rx_valid_o";
      if (p.cpp.held() == kDepth) ++stats_.held_full;
      sim::EjectionPort::Taken taken = sim::EjectionPort::Taken::kNone;
      if (p.ready) taken = p.cpp.take();
      ASSERT_NE(taken, sim::EjectionPort::Taken::kMisplaced) << Where(l);
      const bool credit = taken != sim::EjectionPort::Taken::kNone;
      for (unsigned v = 0; v < kVcs; ++v) {
        ASSERT_EQ(GetBit(m_->ej_credit_o, l * kVcs + v), v == 0 && credit) << Where(l) << "ej_credit_o VC " << v;
      }
      if (credit) ++p.pool;  // usable from the next cycle, as the router's registered pool
      if (!credit) continue;
      // The flit the consumer takes: the same as the C++ NI's, with its place in its message.
      const wire::Flit& f = p.cpp.flit();
      const unsigned s = p.cpp.stream();
      ++stats_.taken;
      if (s != p.last_stream) ++stats_.interleaved;
      p.last_stream = s;
      ASSERT_EQ(Get(m_->rx_stream_o, l * kStreamW, kStreamW), s) << Where(l) << "rx_stream_o";
      ASSERT_EQ(Get(m_->rx_data_o, l * kDataW, kDataW), f.data) << Where(l) << "rx_data_o";
      ASSERT_EQ(GetBit(m_->rx_head_o, l), f.head) << Where(l) << "rx_head_o";
      ASSERT_EQ(GetBit(m_->rx_last_o, l), f.tail) << Where(l) << "rx_last_o";
      const std::vector<wire::Flit>& cpp_worm = p.cpp.worm(s);
      const std::size_t idx = cpp_worm.size() - 1;
      const unsigned more = wire::unpack_head(cpp_worm.front().data, kLayout).more;
      const bool addr = idx >= 1 && idx <= more;
      const std::uint64_t pos = (idx == 0 || addr) ? 0 : (idx - 1 - more) & Mask(kPosW);
      ASSERT_EQ(GetBit(m_->rx_addr_o, l), addr) << Where(l) << "rx_addr_o";
      ASSERT_EQ(Get(m_->rx_pos_o, l * kPosW, kPosW), pos) << Where(l) << "rx_pos_o";
      // The consumer's reassembly from the RTL receive port.
      std::vector<wire::Flit>& worm = p.rtl_worm[s];
      worm.push_back({GetBit(m_->rx_head_o, l), GetBit(m_->rx_last_o, l), Get(m_->rx_data_o, l * kDataW, kDataW)});
      if (taken == sim::EjectionPort::Taken::kWhole) {
        ASSERT_FALSE(p.sent[s].empty()) << Where(l) << "stream " << s << ": a message nobody sent";
        const Message& want = p.sent[s].front();
        ASSERT_EQ(worm, want.flits) << Where(l) << "stream " << s << ": the RTL's message";
        ASSERT_EQ(cpp_worm, want.flits) << Where(l) << "stream " << s << ": the C++ NI's message";
        if (kDataW == 64) {
          // The harness's depacketizer reads the same head and payload.
          const sim::Depacketized d = sim::depacketize(cpp_worm);
          const std::vector<std::uint64_t> payload_words = [&] {
            std::vector<std::uint64_t> w;
            for (std::size_t i = 1 + more; i < want.flits.size(); ++i) w.push_back(want.flits[i].data);
            return w;
          }();
          ASSERT_EQ(d.payload, payload_words);
          ASSERT_EQ(d.head, wire::unpack_head(want.flits.front().data));
        }
        stats_.longest_out = std::max(stats_.longest_out, static_cast<long>(want.flits.size() - 1 - more));
        p.sent[s].pop_front();
        p.cpp.worm(s).clear();
        worm.clear();
        ++stats_.messages_out;
      }
    }
    ASSERT_EQ(Get(m_->errors_o, 0, kErrorsW), 0u) << "errors_o at cycle " << stats_.cycles;
  }

  std::string Where(unsigned l) const {
    return "cycle " + std::to_string(stats_.cycles) + " channel " + std::to_string(l) + ": ";
  }

  // Writes this cycle's vector line (inputs, outputs) then clocks a rising and a falling edge.
  void Edge() {
    if (vectors_ != nullptr) {
      Model& m = *m_;
      *vectors_ << Hex(m.rst_ni, 1) << ' ' << Hex(m.msg_valid_i, kLocals) << ' ' << Hex(m.msg_data_i, kLocals * kDataW)
                << ' ' << Hex(m.msg_last_i, kLocals) << ' ' << Hex(m.inj_credit_i, kLocals * kVcs) << ' '
                << Hex(m.ej_valid_i, kLocals) << ' ' << Hex(m.ej_flit_i, kLocals * kFlitW) << ' '
                << Hex(m.ej_stream_i, kLocals * kStreamW) << ' ' << Hex(m.rx_ready_i, kLocals) << ' '
                << Hex(m.msg_ready_o, kLocals) << ' ' << Hex(m.inj_valid_o, kLocals) << ' '
                << Hex(m.inj_vc_o, kLocals * kVcIdW) << ' ' << Hex(m.inj_flit_o, kLocals * kFlitW) << ' '
                << Hex(m.ej_credit_o, kLocals * kVcs) << ' ' << Hex(m.rx_valid_o, kLocals) << ' '
                << Hex(m.rx_stream_o, kLocals * kStreamW) << ' ' << Hex(m.rx_head_o, kLocals) << ' '
                << Hex(m.rx_addr_o, kLocals) << ' ' << Hex(m.rx_last_o, kLocals) << ' '
                << Hex(m.rx_pos_o, kLocals * kPosW) << ' ' << Hex(m.rx_data_o, kLocals * kDataW) << ' '
                << Hex(m.errors_o, kErrorsW) << '\n';
    }
    m_->clk_i = 1;
    m_->eval();
    context_->timeInc(1);
    m_->clk_i = 0;
    m_->eval();
    context_->timeInc(1);
  }

  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> m_;
  std::mt19937_64 rng_;
  Traffic traffic_;
  std::ostream* vectors_;
  std::vector<Channel> inject_;
  std::vector<Port> eject_;
  Stats stats_;
};

}  // namespace wormcast::verif::ni_bench
