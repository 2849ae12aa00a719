// SPDX-License-Identifier: Apache-2.0
// A stable counting sort for the planners' linear-time orderings (internal to the model).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace wormcast::model {

// Reorders `items` by key(item), an integer in [0, range), keeping the order of equal keys:
// O(items + range), no comparisons. Sorting by a secondary key first and then by the primary key
// orders by (primary, secondary).
template <typename T, typename Key>
void stable_counting_sort(std::vector<T>& items, std::size_t range, Key key) {
  std::vector<std::size_t> start(range + 1, 0);
  for (const T& item : items) ++start[static_cast<std::size_t>(key(item)) + 1];
  for (std::size_t k = 0; k < range; ++k) start[k + 1] += start[k];
  std::vector<T> sorted(items.size());
  for (T& item : items) sorted[start[static_cast<std::size_t>(key(item))]++] = std::move(item);
  items = std::move(sorted);
}

}  // namespace wormcast::model
