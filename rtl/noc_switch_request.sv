// SPDX-License-Identifier: SHL-0.51
// noc_switch_request: one input VC's requests to the allocators (docs/rtl.md, "Router top").
//
// From the VC's current segment (noc_head_decision, through noc_input_unit: its network ports,
// spawned branches, local copy and class) and the output credits:
//   - the output VCs the segment takes (`target_o`, the VC allocator's target set): on each of its
//     network ports the VC noc_out_vc_map gives;
//   - the ejection port of its local copy: while the worm's first segment is Routed, the first
//     local port from (input port mod NumLocal) on that has a credit ("any free one"), registered
//     and held to the worm's tail, so the local copy of a worm with several segments stays on one
//     port;
//   - the switch requests (`req_o`, one bit per output port): a flit requests all of its segment's
//     outputs, and only when every one of them has a credit, so a granted flit leaves on all of them
//     in the same cycle (synchronous replication).
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_switch_request #(
  /// Network ports.
  parameter int unsigned NumNetPorts = 4,
  /// Local port pairs (ejection ports after the network ports).
  parameter int unsigned NumLocal = 1,
  /// VCs per port: 1, 2 or 4.
  parameter int unsigned NumVcs = 2,
  /// The input port this VC belongs to (where its search for a free ejection port starts).
  parameter int unsigned InPort = 0,
  /// Output ports: network then local. Derived, do not override.
  localparam int unsigned NumPorts = NumNetPorts + NumLocal,
  /// Network output VCs, id port * NumVcs + VC. Derived, do not override.
  localparam int unsigned NumNetOutVcs = NumNetPorts * NumVcs,
  /// Width of a VC id. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of a class. Derived, do not override.
  localparam int unsigned ClassW = noc_pkg::ClassW,
  /// Width of a local port index. Derived, do not override.
  localparam int unsigned LocalW = (NumLocal > 1) ? $clog2(NumLocal) : 1
) (
  /// Clock.
  input  logic                    clk_i,
  /// Asynchronous active-low reset: ejection port 0.
  input  logic                    rst_ni,
  /// The segment's network ports.
  input  logic [NumNetPorts-1:0]  net_i,
  /// The segment's spawned CPR branches, per network port.
  input  logic [NumNetPorts-1:0]  spawn_i,
  /// The segment's class.
  input  logic [ClassW-1:0]       class_i,
  /// The segment has a local copy.
  input  logic                    eject_i,
  /// The VC's first segment is Routed this cycle (a new worm: its ejection port is chosen now).
  input  logic                    routed_i,
  /// The VC is a head waiting for its output VCs (for the assertion on one-VC routers).
  input  logic                    va_req_i,
  /// The VC requests the switch (its front flit may leave).
  input  logic                    sa_req_i,
  /// Network output VC k has a credit.
  input  logic [NumNetOutVcs-1:0] credit_i,
  /// Ejection port l has a credit.
  input  logic [NumLocal-1:0]     eject_credit_i,
  /// The output VCs the segment takes (network output VC ids).
  output logic [NumNetOutVcs-1:0] target_o,
  /// Switch request per output port: every output of the segment, or none.
  output logic [NumPorts-1:0]     req_o
);

  logic [NumNetPorts*VcIdW-1:0] vc;           // the segment's output VC per network port
  logic                         net_credits;  // every network output VC of the segment has a credit
  logic                         eject_ok;     // the ejection port this request uses has a credit
  logic                         ok;           // every output of the segment has a credit
  logic [LocalW-1:0]            ej_port_d, ej_port_q;
  logic [LocalW-1:0]            ej_now;       // the ejection port this cycle's request uses

  noc_out_vc_map #(
    .NumNetPorts(NumNetPorts),
    .NumVcs     (NumVcs)
  ) u_vc_map (
    .spawn_i    (spawn_i),
    .class_low_i(class_i[VcIdW-1:0]),
    .vc_o       (vc)
  );

  always_comb begin
    target_o    = '0;
    net_credits = 1'b1;
    for (int o = 0; o < NumNetPorts; o++) begin
      for (int w = 0; w < NumVcs; w++) begin
        if (net_i[o] && (32'(vc[o*VcIdW +: VcIdW]) == w)) begin
          target_o[o*NumVcs+w] = 1'b1;
          net_credits = net_credits && credit_i[o*NumVcs+w];
        end
      end
    end
  end

  // The ejection port: chosen while the first segment is Routed, then held.
  always_comb begin
    logic found;
    found     = 1'b0;
    ej_port_d = ej_port_q;
    if (routed_i) begin
      ej_port_d = LocalW'(InPort % NumLocal);
      for (int k = 0; k < NumLocal; k++) begin
        if (!found && eject_credit_i[(InPort + k) % NumLocal]) begin
          found     = 1'b1;
          ej_port_d = LocalW'((InPort + k) % NumLocal);
        end
      end
    end
  end

  `NOC_FF(ej_port_q, ej_port_d, '0)

  // The switch request reads this cycle's choice (ej_port_d): a first segment's lead may leave in
  // the cycle its VC is Routed, before the choice is registered. With one local port it is 0,
  // written as a constant (through ej_port_d yosys kept the choice's registers).
  assign ej_now = (NumLocal > 1) ? ej_port_d : '0;
  always_comb begin
    eject_ok = 1'b0;
    for (int l = 0; l < NumLocal; l++) begin
      if (32'(ej_now) == l) begin
        eject_ok = eject_credit_i[l];
      end
    end
  end

  assign ok = net_credits && (!eject_i || eject_ok);
  always_comb begin
    req_o = '0;
    for (int o = 0; o < NumNetPorts; o++) begin
      req_o[o] = sa_req_i && ok && net_i[o];
    end
    for (int l = 0; l < NumLocal; l++) begin
      req_o[NumNetPorts+l] = sa_req_i && ok && eject_i && (32'(ej_now) == l);
    end
  end

  `NOC_ASSERT(ClassHasVc_A, (va_req_i && NumVcs == 1) |-> (spawn_i == '0 && !class_i[noc_pkg::HcClassQBit]))
  `NOC_ASSERT(EjectPortInRange_A, 32'(ej_port_q) < NumLocal)

endmodule
