// SPDX-License-Identifier: SHL-0.51
// noc_picked_segment: the segment of the VC an input port's switch pick selects (docs/rtl.md,
// "Router top").
//
// The switch allocator's tentative pick (noc_switch_allocator pick_vc_o) names, per input port, the
// VC it sends from whenever it sends (zero when it picks none). This selects that VC's segment: what
// the allocation cycle needs of the flit the grant reads (its lead and tail bits, the head rewrite's
// class, shift and spawned branches), its stream (the input VC id) and whether it is a head waiting
// for its output VCs (it takes them when sent). The picked segment's output VCs are mapped after the
// pick (noc_out_vc_map), one mapping per input instead of a mux of every VC's mapped VCs. Everything
// here is used only where a flit is sent; with no pick every output is zero. Combinational.
module noc_picked_segment #(
  /// Network ports.
  parameter int unsigned NumNetPorts = 4,
  /// Local port pairs.
  parameter int unsigned NumLocal = 1,
  /// VCs per port: 1, 2 or 4.
  parameter int unsigned NumVcs = 2,
  /// This input port (its VCs are streams InPort * NumVcs + VC).
  parameter int unsigned InPort = 0,
  /// Ports on each side. Derived, do not override.
  localparam int unsigned NumPorts = NumNetPorts + NumLocal,
  /// Width of a VC id. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of a class. Derived, do not override.
  localparam int unsigned ClassW = noc_pkg::ClassW,
  /// Width of a stream id, a router input VC id. Derived, do not override.
  localparam int unsigned StreamW = (NumPorts * NumVcs > 1) ? $clog2(NumPorts * NumVcs) : 1
) (
  /// The tentative pick: one-hot or zero over this input's VCs.
  input  logic [NumVcs-1:0]             pick_i,
  /// Per VC: a head waiting for its output VCs.
  input  logic [NumVcs-1:0]             va_req_i,
  /// Per VC: the front flit leads its segment (leaves as a head on network ports).
  input  logic [NumVcs-1:0]             lead_i,
  /// Per VC: the front flit is a tail.
  input  logic [NumVcs-1:0]             tail_i,
  /// Per VC: the segment's source route is shifted past this router's entry.
  input  logic [NumVcs-1:0]             shift_i,
  /// Per VC v: the segment's class, bits [v*ClassW +: ClassW].
  input  logic [NumVcs*ClassW-1:0]      class_i,
  /// Per VC v: the segment's spawned branches, bits [v*NumNetPorts +: NumNetPorts].
  input  logic [NumVcs*NumNetPorts-1:0] spawn_i,
  /// The picked VC is a head waiting for its output VCs.
  output logic                          takes_o,
  /// The picked VC's front flit leads its segment.
  output logic                          lead_o,
  /// The picked VC's front flit is a tail.
  output logic                          tail_o,
  /// The picked segment's source route is shifted.
  output logic                          shift_o,
  /// The picked segment's class.
  output logic [ClassW-1:0]             class_o,
  /// The picked segment's spawned branches.
  output logic [NumNetPorts-1:0]        spawn_o,
  /// The picked VC's stream id (InPort * NumVcs + VC).
  output logic [StreamW-1:0]            stream_o,
  /// The picked segment's output VC on network port o, bits [o*VcIdW +: VcIdW].
  output logic [NumNetPorts*VcIdW-1:0]  net_vc_o
);

  always_comb begin
    takes_o  = 1'b0;
    lead_o   = 1'b0;
    tail_o   = 1'b0;
    shift_o  = 1'b0;
    class_o  = '0;
    spawn_o  = '0;
    stream_o = '0;
    for (int v = 0; v < NumVcs; v++) begin
      if (pick_i[v]) begin
        takes_o  = va_req_i[v];
        lead_o   = lead_i[v];
        tail_o   = tail_i[v];
        shift_o  = shift_i[v];
        class_o  = class_i[v*ClassW +: ClassW];
        spawn_o  = spawn_i[v*NumNetPorts +: NumNetPorts];
        stream_o = StreamW'(InPort * NumVcs + v);
      end
    end
  end

  noc_out_vc_map #(
    .NumNetPorts(NumNetPorts),
    .NumVcs     (NumVcs)
  ) u_vc_map (
    .spawn_i    (spawn_o),
    .class_low_i(class_o[VcIdW-1:0]),
    .vc_o       (net_vc_o)
  );

endmodule
