// SPDX-License-Identifier: Apache-2.0
// Routing functions: pure functions (current node, input VC class, destination) -> (output port,
// VC class), exactly the decisions the router RTL must make, so a test can compare every decision.
//
//   HamiltonianPathRouting   R of [1], Definition 2, on the path labeling (meshes; tori without wraps)
//   HamiltonianCycleRouting  R(u, alpha, v) of [2], Section 3.1, with the p/q choice beta (2D torus, star)
//   DimensionOrderRouting    XY / XYZ, minimal; tori use two dateline VC classes
//   CprLineRouting           straight line along one dimension (CPR worms, [3]; meshes)
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/labeling.hpp"
#include "model/topology.hpp"

namespace wormcast::model {

using VcClass = int;

// Output "port" meaning: deliver to the local node (the worm has reached its destination).
inline constexpr Port kEject = -2;

struct RouteStep {
  Port port = kEject;  // network port, or kEject
  VcClass vc = 0;      // VC class on the output channel; 0 when ejecting
  bool ejects() const { return port == kEject; }
  bool operator==(const RouteStep&) const = default;
};

// One hop of a traced route: the channel leaving `node` on `port`, in VC class `vc`.
struct RouteHop {
  NodeId node = kNoNode;
  Port port = kNoPort;
  VcClass vc = 0;
  bool operator==(const RouteHop&) const = default;
};

class RoutingFunction {
 public:
  explicit RoutingFunction(Topology topology) : topology_(std::move(topology)) {}
  virtual ~RoutingFunction() = default;

  // Short name used on the command line (`hamiltonian-path`, ...).
  virtual std::string name() const = 0;
  // VC classes this function distinguishes on one physical channel.
  virtual int vc_class_count() const = 0;
  virtual std::string vc_class_name(VcClass vc) const;
  // Classes a worm may hold at a node while heading for a destination: the classes it is injected
  // in, and the classes it carries on after an intermediate destination.
  virtual std::vector<VcClass> entry_classes() const = 0;
  // Classes a source injects a worm in; every route from them must complete.
  virtual std::vector<VcClass> injection_classes() const { return {0}; }
  // The decision, or nullopt for a state the function never produces (for example a q-class worm
  // that would have to cross a boundary link a second time).
  virtual std::optional<RouteStep> try_route(NodeId current, VcClass in, NodeId destination) const = 0;
  // The states try_route has a decision for, in words, for route()'s error message; empty when it
  // has one for every node and class.
  virtual std::string domain() const { return {}; }

  // Whether a multidestination worm that reached an intermediate destination over `arrival` may
  // go on toward its next destination with a route that starts in `start` and leaves over
  // `first_hop` (it holds `arrival` while it requests `first_hop`). Functions that route only
  // single-destination worms never continue.
  virtual bool continues_after_delivery(const RouteHop& /*arrival*/, VcClass /*start*/,
                                        const RouteHop& /*first_hop*/) const {
    return false;
  }

  // The decision; throws NodeError for nodes outside the network and RoutingError (naming the
  // state) where try_route has none.
  RouteStep route(NodeId current, VcClass in, NodeId destination) const;

  const Topology& topology() const { return topology_; }

 protected:
  void check_vc(VcClass vc) const;

 private:
  Topology topology_;
};

// Follows the function from `source` in class `vc` to `destination`; the hops exclude the final
// ejection. Throws RoutingError if a decision is missing, uses a port without a neighbour, or the
// route does not end within node_count() * vc_class_count() hops (a livelock).
std::vector<RouteHop> trace_route(const RoutingFunction& routing, NodeId source, VcClass vc, NodeId destination);
// The nodes a traced route visits, source and destination included.
std::vector<NodeId> route_nodes(const RoutingFunction& routing, const std::vector<RouteHop>& hops, NodeId source);

class HamiltonianPathRouting final : public RoutingFunction {
 public:
  explicit HamiltonianPathRouting(const Topology& topology);
  // The output class is the channel network of the hop: kHigh (0) where labels rise, kLow (1) where
  // they fall, the RTL's VC-class plan (docs/rtl.md). Either input class is accepted: the labels,
  // not the class, choose the network.
  enum Class : VcClass { kHigh = 0, kLow = 1 };
  std::string name() const override { return "hamiltonian-path"; }
  int vc_class_count() const override { return 2; }
  std::vector<VcClass> entry_classes() const override { return {kHigh, kLow}; }
  std::vector<VcClass> injection_classes() const override { return {kHigh, kLow}; }
  std::optional<RouteStep> try_route(NodeId current, VcClass in, NodeId destination) const override;
  // A worm visits its sorted destinations in one channel network ([1], Definition 1; [4], Section 2).
  bool continues_after_delivery(const RouteHop& arrival, VcClass start, const RouteHop& first_hop) const override;
  const HamiltonianLabeling& labeling() const { return labeling_; }

