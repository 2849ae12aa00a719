// SPDX-License-Identifier: Apache-2.0
// fst_summary FILE.fst [SIGNAL]: what a waveform holds, read with the FST reader Verilator ships
// (the check of `wormcast run --trace`; no GTKWave needed). Prints the end time, the scope and
// variable counts, the top-level scopes, the value changes in all, and those of the variables named
// SIGNAL (with any bit range). Exit 1 when the file does not open as FST.
#include <gtkwave/fstapi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>

namespace {

struct Counts {
  std::set<fstHandle> watched;  // handles of the variables named SIGNAL
  std::uint64_t changes = 0;
  std::uint64_t watched_changes = 0;
};

// A variable's name without its bit range: `in_valid_i` for `in_valid_i [4:0]`.
std::string base_name(const char* name) {
  const std::string s(name);
  return s.substr(0, s.find(" ["));
}

void on_change(void* user, std::uint64_t /*time*/, fstHandle handle, const unsigned char* /*value*/) {
  auto* counts = static_cast<Counts*>(user);
  ++counts->changes;
  if (counts->watched.count(handle) != 0) ++counts->watched_changes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: fst_summary FILE.fst [SIGNAL]\n");
    return 2;
  }
  void* fst = fstReaderOpen(argv[1]);
  if (fst == nullptr) {
    std::fprintf(stderr, "fst_summary: '%s' does not open as an FST waveform\n", argv[1]);
    return 1;
  }
  const std::string signal = argc == 3 ? argv[2] : "";
  Counts counts;
  std::string top_scopes;
  int top_scope_count = 0;
  int depth = 0;
  for (fstHier* h = fstReaderIterateHier(fst); h != nullptr; h = fstReaderIterateHier(fst)) {
    if (h->htyp == FST_HT_SCOPE) {
      if (depth == 0) {
        top_scopes += std::string(top_scope_count == 0 ? "" : " ") + h->u.scope.name;
        ++top_scope_count;
      }
      ++depth;
    } else if (h->htyp == FST_HT_UPSCOPE) {
      --depth;
    } else if (h->htyp == FST_HT_VAR && !signal.empty() && signal == base_name(h->u.var.name)) {
      counts.watched.insert(h->u.var.handle);
    }
  }
  std::printf("end time: %llu\n", static_cast<unsigned long long>(fstReaderGetEndTime(fst)));
  std::printf("scopes: %llu\n", static_cast<unsigned long long>(fstReaderGetScopeCount(fst)));
  std::printf("variables: %llu\n", static_cast<unsigned long long>(fstReaderGetVarCount(fst)));
  std::printf("top scopes (%d): %s\n", top_scope_count, top_scopes.c_str());
  fstReaderSetFacProcessMaskAll(fst);
  fstReaderIterBlocks(fst, on_change, &counts, nullptr);
  std::printf("value changes: %llu\n", static_cast<unsigned long long>(counts.changes));
  if (!signal.empty()) {
    std::printf("variables named %s: %zu, their changes: %llu\n", signal.c_str(), counts.watched.size(),
                static_cast<unsigned long long>(counts.watched_changes));
  }
  fstReaderClose(fst);
  return 0;
}
