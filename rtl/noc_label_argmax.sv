// SPDX-License-Identifier: SHL-0.51
// noc_label_argmax: the best candidate by a label key, lowest index on a tie. Combinational.
//
// Among the candidates (`cand_i`), those with the priority flag set (`prio_i`) come first; among
// those the largest key wins, or the smallest one when `min_i` is high; among equal keys the
// lowest index wins. The route-compute stage uses it to pick the output port whose neighbour label
// is best, preferring neighbours within reach of the destination label (docs/model.md: ports are
// scanned in ascending order and the best is replaced only on a strict improvement, so among equal
// labels, e.g. two parallel links to one neighbour, the lowest port wins).
//
// The scan is a chain of NumIn - 1 comparisons over constant slices (no variable part-select).
// yosys derives "less" and "greater" of one pair of keys from one subtraction, so the direction
// costs a few LUTs per comparison rather than an inverted copy of every key.
`include "noc_assert.svh"

module noc_label_argmax #(
  /// Number of candidates (>= 1).
  parameter int unsigned NumIn = 6,
  /// Width of one key in bits (>= 1).
  parameter int unsigned KeyW = 16,
  /// Width of `idx_o`. Derived, do not override.
  localparam int unsigned IdxW = (NumIn > 1) ? $clog2(NumIn) : 1
) (
  /// Clock; used only to sample the assertions.
  input  logic                  clk_i,
  /// Active-low reset; the assertions are disabled while it is low.
  input  logic                  rst_ni,
  /// Search for the smallest key instead of the largest.
  input  logic                  min_i,
  /// One bit per candidate: it takes part in the search.
  input  logic [NumIn-1:0]      cand_i,
  /// One bit per candidate: it beats every candidate without the flag, whatever the keys.
  input  logic [NumIn-1:0]      prio_i,
  /// Key of candidate i in bits [i*KeyW +: KeyW], compared unsigned.
  input  logic [NumIn*KeyW-1:0] key_i,
  /// At least one candidate.
  output logic                  valid_o,
  /// Index of the winner; 0 without a candidate.
  output logic [IdxW-1:0]       idx_o,
  /// The winner as a one-hot vector; zero without a candidate.
  output logic [NumIn-1:0]      onehot_o
);

  logic [KeyW-1:0] best_key;
  logic            best_prio;

  always_comb begin
    logic [KeyW-1:0] key;
    logic            better;
    valid_o   = 1'b0;
    idx_o     = '0;
    onehot_o  = '0;
    best_key  = '0;
    best_prio = 1'b0;
    for (int i = 0; i < NumIn; i++) begin
      key    = key_i[i*KeyW +: KeyW];
      better = (prio_i[i] && !best_prio) ||
               (prio_i[i] == best_prio && (min_i ? key < best_key : key > best_key));
      if (cand_i[i] && (!valid_o || better)) begin
        valid_o     = 1'b1;
        idx_o       = IdxW'(i);
        onehot_o    = '0;
        onehot_o[i] = 1'b1;
        best_key    = key;
        best_prio   = prio_i[i];
      end
    end
  end

  `NOC_ASSERT(OnehotIsOneHot0_A, $onehot0(onehot_o))
  `NOC_ASSERT(OnehotOnlyToCandidate_A, (onehot_o & ~cand_i) == '0)
  `NOC_ASSERT(ValidIffCandidate_A, valid_o == (cand_i != '0))
  `NOC_ASSERT(ValidIffOnehot_A, valid_o == (onehot_o != '0))
  `NOC_ASSERT(PrioCandidateWins_A, (cand_i & prio_i) != '0 |-> (onehot_o & prio_i) != '0)

endmodule
