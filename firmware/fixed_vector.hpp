// SPDX-License-Identifier: Apache-2.0
// A vector with a fixed capacity and no heap: the firmware's only container. Freestanding (only
// <cstddef>), no exceptions: push_back on a full vector returns false and changes nothing.
#pragma once

#include <cstddef>

namespace wormcast::fw {

template <class T, std::size_t N>
class FixedVector {
 public:
  static constexpr std::size_t capacity() { return N; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr bool full() const { return size_ == N; }
  constexpr void clear() { size_ = 0; }
  // Keeps the first n items (no change when n >= size()).
  constexpr void truncate(std::size_t n) {
    if (n < size_) size_ = n;
  }

  // Appends `value`; false (and no change) when full.
  constexpr bool push_back(const T& value) {
    if (size_ == N) return false;
    items_[size_++] = value;
    return true;
  }

  // Precondition: i < size() (the firmware checks indices before it reads).
  constexpr T& operator[](std::size_t i) { return items_[i]; }
  constexpr const T& operator[](std::size_t i) const { return items_[i]; }
  constexpr T* begin() { return items_; }
  constexpr T* end() { return items_ + size_; }
  constexpr const T* begin() const { return items_; }
  constexpr const T* end() const { return items_ + size_; }

 private:
  T items_[N]{};
  std::size_t size_ = 0;
};

}  // namespace wormcast::fw
