// SPDX-License-Identifier: Apache-2.0
// A waveform of the whole network (`wormcast run --trace FILE.fst`): every router's ports, clock
// edge by clock edge, as the harness drives and reads them, in one FST file written with the FST
// library Verilator ships (docs/run.md, "Waveforms"). The routers stay the untraced variants:
// a run without --trace does not touch this code.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/rtl_router.hpp"

namespace wormcast::sim {

class NetworkWaveform {
 public:
  // Opens `path`. Throws model::RequestError naming it when it does not end in .fst or cannot be
  // written.
  explicit NetworkWaveform(const std::string& path);
  ~NetworkWaveform();
  NetworkWaveform(const NetworkWaveform&) = delete;
  NetworkWaveform& operator=(const NetworkWaveform&) = delete;

  // `router` behind a wrapper that records its ports under the scope `name` at each rising clock
  // edge: the registered outputs it shows and the inputs it samples there. Every router must be
  // wrapped before the first edge. Time t in the file is the t-th rising edge (0: the reset edge).
  std::unique_ptr<RouterModel> record(std::unique_ptr<RouterModel> router, const std::string& name);

  // Writes the file out; later edges are not recorded. The destructor closes too.
  void close();

 private:
  friend class RecordedRouter;
  // Moves the file's time to `edge` (monotonic).
  void at_edge(std::uint64_t edge);
  std::uint32_t add_signal(unsigned width, const std::string& name);
  // `bits`: one '0'/'1' per bit, most significant first.
  void change(std::uint32_t handle, const std::string& bits);

  void* fst_ = nullptr;
  std::vector<std::string> last_;  // per signal handle - 1: the value written last
  std::uint64_t time_ = 0;
  bool started_ = false;
};

}  // namespace wormcast::sim
