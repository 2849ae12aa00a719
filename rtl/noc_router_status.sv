// SPDX-License-Identifier: SHL-0.51
// noc_router_status: the router's status outputs, the count of drained worms and the sticky
// protocol errors (docs/rtl-modules.md, "Drained worms" and "Sticky errors and cover points").
//
// The drop count: worms drained since reset (an input VC whose head got no route decision,
// noc_input_unit drop_worm_o), at most one per input port per cycle (one arrival each), added with
// saturation so that the count never wraps back to a value that hides the drops. This cycle's drops
// are summed in a balanced tree (heap layout: node k = nodes 2k + 2k+1, the NumInVcs leaves from
// index NumInVcs on, the sum at node 1) and added once, not by a chain of one conditional increment
// per input VC, which would put a carry chain per input VC in series behind the head decisions
// (docs/design-log.md). The same function: min(count + drops, 2**RouteDropsW - 1).
// The errors: each flag is set by the first dropped flit or credit of its kind (noc_pkg::Err*) and
// held until reset, so a netlist without assertions still shows that the protocol was broken.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_router_status #(
  /// Network ports (network output units).
  parameter int unsigned NumNetPorts = 4,
  /// Local port pairs (ejection units).
  parameter int unsigned NumLocal = 1,
  /// VCs per port.
  parameter int unsigned NumVcs = 2,
  /// Ports on each side. Derived, do not override.
  localparam int unsigned NumPorts = NumNetPorts + NumLocal,
  /// Input VCs. Derived, do not override.
  localparam int unsigned NumInVcs = NumPorts * NumVcs
) (
  /// Clock.
  input  logic                             clk_i,
  /// Asynchronous active-low reset: no drops, no errors.
  input  logic                             rst_ni,
  /// Input VC j's head got no decision this cycle: its worm is drained.
  input  logic [NumInVcs-1:0]              drop_worm_i,
  /// Input port p dropped a flit into a full buffer this cycle.
  input  logic [NumPorts-1:0]              buffer_overflow_i,
  /// Network output port o dropped a credit into a full counter this cycle.
  input  logic [NumNetPorts-1:0]           credit_overflow_i,
  /// Ejection port l dropped a credit into a full pool this cycle.
  input  logic [NumLocal-1:0]              eject_credit_overflow_i,
  /// Worms drained since reset, saturating (registered).
  output logic [noc_pkg::RouteDropsW-1:0]  route_drops_o,
  /// Sticky errors, bits noc_pkg::Err* (registered).
  output logic [noc_pkg::ErrorsW-1:0]      errors_o
);

  localparam int unsigned DropsW = noc_pkg::RouteDropsW;
  localparam int unsigned DropsNowW = $clog2(NumInVcs + 1);  // <= DropsW up to 255 input VCs
  logic [DropsW-1:0] route_drops_d, route_drops_q;
  logic [2*NumInVcs*DropsNowW-1:0] drops_tree;
  always_comb begin
    drops_tree = '0;
    for (int j = 0; j < NumInVcs; j++) begin
      drops_tree[(NumInVcs+j)*DropsNowW +: DropsNowW] = DropsNowW'(drop_worm_i[j]);
    end
    for (int k = NumInVcs - 1; k >= 1; k--) begin
      drops_tree[k*DropsNowW +: DropsNowW] = drops_tree[2*k*DropsNowW +: DropsNowW]
                                           + drops_tree[(2*k+1)*DropsNowW +: DropsNowW];
    end
  end
  always_comb begin
    logic [DropsW:0] sum;
    sum           = {1'b0, route_drops_q} + (DropsW + 1)'(drops_tree[DropsNowW +: DropsNowW]);
    route_drops_d = sum[DropsW] ? '1 : sum[DropsW-1:0];
  end

  `NOC_FF(route_drops_q, route_drops_d, '0)
  assign route_drops_o = route_drops_q;

  logic [noc_pkg::ErrorsW-1:0] errors_d, errors_q;
  always_comb begin
    errors_d = errors_q;
    errors_d[noc_pkg::ErrBufferOverflow]      = errors_q[noc_pkg::ErrBufferOverflow] || (buffer_overflow_i != '0);
    errors_d[noc_pkg::ErrCreditOverflow]      = errors_q[noc_pkg::ErrCreditOverflow] || (credit_overflow_i != '0);
    errors_d[noc_pkg::ErrEjectCreditOverflow] = errors_q[noc_pkg::ErrEjectCreditOverflow] || (eject_credit_overflow_i != '0);
  end

  `NOC_FF(errors_q, errors_d, '0)
  assign errors_o = errors_q;

  `NOC_ASSERT(DropsTreeCountsEveryDrop_A, 32'(drops_tree[DropsNowW +: DropsNowW]) == $countones(drop_worm_i))
  `NOC_ASSERT(ErrorsSticky_A, (errors_d & errors_q) == errors_q)
  `NOC_ASSERT(RouteDropsNeverWrap_A, route_drops_d >= route_drops_q)
  `NOC_ASSERT(RouteDropsCountEveryDrop_A, (drop_worm_i != '0 && route_drops_q != '1) |-> route_drops_d > route_drops_q)

endmodule
