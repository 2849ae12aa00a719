// SPDX-License-Identifier: Apache-2.0
// A libFuzzer harness without libFuzzer: runs LLVMFuzzerTestOneInput once on every file named on
// the command line, or in a folder named there (make test's Fuzz.*_SeedCorpusReplay tests, on the
// seed corpus of verif/fuzz/corpus/<target>/). The harness aborts on a broken property, as under
// libFuzzer; an escaping exception ends the program through std::terminate. Prints the number of
// inputs replayed; exit 2 for a path that is not there.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// Defined by the harnesses that need a setup (command_line_fuzzer.cpp); weak, so the others link.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

std::vector<std::filesystem::path> inputs_of(const std::filesystem::path& path) {
  if (!std::filesystem::is_directory(path)) return {path};
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(path))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path = std::filesystem::absolute(argv[i]);
    if (!std::filesystem::exists(path)) {
      std::fprintf(stderr, "replay: '%s' does not exist; give seed-corpus files or folders\n", argv[i]);
      return 2;
    }
    for (const auto& file : inputs_of(path)) files.push_back(file);
  }
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("replayed %zu inputs\n", files.size());
  return 0;
}
