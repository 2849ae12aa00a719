// SPDX-License-Identifier: Apache-2.0
// The network-interface (NI) API: everything the node firmware can do to the outside world
// (docs/firmware.md, "The NI API"). The harness implements it over a router's local channels; a
// real node would implement it over its NI registers and DMA rings.
//
// Receiving is interrupt style: the NI depacketizes a whole message, charges the receive start-up
// and then calls NodeFirmware::on_message_received; it calls NodeFirmware::on_channel_free when a
// send queue that was full has room again.
#pragma once

#include <cstdint>

#include "firmware/message.hpp"
#include "firmware/noc_wire_format.hpp"

namespace wormcast::fw {

// A worm's header flits as the NI takes them: flit(0) the head (packed by wire::pack_head, its
// `more` = count() - 1), then the address flits (head bit 0). The firmware generates them on
// demand from what it already holds (a path worm's address flits from its destination list, a
// source route from its route), so no header is ever laid out in a table of its own. The NI asks
// for flits 0 .. count() - 1 in order, each once, inside its send call.
class HeaderFlits {
 public:
  virtual std::uint32_t count() const = 0;
  virtual std::uint64_t flit(std::uint32_t i) const = 0;

 protected:
  ~HeaderFlits() = default;
};

// Header flits the firmware packed into a buffer (a head, a prefixed head, a short source route).
class PackedHeader final : public HeaderFlits {
 public:
  PackedHeader(const std::uint64_t* flits, std::uint32_t count) : flits_(flits), count_(count) {}
  std::uint32_t count() const override { return count_; }
  std::uint64_t flit(std::uint32_t i) const override { return flits_[i]; }

 private:
  const std::uint64_t* flits_;
  std::uint32_t count_;
};

// A message's address field as the NI takes it: count() 32-bit entries, entry(i) asked in order.
// Usually a span of one of the firmware's lists (ListedEntries); a whole layer's 3-DBL column worm
// generates its node ids instead (firmware/path_multicast.cpp).
class AddressEntries {
 public:
  virtual std::uint32_t count() const = 0;
  virtual std::uint32_t entry(std::uint32_t i) const = 0;

 protected:
  ~AddressEntries() = default;
};

// Entries that lie in memory: a real NI gathers them with its DMA (two per word, low half first is
// their little-endian memory image).
class ListedEntries final : public AddressEntries {
 public:
  ListedEntries(const std::uint32_t* entries, std::uint32_t count) : entries_(entries), count_(count) {}
  std::uint32_t count() const override { return count_; }
  std::uint32_t entry(std::uint32_t i) const override { return entries_[i]; }

 private:
  const std::uint32_t* entries_;
  std::uint32_t count_;
};

// One message as the NI takes it: the header flits, then the payload (firmware/message.hpp): the
// control words, the address field, the application data (the application's words at a source,
// the job's relay buffer at a relay), each from where it lies or is generated. A real NI streams
// the spans with a gather DMA; the harness's NI copies everything before send returns.
struct OutgoingWorm {
  const HeaderFlits* header = nullptr;
  const std::uint64_t* control = nullptr;
  std::uint32_t control_words = 0;
  const AddressEntries* address = nullptr;  // none: no address field
  const std::uint64_t* data = nullptr;
  std::uint32_t data_words = 0;

  std::uint32_t entries() const { return address == nullptr ? 0 : address->count(); }
  std::uint32_t payload_words() const { return control_words + address_words(entries()) + data_words; }
  // Payload word i (i < payload_words()).
  std::uint64_t payload_word(std::uint32_t i) const {
    if (i < control_words) return control[i];
    i -= control_words;
    const std::uint32_t n = entries();
    if (i < address_words(n)) {
      const std::uint64_t high = 2 * i + 1 < n ? std::uint64_t{address->entry(2 * i + 1)} << 32 : 0;
      return std::uint64_t{address->entry(2 * i)} | high;
    }
    return data[i - address_words(n)];
  }
  // The header and the spans are present (a span of zero words may be null).
  bool well_formed() const {
    return header != nullptr && header->count() > 0 && (control_words == 0 || control != nullptr) &&
           (data_words == 0 || data != nullptr);
  }
};

class NetworkInterface {
 public:
  // Local channel pairs of this node (injection k and ejection k).
  virtual unsigned channels() const = 0;
  // Channel k's send queue takes one more message.
  virtual bool can_send(unsigned channel) const = 0;
  // Queues one message on channel k: its header flits, then its payload, the last flit the tail.
  // False, and nothing queued, when the queue is full, the channel does not exist or the header
  // does not hold together (the head's `more` is not count() - 1).
  virtual bool send(unsigned channel, const OutgoingWorm& worm) = 0;
  // Hands the data of multicast `multicast` to this node's application: the node is a destination.
  virtual void deliver(std::uint32_t multicast, const std::uint64_t* data, std::uint32_t words) = 0;
  // The current cycle of the network clock.
  virtual std::uint64_t cycle() const = 0;

 protected:
  ~NetworkInterface() = default;
};

}  // namespace wormcast::fw
