// SPDX-License-Identifier: Apache-2.0
// The host link over a serial port (docs/host-link.md): a ByteLink on a tty device,
// raw 8N1 at the board's baud rate, no flow control; a read waits up to a timeout.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/host_link_client.hpp"

namespace wormcast::sim {

class SerialLink final : public ByteLink {
 public:
  // Opens `device` (a /dev/tty* serial port or a pseudo-terminal) at `baud`, one of the standard
  // rates 9600..921600. Throws std::invalid_argument naming an unsupported rate, and
  // std::runtime_error naming the device and the system's error when it cannot be opened or set.
  SerialLink(const std::string& device, unsigned baud, std::chrono::milliseconds timeout);
  ~SerialLink() override;
  SerialLink(const SerialLink&) = delete;
  SerialLink& operator=(const SerialLink&) = delete;

  void write(const std::vector<std::uint8_t>& bytes) override;
  std::optional<std::uint8_t> read_byte() override;

 private:
  std::string device_;
  int fd_ = -1;
  std::chrono::milliseconds timeout_;
};

}  // namespace wormcast::sim
