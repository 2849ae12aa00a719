// SPDX-License-Identifier: SHL-0.51
// noc_head_decision: what the router does with a worm whose head (or promoted address flit) is at
// the front of an input VC. Purely combinational; the input unit registers the result.
//
// Inputs are the head's fields and route compute's decision for it. The result is a *segment*:
// the set of outputs every flit of the worm takes from this head on, until the tail or, for a
// segment that ends after its lead flit (`promote_o`), until the next flit takes over as the head
// of the worm the router forwards (docs/rtl.md, "Intermediate reception (promotion)" and "Source routes").
//   - net_o     network ports the segment leaves on (all-or-nothing: VC allocation acquires them
//               together, every flit goes to all of them in the same cycle);
//   - spawn_o   the subset of net_o that are spawned CPR branches (PCP spine, [3] Fig. 2): they use
//               class 1 and their head is rewritten to address the end of the row;
//   - eject_o   a copy of every flit of the segment goes to local ejection;
//   - class_o   the output class of the non-spawned network ports;
//   - shift_o   the lead flit leaves with its source route shifted by one entry;
//   - promote_o the segment is the lead flit alone: the next flit (an address flit, a full head
//               for the rest of the worm) is routed as the worm's new head, with `fixed_o` set
//               when its network port is already known (`fixed_port_o`, source routes).
// The modes (noc_pkg::route_mode_e):
//   - label and dimension-order modes: route compute's hop is a one-port segment; at the
//     destination a worm with `more` = 0 ejects, one with `more` > 0 is delivered here and
//     forwarded toward its next destination: intermediate reception, a promote segment that ejects
//     the head (the eject copy then continues with the rest of the worm);
//   - CPR line: the control field acts on route compute's straight hop ([3] Fig. 1: 11 deliver and
//     pass, 10 and 00 pass, 01 deliver and stop; the addressed router absorbs; the sender's own
//     router only sends the worm on); on a 2D network a
//     cf = 11 worm that arrived on a Y input (network port 2 or 3) is also replicated into +X and
//     -X ([3] Fig. 2, the PCP spine; 3-DBS re-injects in firmware, so 3D networks never spawn);
//   - source routed: route entry 0 of `dest` names the port and whether to deliver a copy; port
//     RoutePortEnd ejects; when the shifted route is used up and `more` > 0, the head ends its
//     segment here (ejected when delivering, else dropped) and the next flit, carrying the next
//     entries, leaves on the same port.
// `valid_o` = 0 means no decision (route compute had none, a label-mode dest wider than LabelW, a
// source route names an unconnected port, a source-routed class that names no VC (class >=
// NumVcs), or a reserved mode); the input unit then drains the worm (noc_input_unit).
`include "noc_assert.svh"

module noc_head_decision #(
  /// Network ports of the router, 3..6.
  parameter int unsigned NumPorts = 4,
  /// The input port this decision serves: network ports 0..NumPorts-1, local ports above. Only
  /// the PCP spine rule reads it (a Y input is network port 2 or 3).
  parameter int unsigned InPort = 0,
  /// Width of a Hamiltonian label (route compute's LabelW): a label-mode head whose dest has a bit
  /// set above it names no node of the network and has no decision (route compute sees only the
  /// low LabelW bits and would route the truncated label).
  parameter int unsigned LabelW = 16,
  /// Routing modes implemented (noc_pkg::AllModes); source routes are decided here, the other
  /// modes by route compute (which gets the same mask).
  parameter int unsigned Modes = noc_pkg::AllModes,
  /// Virtual channels of the router (1, 2 or 4): a source-routed worm's class must name one of
  /// them (class < NumVcs; docs/rtl.md "VC-class plan").
  parameter int unsigned NumVcs = 2,
  /// Width of a port number. Derived, do not override.
  localparam int unsigned PortW = $clog2(NumPorts),
  /// Width of a VC class. Derived, do not override.
  localparam int unsigned ClassW = noc_pkg::ClassW
) (
  /// Clock; used only to sample the assertions.
  input  logic                             clk_i,
  /// Active-low reset; disables the assertions.
  input  logic                             rst_ni,
  /// Network port p has a neighbour (configuration).
  input  logic [NumPorts-1:0]              port_connected_i,
  /// Dimensions of the network: 2 or 3 for meshes and tori, 0 for star graphs (configuration).
  input  logic [1:0]                       num_dims_i,
  /// The head (noc_pkg::head_t) the decision is for.
  input  logic [noc_pkg::DataW-1:0]        head_i,
  /// Route compute's decision for the head (noc_route_compute valid_o, eject_o, port_o, class_o).
  input  logic                             rc_valid_i,
  input  logic                             rc_eject_i,
  input  logic [PortW-1:0]                 rc_port_i,
  input  logic [ClassW-1:0]                rc_class_i,
  /// The decision exists (see the header comment).
  output logic                             valid_o,
  /// Network ports of the segment.
  output logic [NumPorts-1:0]              net_o,
  /// Spawned CPR branches among net_o.
  output logic [NumPorts-1:0]              spawn_o,
  /// The segment's flits are also delivered locally.
  output logic                             eject_o,
  /// Output class of the segment's non-spawned network ports.
  output logic [ClassW-1:0]                class_o,
  /// The lead flit leaves with its source route shifted (noc_pkg::route_shift).
  output logic                             shift_o,
  /// The segment is the lead flit alone; the next flit becomes the head.
  output logic                             promote_o,
  /// With promote_o: the next flit leaves on fixed_port_o without a route-compute decision.
  output logic                             fixed_o,
  output logic [PortW-1:0]                 fixed_port_o
);

  localparam bit HasSourceRouted = ((Modes >> noc_pkg::RouteSourceRouted) & 1) != 0;

  noc_pkg::head_t head;
  assign head = head_i;

  // Source route: this router's entry.
  logic [noc_pkg::RouteEntryW-1:0] entry;
  logic                            entry_deliver, entry_end, entry_port_ok, regroup;
  logic [noc_pkg::RoutePortW-1:0]  entry_port;
  assign entry         = noc_pkg::route_next(head.dest);
  assign entry_deliver = entry[noc_pkg::RoutePortW];
  assign entry_port    = entry[noc_pkg::RoutePortW-1:0];
  assign entry_end     = (entry_port == noc_pkg::RoutePortEnd);
  assign entry_port_ok = |(entry_port_onehot & port_connected_i);
  // A source route travels on the VC its sender chose, class mod NumVcs, and keeps it: a class
  // with no VC of its own would share one with a class the plan keeps apart.
  logic class_ok;
  assign class_ok = (32'(head.vc_class) < NumVcs);
  assign regroup       = noc_pkg::route_used_up(noc_pkg::route_shift(head.dest)) && (head.more != '0);

  // Label modes: the dest fits in LabelW bits.
  logic label_fits;
  if (LabelW < noc_pkg::AddrW) begin : gen_label_fits
    assign label_fits = (head.dest[noc_pkg::AddrW-1:LabelW] == '0);
  end else begin : gen_label_fills_dest
    assign label_fits = 1'b1;
  end
  logic label_mode;
  assign label_mode = (head.mode == noc_pkg::RouteHamPath) || (head.mode == noc_pkg::RouteHamCycle);
  // Coordinate modes: the dest's pad bits above z are zero (route compute sees x, y, z only and
  // checks their range).
  logic coord_fits;
  assign coord_fits = noc_pkg::coord_dest_ok(head.dest);

  // CPR: the control field's actions on a router that is not addressed, and the spine rule.
  logic cpr_deliver, cpr_pass, spine;
  // The control field acts on the routers of the line; the sender's own router (the worm arrives
  // on a local port) only sends the worm on: it delivers nothing to its sender and never stops it.
  assign cpr_deliver = head.cf[0] && (InPort < NumPorts);                            // 01, 11
  assign cpr_pass    = (head.cf != noc_pkg::CfDeliverStop) || (InPort >= NumPorts);  // 00, 10, 11
  assign spine       = (head.cf == noc_pkg::CfDeliverPass) && (InPort == 2 || InPort == 3) &&
                       (num_dims_i == 2'd2);

  logic [NumPorts-1:0] rc_port_onehot, entry_port_onehot, x_ports;
  always_comb begin
    for (int p = 0; p < NumPorts; p++) begin
      rc_port_onehot[p]    = (32'(rc_port_i) == p);
      entry_port_onehot[p] = (32'(entry_port) == p);
    end
    x_ports = '0;
    x_ports[0] = port_connected_i[0];
    x_ports[1] = port_connected_i[1];
  end

  always_comb begin
    valid_o      = 1'b0;
    net_o        = '0;
    spawn_o      = '0;
    eject_o      = 1'b0;
    class_o      = '0;
    shift_o      = 1'b0;
    promote_o    = 1'b0;
    fixed_o      = 1'b0;
    fixed_port_o = '0;
    unique case (head.mode)
      noc_pkg::RouteSourceRouted: begin
        class_o = head.vc_class;
        if (entry_end) begin
          valid_o = HasSourceRouted && class_ok;
          eject_o = 1'b1;
        end else begin
          valid_o = HasSourceRouted && entry_port_ok && class_ok;
          eject_o = entry_deliver;
          if (regroup) begin
            promote_o    = 1'b1;
            fixed_o      = 1'b1;
            fixed_port_o = PortW'(entry_port);
          end else begin
            net_o   = entry_port_onehot;
            shift_o = 1'b1;
          end
        end
      end
      noc_pkg::RouteCprLine: begin
        valid_o = rc_valid_i && coord_fits;
        class_o = rc_class_i;
        if (valid_o) begin
          eject_o = rc_eject_i || cpr_deliver;
          if (!rc_eject_i && cpr_pass) begin
            net_o = rc_port_onehot;
          end
          if (spine) begin
            net_o   = net_o | x_ports;
            spawn_o = x_ports;
          end
        end
      end
      default: begin
        // Label and dimension-order modes (route compute has no decision for reserved modes).
        valid_o = rc_valid_i && (label_mode ? label_fits : coord_fits);
        class_o = rc_class_i;
        if (valid_o && rc_eject_i) begin
          eject_o   = 1'b1;
          promote_o = (head.more != '0);
        end else if (valid_o) begin
          net_o = rc_port_onehot;
        end
      end
    endcase
    // No decision, no outputs: the input unit drains the worm (draining_o).
    if (!valid_o) begin
      class_o   = '0;
      net_o     = '0;
      spawn_o   = '0;
      eject_o   = 1'b0;
      shift_o   = 1'b0;
      promote_o = 1'b0;
      fixed_o   = 1'b0;
    end
  end

  // The head fields the decision does not read.
  logic unused;
  assign unused = ^{head.network, head.ident};

  `NOC_ASSERT(SpawnInsideNet_A, (spawn_o & ~net_o) == '0)
  `NOC_ASSERT(NetOnlyConnected_A, valid_o |-> ((net_o & ~port_connected_i) == '0))
  // A promote segment is the lead flit alone: it never holds network ports.
  `NOC_ASSERT(PromoteHasNoNet_A, promote_o |-> (net_o == '0))
  // Every decision sends the lead flit somewhere, except a source-route regroup without delivery
  // (the used-up head is dropped).
  `NOC_ASSERT(DecisionHasOutput_A, valid_o |-> (net_o != '0 || eject_o || fixed_o))

endmodule
