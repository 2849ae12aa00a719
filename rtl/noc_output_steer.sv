// SPDX-License-Identifier: SHL-0.51
// noc_output_steer: what the switch grants tell the output and ejection units (docs/rtl.md,
// "Router top").
//
// Per network output port: it sends when the switch grants it (a final grant), on the output VC of
// the granted input's picked segment (noc_picked_segment), and allocates that VC when the segment is
// a head waiting for its output VCs (the head takes them in the edge the switch carries it,
// noc_vc_allocator), to the segment's input VC; the flit it sends is a tail when the picked front
// flit is (the output VC is released). Per ejection port: it sends when granted, and carries the
// stream of the granted input's picked VC.
// The tentative grants steer the choice of segment and the final ones the valid bits: the two
// agree wherever a grant is given (noc_switch_allocator), so the data steered by a tentative grant
// is used only where a flit is sent. Read per output port from the picked segments of the inputs,
// not per input VC (docs/design-log.md); noc_router's SendIsGrantedVc_A and AllocIsTakenSet_A
// check them against the per-input-VC sets in simulation. Combinational; `clk_i` and `rst_ni` only
// sample the assertion.
`include "noc_assert.svh"

module noc_output_steer #(
  /// Network ports.
  parameter int unsigned NumNetPorts = 4,
  /// Local port pairs.
  parameter int unsigned NumLocal = 1,
  /// VCs per port: 1, 2 or 4.
  parameter int unsigned NumVcs = 2,
  /// Ports on each side. Derived, do not override.
  localparam int unsigned NumPorts = NumNetPorts + NumLocal,
  /// Network output VCs. Derived, do not override.
  localparam int unsigned NumNetOutVcs = NumNetPorts * NumVcs,
  /// Width of a VC id. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of a stream id, a router input VC id. Derived, do not override.
  localparam int unsigned StreamW = (NumPorts * NumVcs > 1) ? $clog2(NumPorts * NumVcs) : 1,
  /// Width of an output VC's owner, a router input VC id. Derived, do not override.
  localparam int unsigned OwnerW = (NumPorts * NumVcs > 1) ? $clog2(NumPorts * NumVcs) : 1
) (
  /// Clock; used only to sample the assertion.
  input  logic                               clk_i,
  /// Active-low reset; the assertion is disabled while it is low.
  input  logic                               rst_ni,
  /// Final grants: input i to output o, bit o*NumPorts+i (noc_switch_allocator out_gnt_o).
  input  logic [NumPorts*NumPorts-1:0]       out_gnt_i,
  /// Tentative grants, same layout (noc_switch_allocator tent_gnt_o).
  input  logic [NumPorts*NumPorts-1:0]       tent_gnt_i,
  /// Input i's picked segment: its output VC on network port o, bits [(i*NumNetPorts+o)*VcIdW +: VcIdW].
  input  logic [NumPorts*NumNetPorts*VcIdW-1:0] pick_net_vc_i,
  /// Input i's picked VC is a head waiting for its output VCs.
  input  logic [NumPorts-1:0]                pick_takes_i,
  /// Input i's picked front flit is a tail.
  input  logic [NumPorts-1:0]                pick_tail_i,
  /// Input i's picked VC's stream, bits [i*StreamW +: StreamW].
  input  logic [NumPorts*StreamW-1:0]        pick_stream_i,
  /// Network output VC o*NumVcs+w sends a flit.
  output logic [NumNetOutVcs-1:0]            send_o,
  /// Network output VC o*NumVcs+w is allocated (a head takes it).
  output logic [NumNetOutVcs-1:0]            alloc_o,
  /// The input VC it is allocated to, bits [(o*NumVcs+w)*OwnerW +: OwnerW] (zero unless alloc_o).
  output logic [NumNetOutVcs*OwnerW-1:0]     alloc_owner_o,
  /// The flit network port o sends is a tail.
  output logic [NumNetPorts-1:0]             tail_o,
  /// Ejection port l sends a flit.
  output logic [NumLocal-1:0]                eject_send_o,
  /// The stream of ejection port l's flit, bits [l*StreamW +: StreamW].
  output logic [NumLocal*StreamW-1:0]        eject_stream_o
);

  always_comb begin
    logic [VcIdW-1:0]   out_vc;
    logic               out_takes;
    logic [StreamW-1:0] out_owner;
    send_o         = '0;
    alloc_o        = '0;
    alloc_owner_o  = '0;
    tail_o         = '0;
    eject_send_o   = '0;
    eject_stream_o = '0;
    for (int o = 0; o < NumNetPorts; o++) begin
      out_vc    = '0;
      out_takes = 1'b0;
      out_owner = '0;
      for (int i = 0; i < NumPorts; i++) begin
        if (tent_gnt_i[o*NumPorts+i]) begin
          out_vc    = out_vc | pick_net_vc_i[(i*NumNetPorts+o)*VcIdW +: VcIdW];
          out_takes = out_takes | pick_takes_i[i];
          out_owner = out_owner | pick_stream_i[i*StreamW +: StreamW];
          tail_o[o] = tail_o[o] | pick_tail_i[i];
        end
      end
      for (int w = 0; w < NumVcs; w++) begin
        send_o[o*NumVcs+w]  = (out_gnt_i[o*NumPorts +: NumPorts] != '0) && (32'(out_vc) == w);
        alloc_o[o*NumVcs+w] = send_o[o*NumVcs+w] && out_takes;
        if (alloc_o[o*NumVcs+w]) begin
          alloc_owner_o[(o*NumVcs+w)*OwnerW +: OwnerW] = OwnerW'(out_owner);
        end
      end
    end
    for (int l = 0; l < NumLocal; l++) begin
      for (int i = 0; i < NumPorts; i++) begin
        if (out_gnt_i[(NumNetPorts+l)*NumPorts+i]) begin
          eject_send_o[l] = 1'b1;
        end
        if (tent_gnt_i[(NumNetPorts+l)*NumPorts+i]) begin
          eject_stream_o[l*StreamW +: StreamW] = pick_stream_i[i*StreamW +: StreamW];
        end
      end
    end
  end

  // A network port sends on exactly one VC exactly when the switch is granted to it.
  for (genvar o = 0; o < NumNetPorts; o++) begin : gen_out
    `NOC_ASSERT(SendIffGranted_A, (send_o[o*NumVcs +: NumVcs] != '0) == (out_gnt_i[o*NumPorts +: NumPorts] != '0))
  end

endmodule
