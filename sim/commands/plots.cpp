// SPDX-License-Identifier: Apache-2.0
// The traffic sweep's plots (`sweep --backend`, `merge --plots`): the plot script beside the binary,
// run by Debian's python3.
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "sim/commands/command.hpp"

namespace wormcast::sim::commands {

// The plot script, found from the running binary: <bindir>/../share/wormcast/plot_traffic.py, the
// layout of `cmake --install` and of the build tree (sim/CMakeLists.txt copies it there).
std::filesystem::path plot_script() {
  std::error_code error;
  const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    throw CommandError(fmt::format("cannot find the plot script: /proc/self/exe does not name the wormcast binary ({})",
                                   error.message()));
  }
  const std::filesystem::path script =
      (binary.parent_path() / ".." / "share" / "wormcast" / "plot_traffic.py").lexically_normal();
  if (!std::filesystem::is_regular_file(script)) {
    throw CommandError(fmt::format(
        "the plot script {} is missing (wormcast looks for it in ../share/wormcast/ beside its binary {}, where "
        "cmake --build and cmake --install put it)",
        script.string(), binary.string()));
  }
  return script;
}

void draw_plots(const std::filesystem::path& script, const std::string& csv_file, const std::string& out) {
  const std::string plot = fmt::format("'{}' '{}' '{}' '{}'", WORMCAST_PYTHON, script.string(), csv_file, out);
  if (std::system(plot.c_str()) != 0) {
    throw CommandError(
        fmt::format("plots not drawn ({} failed; scripts/ensure-deps.sh installs python3-matplotlib)", plot));
  }
  fmt::print("wrote the plots to {}/\n", out);
}

}  // namespace wormcast::sim::commands
