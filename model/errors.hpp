// SPDX-License-Identifier: Apache-2.0
// Typed errors of the model layer. Every message names the bad value and what would be valid, so a
// user who typed `torus:5x5` or `--source 9,9` learns what to type instead.
#pragma once

#include <stdexcept>
#include <string>

namespace wormcast::model {

// Base of every error the model throws on bad input.
class ModelError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A topology or node spec string that does not parse (`mesh:8by8`, `3;2`).
class SpecError : public ModelError {
 public:
  using ModelError::ModelError;
};

// A topology whose parameters are out of range (a zero dimension, S_n with n outside 3..6).
class TopologyError : public ModelError {
 public:
  using ModelError::ModelError;
};

// A node id, coordinate or permutation that is not a node of the network.
class NodeError : public ModelError {
 public:
  using ModelError::ModelError;
};

// A labeling that does not exist on this topology (a torus Hamiltonian cycle with an odd row count).
class LabelingError : public ModelError {
 public:
  using ModelError::ModelError;
};

// A routing function asked to work on a topology it is not defined for.
class UnsupportedError : public ModelError {
 public:
  using ModelError::ModelError;
};

// A routing state the function never produces (a q-class worm that would need a second boundary
// crossing, a CPR worm whose destination is not on a straight line), or a route that does not end.
class RoutingError : public ModelError {
 public:
  using ModelError::ModelError;
};

// A multicast request that cannot be planned: an empty or repeated destination, the source among
// the destinations, a message shorter than one flit, a port model without ports.
class RequestError : public ModelError {
 public:
  using ModelError::ModelError;
};

}  // namespace wormcast::model
