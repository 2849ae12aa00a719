// SPDX-License-Identifier: Apache-2.0
#include "model/topology.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "model/errors.hpp"

namespace wormcast::model {
namespace {

const char* kind_name(TopologyKind kind) {
  switch (kind) {
    case TopologyKind::kMesh:
      return "mesh";
    case TopologyKind::kTorus:
      return "torus";
    case TopologyKind::kStar:
      return "star";
  }
  return "?";
}

std::string join_sizes(const std::vector<int>& sizes) {
  std::string out;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (i > 0) out += 'x';
    out += std::to_string(sizes[i]);
  }
  return out;
}

// Parses a whole string as a signed decimal integer; false if anything else is there.
bool parse_int(std::string_view text, int& value) {
  if (text.empty()) return false;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(first, last, value);
  return ec == std::errc() && ptr == last;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

std::string permutation_text(const Permutation& perm, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += std::to_string(perm[static_cast<std::size_t>(i)]);
  return out;
}

}  // namespace

Permutation apply_generator(const Permutation& perm, int n, int i) {
  if (i < 2 || i > n) {
    throw TopologyError(fmt::format("star generator g{} does not exist in S{}; valid: g2..g{}", i, n, n));
  }
  Permutation out = perm;
  std::swap(out[0], out[static_cast<std::size_t>(i - 1)]);
  return out;
}

int permutation_parity(const Permutation& perm, int n) {
  int inversions = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (perm[static_cast<std::size_t>(i)] > perm[static_cast<std::size_t>(j)]) ++inversions;
    }
  }
  return inversions % 2;
}

NodeId permutation_rank(const Permutation& perm, int n) {
  // Lehmer code: for each position, how many later symbols are smaller.
  NodeId rank = 0;
  for (int i = 0; i < n; ++i) {
    int smaller_after = 0;
    for (int j = i + 1; j < n; ++j) {
      if (perm[static_cast<std::size_t>(j)] < perm[static_cast<std::size_t>(i)]) ++smaller_after;
    }
    rank += smaller_after * factorial(n - 1 - i);
  }
  return rank;
}

Permutation permutation_unrank(NodeId rank, int n) {
  Permutation out{};
  std::vector<std::uint8_t> symbols;
  for (int s = 1; s <= n; ++s) symbols.push_back(static_cast<std::uint8_t>(s));
  for (int i = 0; i < n; ++i) {
    const int block = factorial(n - 1 - i);
    const int index = rank / block;
    rank %= block;
    out[static_cast<std::size_t>(i)] = symbols[static_cast<std::size_t>(index)];
    symbols.erase(symbols.begin() + index);
  }
  return out;
}

Topology Topology::grid(TopologyKind kind, const std::vector<int>& sizes) {
  const char* name = kind_name(kind);
  if (sizes.size() != 2 && sizes.size() != 3) {
    throw TopologyError(fmt::format("a {} has 2 or 3 dimensions, not {} ({}:{}); write {}:8x8 or {}:4x4x4", name,
                                    sizes.size(), name, join_sizes(sizes), name, name));
  }
  Topology t;
  t.kind_ = kind;
  t.dimensions_ = static_cast<int>(sizes.size());
  long long nodes = 1;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] < kMinDimensionSize || sizes[d] > kMaxDimensionSize) {
      throw TopologyError(fmt::format("{}:{} has size {} in dimension {}; every dimension must be {}..{}", name,
                                      join_sizes(sizes), sizes[d], "XYZ"[d], kMinDimensionSize, kMaxDimensionSize));
    }
    t.sizes_[d] = sizes[d];
    nodes *= sizes[d];
  }
  if (nodes > kMaxNodes) {
    throw TopologyError(
        fmt::format("{}:{} has {} nodes; at most {} are supported", name, join_sizes(sizes), nodes, kMaxNodes));
  }
  t.node_count_ = static_cast<int>(nodes);
  t.port_count_ = 2 * t.dimensions_;
  return t;
}

Topology Topology::mesh(const std::vector<int>& sizes) { return grid(TopologyKind::kMesh, sizes); }

Topology Topology::torus(const std::vector<int>& sizes) { return grid(TopologyKind::kTorus, sizes); }

Topology Topology::star(int n) {
  if (n < kMinStarOrder || n > kMaxStarOrder) {
    throw TopologyError(
        fmt::format("star graph S{} is not supported; n must be {}..{}", n, kMinStarOrder, kMaxStarOrder));
  }
  Topology t;
  t.kind_ = TopologyKind::kStar;
  t.star_order_ = n;
  t.node_count_ = factorial(n);
  t.port_count_ = n - 1;
  return t;
}

