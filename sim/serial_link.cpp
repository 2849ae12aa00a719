// SPDX-License-Identifier: Apache-2.0
#include "sim/serial_link.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace wormcast::sim {
namespace {

speed_t speed_of(unsigned baud) {
  switch (baud) {
    case 9600:
      return B9600;
    case 19200:
      return B19200;
    case 38400:
      return B38400;
    case 57600:
      return B57600;
    case 115200:
      return B115200;
    case 230400:
      return B230400;
    case 460800:
      return B460800;
    case 921600:
      return B921600;
    default:
      throw std::invalid_argument(
          fmt::format("baud rate {} is not one of 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600", baud));
  }
}

}  // namespace

SerialLink::SerialLink(const std::string& device, unsigned baud, std::chrono::milliseconds timeout)
    : device_(device), timeout_(timeout) {
  const speed_t speed = speed_of(baud);
  fd_ = ::open(device.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd_ < 0) throw std::runtime_error(fmt::format("cannot open serial port '{}': {}", device, std::strerror(errno)));
  termios tio{};
  if (::tcgetattr(fd_, &tio) != 0) {
    const int err = errno;
    ::close(fd_);
    throw std::runtime_error(fmt::format("'{}' is not a serial port: {}", device, std::strerror(err)));
  }
  ::cfmakeraw(&tio);  // 8 data bits, no parity, no echo, no line editing
  tio.c_cflag &= ~static_cast<tcflag_t>(CSTOPB | CRTSCTS);
  tio.c_cflag |= CLOCAL | CREAD;
  tio.c_iflag &= ~static_cast<tcflag_t>(IXON | IXOFF | IXANY);
  tio.c_cc[VMIN] = 0;
  tio.c_cc[VTIME] = 0;
  ::cfsetispeed(&tio, speed);
  ::cfsetospeed(&tio, speed);
  if (::tcsetattr(fd_, TCSANOW, &tio) != 0) {
    const int err = errno;
    ::close(fd_);
    throw std::runtime_error(fmt::format("cannot set '{}' to {} baud 8N1: {}", device, baud, std::strerror(err)));
  }
}

SerialLink::~SerialLink() {
  if (fd_ >= 0) ::close(fd_);
}

void SerialLink::write(const std::vector<std::uint8_t>& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw HostLinkError(fmt::format("writing to '{}': {}", device_, std::strerror(errno)));
    done += static_cast<std::size_t>(n);
  }
}

std::optional<std::uint8_t> SerialLink::read_byte() {
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() < 0) return std::nullopt;
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) throw HostLinkError(fmt::format("waiting for '{}': {}", device_, std::strerror(errno)));
    if (ready == 0) return std::nullopt;
    std::uint8_t byte = 0;
    const ssize_t n = ::read(fd_, &byte, 1);
    if (n == 1) return byte;
    if (n < 0 && errno != EINTR && errno != EAGAIN) {
      throw HostLinkError(fmt::format("reading '{}': {}", device_, std::strerror(errno)));
    }
  }
}

}  // namespace wormcast::sim
