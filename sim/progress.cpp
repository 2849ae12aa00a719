// SPDX-License-Identifier: Apache-2.0
#include "sim/progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace wormcast::sim {

Progress::Progress(std::string what, std::size_t total, double interval_seconds, Clock clock, Sink sink)
    : what_(std::move(what)),
      total_(total),
      interval_(interval_seconds),
      clock_(std::move(clock)),
      sink_(std::move(sink)) {
  if (!clock_) {
    clock_ = [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); };
  }
  if (!sink_) {
    sink_ = [](const std::string& text) {
      std::fprintf(stderr, "%s\n", text.c_str());
      std::fflush(stderr);
    };
  }
  start_ = last_ = clock_();
}

void Progress::point_done() {
  const std::lock_guard lock(mutex_);
  ++done_;
  const double now = clock_();
  // The last point prints only when an earlier line did: a short run stays silent.
  const bool printed_before = last_ > start_;
  if (now - last_ >= interval_ || (done_ == total_ && printed_before)) {
    last_ = now;
    sink_(line(done_, now - start_));
  }
}

std::string Progress::line(std::size_t done, double elapsed) const {
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  const double percent = total_ == 0 ? 100.0 : 100.0 * static_cast<double>(done) / static_cast<double>(total_);
  const std::string left =
      done >= total_ ? "done"
      : rate > 0     ? fmt::format("about {} left", format_duration(static_cast<double>(total_ - done) / rate))
                     : "time left unknown";
  // Points per minute once a point takes longer than a second, so the figure keeps its digits.
  const std::string speed =
      rate >= 1 ? fmt::format("{:.2f} points/s", rate) : fmt::format("{:.2f} points/min", rate * 60);
  return fmt::format("{}: {}/{} points ({:.1f} %), {}, {} ({} so far)", what_, done, total_, percent, speed, left,
                     format_duration(elapsed));
}

std::string format_duration(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  if (s < 60) return fmt::format("{} s", s);
  if (s < 3600) return fmt::format("{} min {:02} s", s / 60, s % 60);
  return fmt::format("{} h {:02} min", s / 3600, (s % 3600) / 60);
}

}  // namespace wormcast::sim
