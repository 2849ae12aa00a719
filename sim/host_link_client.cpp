// SPDX-License-Identifier: Apache-2.0
#include "sim/host_link_client.hpp"

#include <fmt/format.h>

namespace wormcast::sim {
namespace {

constexpr std::uint8_t kOpStatus = 'S';
constexpr std::uint8_t kOpInject = 'I';
constexpr std::uint8_t kOpRead = 'R';
constexpr std::uint8_t kOpError = 'E';
constexpr unsigned kStatusFixedBytes = 13;  // after the response byte, before the per-node fields

void put_le(std::vector<std::uint8_t>& out, std::uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

}  // namespace

HostLinkClient::HostLinkClient(ByteLink& link) : link_(link) {
  const LinkStatus s = status();
  nodes_ = static_cast<unsigned>(s.nodes.size());
  word_bytes_ = s.word_bytes;
  max_words_ = s.max_words;
  if (word_bytes_ != 4 && word_bytes_ != 8) {
    throw HostLinkError(fmt::format("the board reports {} bytes per word; the protocol has 4 or 8", word_bytes_));
  }
}

std::uint8_t HostLinkClient::next() {
  const std::optional<std::uint8_t> byte = link_.read_byte();
  if (!byte) throw HostLinkError("the board did not answer in time");
  return *byte;
}

std::uint64_t HostLinkClient::next_le(unsigned bytes) {
  std::uint64_t value = 0;
  for (unsigned i = 0; i < bytes; ++i) value |= static_cast<std::uint64_t>(next()) << (8 * i);
  return value;
}

void HostLinkClient::expect(std::uint8_t want, const char* what) {
  const std::uint8_t got = next();
  if (got == kOpError) {
    throw HostLinkError(fmt::format("the board did not know the command byte 0x{:02x} ({})", next(), what));
  }
  if (got != want) throw HostLinkError(fmt::format("{}: answer byte 0x{:02x}, expected 0x{:02x}", what, got, want));
}

LinkStatus HostLinkClient::status() {
  link_.write({kOpStatus});
  expect(kOpStatus, "status");
  LinkStatus s;
  s.cycle = static_cast<std::uint32_t>(next_le(4));
  s.late = static_cast<std::uint16_t>(next_le(2));
  s.stalls = static_cast<std::uint16_t>(next_le(2));
  s.link_errors = next();
  s.word_bytes = next();
  const unsigned nodes = next();
  s.max_words = next();
  s.log_depth = next();
  static_assert(kStatusFixedBytes == 4 + 2 + 2 + 1 + 4);
  s.nodes.resize(nodes);
  for (LinkStatus::Node& n : s.nodes) {
    n.errors = next();
    n.free = next();
    n.queued = next();
    n.logged = next();
  }
  return s;
}

InjectAnswer HostLinkClient::inject(unsigned node, std::uint32_t start_cycle, const std::vector<std::uint64_t>& words) {
  if (node > 255 || words.size() > 255) {
    throw std::invalid_argument(fmt::format("inject: node {} or {} words do not fit a byte", node, words.size()));
  }
  std::vector<std::uint8_t> out{kOpInject, static_cast<std::uint8_t>(node)};
  put_le(out, start_cycle, 4);
  out.push_back(static_cast<std::uint8_t>(words.size()));
  for (std::uint64_t w : words) put_le(out, w, word_bytes_);
  link_.write(out);
  expect(kOpInject, "inject");
  if (next() != node) throw HostLinkError("inject: the answer names another node");
  InjectAnswer a;
  a.code = static_cast<InjectCode>(next());
  a.free = next();
  return a;
}

std::vector<FlitRecord> HostLinkClient::read(unsigned node, unsigned max) {
  link_.write({kOpRead, static_cast<std::uint8_t>(node), static_cast<std::uint8_t>(max)});
  expect(kOpRead, "read");
  if (next() != node) throw HostLinkError("read: the answer names another node");
  const unsigned k = next();
  if (k > max) throw HostLinkError(fmt::format("read: {} records for a maximum of {}", k, max));
  std::vector<FlitRecord> records(k);
  for (FlitRecord& r : records) {
    const std::uint8_t flags = next();
    r.stream = flags & 0x1fu;
    r.head = (flags >> 5) & 1u;
    r.addr = (flags >> 6) & 1u;
    r.last = (flags >> 7) & 1u;
    r.word = next_le(word_bytes_);
    r.cycle = static_cast<std::uint32_t>(next_le(4));
  }
  return records;
}

std::vector<LinkDelivery> HostLinkClient::collect(unsigned node) {
  std::vector<LinkDelivery> done;
  for (;;) {
    const std::vector<FlitRecord> records = read(node);
    for (const FlitRecord& r : records) {
      const auto key = std::make_pair(node, r.stream);
      auto it = partial_.find(key);
      if (r.head == (it != partial_.end())) {
        throw HostLinkError(fmt::format("node {} stream {}: a {} flit {} a message", node, r.stream,
                                        r.head ? "head" : "body", r.head ? "inside" : "outside"));
      }
      if (r.head) it = partial_.emplace(key, LinkDelivery{node, r.stream, {}, 0}).first;
      it->second.words.push_back(r.word);
      if (r.last) {
        it->second.cycle = r.cycle;
        done.push_back(std::move(it->second));
        partial_.erase(it);
      }
    }
    if (records.size() < 255) return done;
  }
}

}  // namespace wormcast::sim
