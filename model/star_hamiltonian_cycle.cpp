// SPDX-License-Identifier: Apache-2.0
#include "model/star_hamiltonian_cycle.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "model/errors.hpp"

namespace wormcast::model {
namespace {

int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

// Depth-first search for a Hamiltonian path of the sub-star whose first k positions are free,
// from `from` to `to`. With keep_blocks (k = 4), S3 blocks (same symbol in position 4) must be
// visited contiguously.
class SubStarPathSearch {
 public:
  SubStarPathSearch(int n, int k, bool keep_blocks) : n_(n), k_(k), keep_blocks_(keep_blocks) {}

  bool run(const Permutation& from, const Permutation& to, std::vector<Permutation>& path) {
    target_ = to;
    path_ = {from};
    visited_ = {from};
    if (!extend()) return false;
    path = path_;
    return true;
  }

 private:
  int unvisited_neighbours(const Permutation& p) const {
    int count = 0;
    for (int i = 2; i <= k_; ++i) count += visited_.count(apply_generator(p, n_, i)) == 0 ? 1 : 0;
    return count;
  }

  bool extend() {
    const Permutation& here = path_.back();
    if (static_cast<int>(path_.size()) == factorial(k_)) return here == target_;
    if (here == target_) return false;
    std::vector<int> generators;
    if (keep_blocks_ && path_.size() % static_cast<std::size_t>(factorial(k_ - 1)) == 0) {
      generators = {k_};
    } else {
      for (int i = 2; i <= (keep_blocks_ ? k_ - 1 : k_); ++i) generators.push_back(i);
    }
    std::vector<Permutation> candidates;
    for (int i : generators) {
      const Permutation next = apply_generator(here, n_, i);
      if (visited_.count(next) == 0) candidates.push_back(next);
    }
    std::stable_sort(candidates.begin(), candidates.end(), [this](const Permutation& a, const Permutation& b) {
      return unvisited_neighbours(a) < unvisited_neighbours(b);
    });
    for (const Permutation& next : candidates) {
      path_.push_back(next);
      visited_.insert(next);
      if (extend()) return true;
      path_.pop_back();
      visited_.erase(next);
    }
    return false;
  }

  int n_;
  int k_;
  bool keep_blocks_;
  Permutation target_{};
  std::vector<Permutation> path_;
  std::set<Permutation> visited_;
};

// Appends a Hamiltonian path of the sub-star with k free positions from `from` to `to`.
void append_hamiltonian_path(int n, int k, const Permutation& from, const Permutation& to,
                             std::vector<Permutation>& out) {
  const auto pos = [](int i) { return static_cast<std::size_t>(i); };
  if (k <= 4) {
    std::vector<Permutation> piece;
    const bool found = (k == 4 && SubStarPathSearch(n, k, true).run(from, to, piece)) ||
                       SubStarPathSearch(n, k, false).run(from, to, piece);
    if (!found) throw TopologyError(fmt::format("no Hamiltonian path in an S{} sub-star of S{}", k, n));
    out.insert(out.end(), piece.begin(), piece.end());
    return;
  }
  const int first_block = from[pos(k - 1)];
  const int last_block = to[pos(k - 1)];
  std::vector<int> order = {first_block};
  std::vector<int> free_symbols;
  for (int i = 0; i < k; ++i) free_symbols.push_back(from[pos(i)]);
  std::sort(free_symbols.begin(), free_symbols.end());
  for (int s : free_symbols) {
    if (s != first_block && s != last_block) order.push_back(s);
  }
  order.push_back(last_block);

  Permutation entry = from;
  for (std::size_t b = 0; b + 1 < order.size(); ++b) {
    const int here = order[b];
    const int next = order[b + 1];
    std::vector<int> middle;
    for (int s : free_symbols) {
      if (s != here && s != next) middle.push_back(s);
    }
    bool chosen = false;
    Permutation exit = from;
    do {
      exit[0] = static_cast<std::uint8_t>(next);
      for (std::size_t i = 0; i < middle.size(); ++i) exit[i + 1] = static_cast<std::uint8_t>(middle[i]);
      exit[pos(k - 1)] = static_cast<std::uint8_t>(here);
      chosen = exit != entry && exit[pos(k - 2)] != entry[pos(k - 2)] &&
               permutation_parity(exit, n) != permutation_parity(entry, n);
    } while (!chosen && std::next_permutation(middle.begin(), middle.end()));
    append_hamiltonian_path(n, k - 1, entry, exit, out);
    entry = apply_generator(exit, n, k);
  }
  append_hamiltonian_path(n, k - 1, entry, to, out);
}

}  // namespace

std::vector<Permutation> star_hamiltonian_cycle(int n) {
  if (n < kMinStarOrder || n > kMaxStarOrder) {
    throw TopologyError(
        fmt::format("star graph S{} is not supported; n must be {}..{}", n, kMinStarOrder, kMaxStarOrder));
  }
  const Permutation identity = permutation_unrank(0, n);
  std::vector<Permutation> cycle;
  append_hamiltonian_path(n, n, identity, apply_generator(identity, n, n), cycle);
  return cycle;
}

}  // namespace wormcast::model
