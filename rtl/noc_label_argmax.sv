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
// The keys arrive as their order (`gt_i`), not their values: the neighbour labels are
// configuration, so their order is too, and a router's route computes share one set of
// comparisons (or none, with constant configuration) instead of comparing labels picked by the
// candidates. The pick is then a tournament: candidate i wins iff it beats every other candidate
// j (a better priority flag, else a better key, else equal keys and i < j). That is the scan's
// winner: the scan keeps the first of the best, which beats every other candidate, and at most
// one candidate beats all others.
`include "noc_assert.svh"

module noc_label_argmax #(
  /// Number of candidates (>= 1).
  parameter int unsigned NumIn = 6,
  /// Width of `idx_o`. Derived, do not override.
  localparam int unsigned IdxW = (NumIn > 1) ? $clog2(NumIn) : 1
) (
  /// Clock; used only to sample the assertions.
  input  logic                   clk_i,
  /// Active-low reset; the assertions are disabled while it is low.
  input  logic                   rst_ni,
  /// Search for the smallest key instead of the largest.
  input  logic                   min_i,
  /// One bit per candidate: it takes part in the search.
  input  logic [NumIn-1:0]       cand_i,
  /// One bit per candidate: it beats every candidate without the flag, whatever the keys.
  input  logic [NumIn-1:0]       prio_i,
  /// The keys' order: bit i*NumIn+j is set iff key i > key j (unsigned). Bits i*NumIn+i are
  /// ignored. Must be the order of some keys (asserted: never both i > j and j > i).
  input  logic [NumIn*NumIn-1:0] gt_i,
  /// At least one candidate.
  output logic                   valid_o,
  /// Index of the winner; 0 without a candidate.
  output logic [IdxW-1:0]        idx_o,
  /// The winner as a one-hot vector; zero without a candidate.
  output logic [NumIn-1:0]       onehot_o
);

  // beats[i*NumIn+j]: candidate i wins against candidate j.
  logic [NumIn*NumIn-1:0] beats;
  always_comb begin
    logic better_key, equal_key;
    beats = '0;
    for (int i = 0; i < NumIn; i++) begin
      for (int j = 0; j < NumIn; j++) begin
        if (i != j) begin
          better_key         = min_i ? gt_i[j*NumIn+i] : gt_i[i*NumIn+j];
          equal_key          = !gt_i[i*NumIn+j] && !gt_i[j*NumIn+i];
          beats[i*NumIn+j]   = (prio_i[i] && !prio_i[j]) ||
                               (prio_i[i] == prio_i[j] && (better_key || (equal_key && i < j)));
        end
      end
    end
  end

  always_comb begin
    logic wins;
    onehot_o = '0;
    idx_o    = '0;
    for (int i = 0; i < NumIn; i++) begin
      wins = cand_i[i];
      for (int j = 0; j < NumIn; j++) begin
        if (i != j) wins = wins && (!cand_i[j] || beats[i*NumIn+j]);
      end
      onehot_o[i] = wins;
      // One winner at most, so the index is the OR of the winners' indices.
      if (wins) idx_o = idx_o | IdxW'(i);
    end
  end
  assign valid_o = (cand_i != '0);

  logic [NumIn-1:0] gt_antisymmetric;
  always_comb begin
    gt_antisymmetric = '1;
    for (int i = 0; i < NumIn; i++) begin
      for (int j = 0; j < NumIn; j++) begin
        if (i != j && gt_i[i*NumIn+j] && gt_i[j*NumIn+i]) gt_antisymmetric[i] = 1'b0;
      end
    end
  end

  `NOC_ASSERT(OrderIsAntisymmetric_A, gt_antisymmetric == '1)
  `NOC_ASSERT(OnehotIsOneHot0_A, $onehot0(onehot_o))
  `NOC_ASSERT(OnehotOnlyToCandidate_A, (onehot_o & ~cand_i) == '0)
  `NOC_ASSERT(ValidIffCandidate_A, valid_o == (cand_i != '0))
  `NOC_ASSERT(ValidIffOnehot_A, valid_o == (onehot_o != '0))
  `NOC_ASSERT(PrioCandidateWins_A, (cand_i & prio_i) != '0 |-> (onehot_o & prio_i) != '0)

endmodule