Topology Topology::parse(std::string_view spec) {
  const auto valid = "valid specs look like mesh:8x8, torus:4x4, mesh:4x4x4, torus:5x5x5, star:4";
  const std::size_t colon = spec.find(':');
  if (colon == std::string_view::npos) {
    throw SpecError(fmt::format("topology spec '{}' has no ':'; {}", spec, valid));
  }
  const std::string_view kind = spec.substr(0, colon);
  const std::string_view body = spec.substr(colon + 1);
  if (kind == "star") {
    int n = 0;
    if (!parse_int(body, n)) {
      throw SpecError(fmt::format("star order '{}' in '{}' is not a number; {}", body, spec, valid));
    }
    return star(n);
  }
  if (kind != "mesh" && kind != "torus") {
    throw SpecError(fmt::format("topology kind '{}' in '{}' is unknown; kinds are mesh, torus, star", kind, spec));
  }
  std::vector<int> sizes;
  for (std::string_view part : split(body, 'x')) {
    int size = 0;
    if (!parse_int(part, size)) {
      throw SpecError(fmt::format("dimension '{}' in '{}' is not a number; {}", part, spec, valid));
    }
    sizes.push_back(size);
  }
  return kind == "mesh" ? mesh(sizes) : torus(sizes);
}

void Topology::throw_node_outside(NodeId node) const {
  throw NodeError(fmt::format("node id {} is outside {}; valid ids are 0..{}", node, spec(), node_count_ - 1));
}

void Topology::throw_port_outside(Port port) const {
  throw NodeError(fmt::format("port {} does not exist in {}; valid ports are 0..{}", port, spec(), port_count_ - 1));
}

int Topology::stride(int d) const {
  int s = 1;
  for (int i = 0; i < d; ++i) s *= sizes_[static_cast<std::size_t>(i)];
  return s;
}

Coord Topology::coord(NodeId node) const {
  check_node(node);
  if (is_star()) throw UnsupportedError(fmt::format("{} nodes are permutations, not coordinates", spec()));
  Coord c{};
  int rest = node;
  for (int d = 0; d < dimensions_; ++d) {
    c[static_cast<std::size_t>(d)] = rest % sizes_[static_cast<std::size_t>(d)];
    rest /= sizes_[static_cast<std::size_t>(d)];
  }
  return c;
}

NodeId Topology::node_at(const Coord& c) const {
  if (is_star()) throw UnsupportedError(fmt::format("{} nodes are permutations, not coordinates", spec()));
  NodeId node = 0;
  for (int d = dimensions_ - 1; d >= 0; --d) {
    const int v = c[static_cast<std::size_t>(d)];
    const int k = sizes_[static_cast<std::size_t>(d)];
    if (v < 0 || v >= k) {
      throw NodeError(
          fmt::format("coordinate {}={} is outside {}; valid {} are 0..{}", "xyz"[d], v, spec(), "xyz"[d], k - 1));
    }
    node = node * k + v;
  }
  for (int d = dimensions_; d < kMaxDimensions; ++d) {
    if (c[static_cast<std::size_t>(d)] != 0) {
      throw NodeError(fmt::format("{} has {} dimensions; coordinate {} must be 0", spec(), dimensions_, "xyz"[d]));
    }
  }
  return node;
}

Permutation Topology::permutation(NodeId node) const {
  check_node(node);
  if (!is_star()) throw UnsupportedError(fmt::format("{} nodes are coordinates, not permutations", spec()));
  return permutation_unrank(node, star_order_);
}

NodeId Topology::node_of(const Permutation& perm) const {
  if (!is_star()) throw UnsupportedError(fmt::format("{} nodes are coordinates, not permutations", spec()));
  std::array<bool, kMaxStarOrder + 1> seen{};
  for (int i = 0; i < star_order_; ++i) {
    const int s = perm[static_cast<std::size_t>(i)];
    if (s < 1 || s > star_order_ || seen[static_cast<std::size_t>(s)]) {
      throw NodeError(fmt::format("{} is not a permutation of 1..{}, so not a node of {}",
                                  permutation_text(perm, star_order_), star_order_, spec()));
    }
    seen[static_cast<std::size_t>(s)] = true;
  }
  return permutation_rank(perm, star_order_);
}

NodeId Topology::neighbour(NodeId node, Port port) const {
  check_node(node);
  check_port(port);
  if (is_star())
    return permutation_rank(apply_generator(permutation_unrank(node, star_order_), star_order_, port + 2), star_order_);
  // One step along dimension d changes the id by its stride; at the edge a mesh port leads nowhere
  // and a torus port wraps to the other end of the ring.
  const int d = dimension_of(port);
  const int k = sizes_[static_cast<std::size_t>(d)];
  const int step = stride(d);
  const int v = (node / step) % k;
  if (is_negative(port)) {
    if (v > 0) return node - step;
    return is_mesh() ? kNoNode : node + (k - 1) * step;
  }
  if (v < k - 1) return node + step;
  return is_mesh() ? kNoNode : node - (k - 1) * step;
}

Port Topology::port_towards(NodeId from, NodeId to) const {
  check_node(to);
  for (Port p = 0; p < port_count_; ++p) {
    if (neighbour(from, p) == to) return p;
  }
  return kNoPort;
}

