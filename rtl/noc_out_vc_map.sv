// SPDX-License-Identifier: SHL-0.51
// noc_out_vc_map: the output VC a segment takes on each network port (docs/rtl.md, "VC-class plan").
//
// VC = the segment's class mod NumVcs (the class's low VcIdW bits), one rule for every routing
// mode; a spawned CPR branch travels in the class of its X direction (noc_pkg::BranchClassPlusX
// on port 0, BranchClassMinusX on the others). With one VC every segment takes VC 0 (noc_switch_request's
// ClassHasVc_A: then no worm has a class above 0). Combinational. noc_switch_request maps each
// input VC's segment (the output VCs it asks for), noc_picked_segment the segment an input's
// switch pick selects (the output VCs it sends on).
module noc_out_vc_map #(
  /// Network ports.
  parameter int unsigned NumNetPorts = 4,
  /// VCs per output port: 1, 2 or 4.
  parameter int unsigned NumVcs = 2,
  /// Width of a VC id. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1
) (
  /// The segment's branch spawned on network port o (bit o).
  input  logic [NumNetPorts-1:0]       spawn_i,
  /// The segment's class, its low VcIdW bits.
  input  logic [VcIdW-1:0]             class_low_i,
  /// The output VC on network port o, bits [o*VcIdW +: VcIdW].
  output logic [NumNetPorts*VcIdW-1:0] vc_o
);

  always_comb begin
    for (int o = 0; o < NumNetPorts; o++) begin
      if (NumVcs == 1) vc_o[o*VcIdW +: VcIdW] = '0;
      else if (spawn_i[o]) vc_o[o*VcIdW +: VcIdW] = (o == 0) ? noc_pkg::BranchClassPlusX[VcIdW-1:0]
                                                             : noc_pkg::BranchClassMinusX[VcIdW-1:0];
      else vc_o[o*VcIdW +: VcIdW] = class_low_i;
    end
  end

endmodule
