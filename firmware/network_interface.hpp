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

#include "firmware/noc_wire_format.hpp"

namespace wormcast::fw {

class NetworkInterface {
 public:
  // Local channel pairs of this node (injection k and ejection k).
  virtual unsigned channels() const = 0;
  // Channel k's send queue takes one more message.
  virtual bool can_send(unsigned channel) const = 0;
  // Queues one message on channel k: `header_flits` header flits (header[0] the head, packed by
  // wire::pack_head, whose `more` is header_flits - 1; then the address flits, head bit 0), then
  // the payload: `prefix_words` words from `prefix` (the control words and the address field),
  // then `data_words` words from `data` (the application data), the last flit the tail. The data
  // is gathered from where it lies (the application's words at a source, the relay buffer at a
  // relay), never assembled into one buffer by the firmware: a real NI streams it with a gather
  // DMA; the harness's NI copies everything before it returns. False, and nothing queued, when the
  // queue is full, the channel does not exist or the header does not hold together.
  virtual bool send(unsigned channel, const std::uint64_t* header, std::uint32_t header_flits,
                    const std::uint64_t* prefix, std::uint32_t prefix_words, const std::uint64_t* data,
                    std::uint32_t data_words) = 0;
  // Hands the data of multicast `multicast` to this node's application: the node is a destination.
  virtual void deliver(std::uint32_t multicast, const std::uint64_t* data, std::uint32_t words) = 0;
  // The current cycle of the network clock.
  virtual std::uint64_t cycle() const = 0;

 protected:
  ~NetworkInterface() = default;
};

}  // namespace wormcast::fw