 private:
  HamiltonianLabeling labeling_;
};

class HamiltonianCycleRouting final : public RoutingFunction {
 public:
  // VC classes alpha of [2], Section 2.2.4: the channel network (high/low) and the p/q virtual channel.
  enum Class : VcClass { kPHigh = 0, kQHigh = 1, kPLow = 2, kQLow = 3 };
  static bool is_high(VcClass vc) { return vc == kPHigh || vc == kQHigh; }
  static bool is_q(VcClass vc) { return vc == kQHigh || vc == kQLow; }

  explicit HamiltonianCycleRouting(const Topology& topology);
  std::string name() const override { return "hamiltonian-cycle"; }
  int vc_class_count() const override { return 4; }
  std::string vc_class_name(VcClass vc) const override;
  std::vector<VcClass> entry_classes() const override { return {kPHigh, kQHigh, kPLow, kQLow}; }
  std::vector<VcClass> injection_classes() const override { return {kPHigh, kPLow}; }
  std::optional<RouteStep> try_route(NodeId current, VcClass in, NodeId destination) const override;
  // A worm keeps its class (network and p/q) from one destination to the next ([2], Sections 3.1-3.2).
  bool continues_after_delivery(const RouteHop& arrival, VcClass start, const RouteHop& /*first_hop*/) const override {
    return start == arrival.vc;
  }
  std::string domain() const override {
    return "a q-class worm has crossed its boundary link and must reach its destination without another";
  }
  const HamiltonianLabeling& labeling() const { return labeling_; }

 private:
  HamiltonianLabeling labeling_;
};

class DimensionOrderRouting final : public RoutingFunction {
 public:
  // kDateline: tori use class 0 while the wraparound link of the current dimension is still ahead
  // (including the wrap hop itself) and class 1 once it is not. kSingleClass: one class on tori,
  // which is deadlock-prone; it exists to show that the deadlock checker finds the cycle.
  enum class TorusClasses { kDateline, kSingleClass };

  explicit DimensionOrderRouting(const Topology& topology, TorusClasses torus_classes = TorusClasses::kDateline);
  std::string name() const override;
  int vc_class_count() const override;
  std::vector<VcClass> entry_classes() const override;
  std::optional<RouteStep> try_route(NodeId current, VcClass in, NodeId destination) const override;

 private:
  TorusClasses torus_classes_;
};

class CprLineRouting final : public RoutingFunction {
 public:
  explicit CprLineRouting(const Topology& topology);
  // Class 0: the lines a source sends. The +-X branches a PCP spine router spawns take a class by
  // their X direction (docs/rtl.md, "VC-class plan", the branches): +X 3, -X 2, the VCs of
  // xy-path's column paths that advance left and right, which never move the other way along X,
  // so no other worm holds or waits for a branch's channels. A worm keeps the class it travels in.
  static VcClass spawned_branch_class(Port x_direction) { return x_direction == 0 ? 3 : 2; }
  std::string name() const override { return "cpr-line"; }
  int vc_class_count() const override { return 4; }  // 0 lines, 3 and 2 branches (1 not written)
  std::vector<VcClass> entry_classes() const override { return {0}; }
  // nullopt unless current and destination differ in at most one dimension; the class is kept.
  std::optional<RouteStep> try_route(NodeId current, VcClass in, NodeId destination) const override;
  std::string domain() const override {
    return "a cpr-line worm travels a straight line, so the destination must differ from the current node in one "
           "dimension only";
  }
};

// The routing functions by command-line name.
std::vector<std::string> routing_function_names();
// Throws SpecError for an unknown name and UnsupportedError where the function is not defined.
std::unique_ptr<RoutingFunction> make_routing_function(std::string_view name, const Topology& topology);
// Names of the functions defined on `topology`.
std::vector<std::string> routing_functions_for(const Topology& topology);

}  // namespace wormcast::model
