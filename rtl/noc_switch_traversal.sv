// SPDX-License-Identifier: SHL-0.51
// noc_switch_traversal: the switch-traversal stage, the cycle after the switch grant (docs/rtl.md,
// "Latency: the pipeline").
//
// The switch grant reads each granted input's flit out of its input buffer's RAM
// (noc_input_unit); the RAM's output register (`flit_i`) is this stage's flit register. Here are
// the stage's other registers, loaded at the grant: per output, the input the final grant gave it
// (the crossbar's select), and per network port the head rewrite of the flit it sends, from the
// granted input's picked segment (noc_picked_segment; the tentative grant steers it, equal to the
// final one wherever a grant is given). In the next cycle the crossbar (noc_crossbar) takes each
// granted input's flit onto the outputs (replicating), and on a network port the copy of a
// segment's lead flit becomes the head of the worm there: head bit set (a promoted address flit),
// the output class written (the next router routes in it), a source route shifted past this
// router's entry, and a spawned CPR branch addressed to the end of its row. Ejection ports get the
// flit as it is. A port without a flit shows zero. Every output comes from registers (and the
// configuration, held after reset).
`include "noc_registers.svh"

module noc_switch_traversal #(
  /// Network ports.
  parameter int unsigned NumNetPorts = 4,
  /// Local port pairs.
  parameter int unsigned NumLocal = 1,
  /// Ports on each side. Derived, do not override.
  localparam int unsigned NumPorts = NumNetPorts + NumLocal,
  /// Width of a flit (noc_pkg::FlitW). Derived, do not override.
  localparam int unsigned FlitW = noc_pkg::FlitW,
  /// Width of a class. Derived, do not override.
  localparam int unsigned ClassW = noc_pkg::ClassW,
  /// Width of one coordinate (noc_pkg::CoordW). Derived, do not override.
  localparam int unsigned CoordW = noc_pkg::CoordW,
  /// Width of one dimension's size (noc_router DimSizeW). Derived, do not override.
  localparam int unsigned DimSizeW = CoordW + 1
) (
  /// Clock.
  input  logic                          clk_i,
  /// Asynchronous active-low reset: no flit selected.
  input  logic                          rst_ni,
  /// Final grants: input i to output o, bit o*NumPorts+i (noc_switch_allocator out_gnt_o).
  input  logic [NumPorts*NumPorts-1:0]  out_gnt_i,
  /// Tentative grants, same layout (noc_switch_allocator tent_gnt_o).
  input  logic [NumPorts*NumPorts-1:0]  tent_gnt_i,
  /// Input i's picked front flit leads its segment.
  input  logic [NumPorts-1:0]           pick_lead_i,
  /// Input i's picked segment's source route is shifted.
  input  logic [NumPorts-1:0]           pick_shift_i,
  /// Input i's picked segment's class, bits [i*ClassW +: ClassW].
  input  logic [NumPorts*ClassW-1:0]    pick_class_i,
  /// Input i's picked segment's spawned branches, bits [i*NumNetPorts +: NumNetPorts].
  input  logic [NumPorts*NumNetPorts-1:0] pick_spawn_i,
  /// Input i's flit as its grant read it at the last edge (the RAM's output register).
  input  logic [NumPorts*FlitW-1:0]     flit_i,
  /// The network's size in X (configuration): a +X branch is addressed to X = size - 1.
  input  logic [DimSizeW-1:0]           dim_size_x_i,
  /// This router's Y coordinate (configuration).
  input  logic [CoordW-1:0]             own_y_i,
  /// This router's Z coordinate (configuration).
  input  logic [CoordW-1:0]             own_z_i,
  /// Output o carries a flit (granted at the last edge).
  output logic [NumPorts-1:0]           valid_o,
  /// Flit of output o in bits [o*FlitW +: FlitW]: zero while valid_o[o] is low.
  output logic [NumPorts*FlitW-1:0]     flit_o
);

  logic [NumPorts*NumPorts-1:0]  xbar_sel_q;  // the final grants of the last edge
  logic [NumNetPorts-1:0]        rw_lead_d, rw_lead_q, rw_spawn_d, rw_spawn_q, rw_shift_d, rw_shift_q;
  logic [NumNetPorts*ClassW-1:0] rw_class_d, rw_class_q;
  logic [NumPorts*FlitW-1:0]     xbar_out;
  logic [NumNetPorts*FlitW-1:0]  net_flit;    // xbar_out's network ports after the head rewrite
  noc_pkg::flit_t                rw_f;        // temporaries of the head rewrite
  noc_pkg::head_t                rw_h;

  // The rewrite controls of the flit each network port is granted: a lead only under a final grant.
  always_comb begin
    rw_lead_d  = '0;
    rw_spawn_d = '0;
    rw_shift_d = '0;
    rw_class_d = '0;
    for (int o = 0; o < NumNetPorts; o++) begin
      for (int i = 0; i < NumPorts; i++) begin
        if (tent_gnt_i[o*NumPorts+i]) begin
          rw_lead_d[o]                   = rw_lead_d[o] | (pick_lead_i[i] && out_gnt_i[o*NumPorts +: NumPorts] != '0);
          rw_spawn_d[o]                  = rw_spawn_d[o] | pick_spawn_i[i*NumNetPorts+o];
          rw_shift_d[o]                  = rw_shift_d[o] | pick_shift_i[i];
          rw_class_d[o*ClassW +: ClassW] = rw_class_d[o*ClassW +: ClassW] | pick_class_i[i*ClassW +: ClassW];
        end
      end
    end
  end
  `NOC_FF(xbar_sel_q, out_gnt_i, '0)
  `NOC_FF(rw_lead_q, rw_lead_d, '0)
  `NOC_FF(rw_spawn_q, rw_spawn_d, '0)
  `NOC_FF(rw_shift_q, rw_shift_d, '0)
  `NOC_FF(rw_class_q, rw_class_d, '0)

  noc_crossbar #(
    .NumIn (NumPorts),
    .NumOut(NumPorts)
  ) u_crossbar (
    .clk_i,
    .rst_ni,
    .in_i   (flit_i),
    .sel_i  (xbar_sel_q),
    .valid_o(valid_o),
    .out_o  (xbar_out)
  );

  // The head rewrite on the network ports. Struct temporaries at module scope: yosys 0.23 cannot
  // resolve a struct member of a signal declared inside a generate block.
  always_comb begin
    rw_f     = '0;
    rw_h     = '0;
    net_flit = xbar_out[NumNetPorts*FlitW-1:0];
    for (int o = 0; o < NumNetPorts; o++) begin
      if (rw_lead_q[o]) begin
        rw_f      = xbar_out[o*FlitW +: FlitW];
        rw_h      = rw_f.data;
        rw_f.head = 1'b1;
        if (rw_spawn_q[o]) begin
          rw_h.vc_class = (o == 0) ? noc_pkg::BranchClassPlusX : noc_pkg::BranchClassMinusX;
          rw_h.dest     = noc_pkg::coord_dest((o == 0) ? CoordW'(dim_size_x_i - DimSizeW'(1)) : '0,
                                              own_y_i, own_z_i);
        end else begin
          rw_h.vc_class = rw_class_q[o*ClassW +: ClassW];
          if (rw_shift_q[o]) begin
            rw_h.dest = noc_pkg::route_shift(rw_h.dest);
          end
        end
        rw_f.data                  = rw_h;
        net_flit[o*FlitW +: FlitW] = rw_f;
      end
    end
  end
  assign flit_o[NumNetPorts*FlitW-1:0]               = net_flit;
  assign flit_o[NumPorts*FlitW-1:NumNetPorts*FlitW] = xbar_out[NumPorts*FlitW-1:NumNetPorts*FlitW];

endmodule
