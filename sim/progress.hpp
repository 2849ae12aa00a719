// SPDX-License-Identifier: Apache-2.0
// Progress of a long run on stderr (the sweeps): points done of the total, the rate and the time
// left at that rate. Silent for runs shorter than its interval, so a quick sweep prints nothing
// extra; then a line at most every interval (lines, not a redrawn line, so that a CI or Slurm log
// keeps them), and a last line at the end of a run that printed any.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>

namespace wormcast::sim {

class Progress {
 public:
  using Clock = std::function<double()>;  // seconds since any fixed instant
  using Sink = std::function<void(const std::string& line)>;

  // `what` names the run in each line ("sweep shard 1/4"); `total` points. The clock and the sink
  // default to the steady clock and stderr; tests give their own.
  Progress(std::string what, std::size_t total, double interval_seconds = 10.0, Clock clock = {}, Sink sink = {});

  // One more point done; prints a line when the interval has passed since the last one (or since
  // the start). Safe to call from several threads.
  void point_done();

  // The line for `done` points after `elapsed` seconds:
  // "sweep: 12/38 points (31.6 %), 0.85 points/s, about 31 s left (14.1 s so far)".
  std::string line(std::size_t done, double elapsed) const;

 private:
  std::string what_;
  std::size_t total_;
  double interval_;
  Clock clock_;
  Sink sink_;
  std::mutex mutex_;
  std::size_t done_ = 0;
  double start_ = 0;
  double last_ = 0;
};

// "14 s", "3 min 05 s", "2 h 07 min".
std::string format_duration(double seconds);

}  // namespace wormcast::sim
