// SPDX-License-Identifier: Apache-2.0
// The sends every algorithm shares: head fields, payload layout (firmware/message.hpp), the NI call.
#include "firmware/node_context.hpp"

#include "firmware/algorithm_table.hpp"
#include "firmware/job.hpp"

namespace wormcast::fw {

wire::HeadFields NodeContext::head() const {
  wire::HeadFields h;
  h.src = config.node;
  h.tag = static_cast<std::uint8_t>(sequence & 0xF);
  return h;
}

wire::HeadFields NodeContext::dimension_order_head(std::uint32_t receiver) const {
  const Grid& g = config.grid;
  wire::HeadFields h = head();
  h.mode = wire::Mode::kDimensionOrder;
  h.dest = wire::pack_coord_dest({static_cast<std::uint8_t>(g.coord(receiver, 0)),
                                  static_cast<std::uint8_t>(g.coord(receiver, 1)),
                                  static_cast<std::uint8_t>(g.coord(receiver, 2))});
  return h;
}

bool NodeContext::put_head(std::uint32_t flit, const wire::HeadFields& h) {
  if (!wire::fits(h)) return false;
  header[flit] = wire::pack_head(h);
  return true;
}

void NodeContext::put_address_flit(std::uint32_t flit, const wire::HeadFields& h, std::uint32_t dest, std::uint32_t k) {
  header[flit] = wire::pack_addr_flit(h, dest, k);
}

void NodeContext::deliver(const Received& m) const { ni->deliver(m.info.multicast, m.data, m.info.data_words); }

void NodeContext::deliver(std::uint16_t multicast, const std::uint64_t* data, std::uint32_t words) const {
  ni->deliver(multicast, data, words);
}

bool NodeContext::send(const Job& job, unsigned channel, const HeaderFlits& flits, MessageInfo info,
                       const AddressEntries& address) {
  return transmit(job, channel, flits, info, address, job.data, job.words);
}

bool NodeContext::send(const Job& job, unsigned channel, std::uint32_t flits, MessageInfo info,
                       const std::uint32_t* address, std::uint32_t entries) {
  return transmit(job, channel, PackedHeader(header, flits), info, ListedEntries(address, entries), job.data,
                  job.words);
}

bool NodeContext::send_part(const Job& job, unsigned channel, std::uint32_t flits, MessageInfo info,
                            const std::uint64_t* data, std::uint32_t words) {
  return transmit(job, channel, PackedHeader(header, flits), info, ListedEntries(nullptr, 0), data, words);
}

bool NodeContext::transmit(const Job& job, unsigned channel, const HeaderFlits& flits, MessageInfo info,
                           const AddressEntries& address, const std::uint64_t* data, std::uint32_t words) {
  if (!ni->can_send(channel) || address.count() > kMaxAddressEntries) return false;
  info.multicast = job.multicast;
  info.address_entries = static_cast<std::uint16_t>(address.count());
  info.data_words = static_cast<std::uint16_t>(words);
  info.step = static_cast<std::uint8_t>(job.step);
  info.algorithm = job.row->id;
  info.ports = job.ports;
  info.all_port = job.all_port;
  info.origin = job.origin;
  info.sequence = sequence;
  encode_control(info, control);
  OutgoingWorm worm;
  worm.header = &flits;
  worm.control = control;
  worm.control_words = kControlWords;
  worm.address = &address;
  worm.data = data;
  worm.data_words = words;
  if (!ni->send(channel, worm)) return false;
  sequence = (sequence + 1) & 0xFFFFF;
  return true;
}

}  // namespace wormcast::fw
