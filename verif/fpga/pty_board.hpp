// SPDX-License-Identifier: Apache-2.0
// A simulated board behind a pseudo-terminal: the verilated top with the host link runs in a thread
// of its own, clocked without pause like a real board, its UART pins joined through the UART pin
// model to the pty's master side; the host opens the pty's other side as its serial port
// (sim::SerialLink), as it would open the board's FTDI port.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "sim/simulated_board.hpp"

namespace wormcast::verif::fpga {

template <class Model>
class PtyBoard {
 public:
  // `divisor`: the board's cycles per UART bit; `cycles_per_poll`: board cycles between looks at
  // the pty.
  PtyBoard(unsigned divisor, unsigned cycles_per_poll) {
    master_ = ::posix_openpt(O_RDWR | O_NOCTTY);
    if (master_ < 0 || ::grantpt(master_) != 0 || ::unlockpt(master_) != 0) {
      throw std::runtime_error("cannot open a pseudo-terminal pair");
    }
    const char* name = ::ptsname(master_);
    if (name == nullptr) throw std::runtime_error("the pseudo-terminal has no name");
    path_ = name;
    thread_ = std::thread([this, divisor, cycles_per_poll] { run(divisor, cycles_per_poll); });
  }
  ~PtyBoard() {
    stop_ = true;
    thread_.join();
    ::close(master_);
  }
  PtyBoard(const PtyBoard&) = delete;
  PtyBoard& operator=(const PtyBoard&) = delete;

  // The serial port the host opens.
  const std::string& path() const { return path_; }
  std::uint64_t cycles() const { return cycles_; }
  bool assertion_failed() const { return assertion_failed_; }

 private:
  void run(unsigned divisor, unsigned cycles_per_poll) {
    sim::SimulatedBoard<Model> board(divisor, 0);
    board.run(64);  // past the reset hold: a byte that starts in reset is not received
    std::vector<std::uint8_t> in(256), out;
    while (!stop_) {
      pollfd p{master_, POLLIN, 0};
      // EIO until the host has opened the other side: nothing to read yet.
      if (::poll(&p, 1, 0) > 0 && (p.revents & POLLIN) != 0) {
        const ssize_t n = ::read(master_, in.data(), in.size());
        if (n > 0) board.write(std::vector<std::uint8_t>(in.begin(), in.begin() + n));
      }
      board.run(cycles_per_poll);
      out.clear();
      while (auto byte = board.arrived_byte()) out.push_back(*byte);
      for (std::size_t done = 0; done < out.size();) {
        const ssize_t n = ::write(master_, out.data() + done, out.size() - done);
        if (n < 0 && errno != EINTR && errno != EAGAIN) break;
        if (n > 0) done += static_cast<std::size_t>(n);
      }
      cycles_ = board.cycles();
    }
    assertion_failed_ = board.assertion_failed();
  }

  int master_ = -1;
  std::string path_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> cycles_{0};
  std::atomic<bool> assertion_failed_{false};
  std::thread thread_;
};

}  // namespace wormcast::verif::fpga