bool Topology::is_wraparound(NodeId node, Port port) const {
  if (!is_torus()) return false;
  check_node(node);
  check_port(port);
  const int d = dimension_of(port);
  const int v = (node / stride(d)) % sizes_[static_cast<std::size_t>(d)];
  return is_negative(port) ? v == 0 : v == sizes_[static_cast<std::size_t>(d)] - 1;
}

int Topology::degree(NodeId node) const {
  int connected = 0;
  for (Port p = 0; p < port_count_; ++p) {
    if (neighbour(node, p) != kNoNode) ++connected;
  }
  return connected;
}

int Topology::distance(NodeId a, NodeId b) const {
  check_node(a);
  check_node(b);
  if (is_star()) {
    // Akers and Krishnamurthy: the distance of u to v is the number of swaps with the first
    // position that sort t = u^-1 o v. With m misplaced symbols and c cycles of length >= 2,
    // it is c + m if t fixes the first position, else c + m - 2.
    const int n = star_order_;
    const Permutation u = permutation(a);
    const Permutation v = permutation(b);
    std::array<int, kMaxStarOrder + 1> position_in_u{};
    for (int i = 0; i < n; ++i) position_in_u[u[static_cast<std::size_t>(i)]] = i;
    std::array<int, kMaxStarOrder> t{};
    for (int i = 0; i < n; ++i) t[static_cast<std::size_t>(i)] = position_in_u[v[static_cast<std::size_t>(i)]];
    int misplaced = 0;
    int cycles = 0;
    std::array<bool, kMaxStarOrder> visited{};
    for (int i = 0; i < n; ++i) {
      if (t[static_cast<std::size_t>(i)] == i || visited[static_cast<std::size_t>(i)]) continue;
      ++cycles;
      for (int j = i; !visited[static_cast<std::size_t>(j)]; j = t[static_cast<std::size_t>(j)]) {
        visited[static_cast<std::size_t>(j)] = true;
        ++misplaced;
      }
    }
    if (misplaced == 0) return 0;
    return t[0] == 0 ? cycles + misplaced : cycles + misplaced - 2;
  }
  const Coord ca = coord(a);
  const Coord cb = coord(b);
  int hops = 0;
  for (int d = 0; d < dimensions_; ++d) {
    const int delta = std::abs(ca[static_cast<std::size_t>(d)] - cb[static_cast<std::size_t>(d)]);
    hops += is_torus() ? std::min(delta, sizes_[static_cast<std::size_t>(d)] - delta) : delta;
  }
  return hops;
}

NodeId Topology::parse_node(std::string_view text) const {
  if (is_star()) {
    if (text.size() != static_cast<std::size_t>(star_order_)) {
      throw SpecError(fmt::format("star node '{}' must be a permutation of the {} digits 1..{} (like {})", text,
                                  star_order_, star_order_,
                                  permutation_text(permutation_unrank(0, star_order_), star_order_)));
    }
    Permutation perm{};
    for (int i = 0; i < star_order_; ++i) {
      const char ch = text[static_cast<std::size_t>(i)];
      if (ch < '0' || ch > '9') {
        throw SpecError(
            fmt::format("star node '{}' has a non-digit '{}'; write a permutation of 1..{}", text, ch, star_order_));
      }
      perm[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(ch - '0');
    }
    return node_of(perm);
  }
  const auto parts = split(text, ',');
  if (static_cast<int>(parts.size()) != dimensions_) {
    throw SpecError(fmt::format("node '{}' has {} coordinates; {} nodes have {} (like {})", text, parts.size(), spec(),
                                dimensions_, dimensions_ == 2 ? "3,2" : "1,1,1"));
  }
  Coord c{};
  for (int d = 0; d < dimensions_; ++d) {
    if (!parse_int(parts[static_cast<std::size_t>(d)], c[static_cast<std::size_t>(d)])) {
      throw SpecError(fmt::format("coordinate '{}' of node '{}' is not a number; valid {} are 0..{}",
                                  parts[static_cast<std::size_t>(d)], text, "xyz"[d],
                                  sizes_[static_cast<std::size_t>(d)] - 1));
    }
  }
  return node_at(c);
}

std::string Topology::node_name(NodeId node) const {
  if (is_star()) return permutation_text(permutation(node), star_order_);
  const Coord c = coord(node);
  std::string out;
  for (int d = 0; d < dimensions_; ++d) {
    if (d > 0) out += ',';
    out += std::to_string(c[static_cast<std::size_t>(d)]);
  }
  return out;
}

std::string Topology::port_name(Port port) const {
  check_port(port);
  if (is_star()) return fmt::format("g{}", port + 2);
  return fmt::format("{}{}", is_negative(port) ? '-' : '+', "XYZ"[dimension_of(port)]);
}

std::string Topology::spec() const {
  if (is_star()) return fmt::format("star:{}", star_order_);
  std::vector<int> sizes(sizes_.begin(), sizes_.begin() + dimensions_);
  return fmt::format("{}:{}", kind_name(kind_), join_sizes(sizes));
}

}  // namespace wormcast::model
