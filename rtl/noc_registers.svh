// SPDX-License-Identifier: SHL-0.51
// noc_registers.svh: the one register macro of the wormcast RTL.
//
//   `NOC_FF(name_q, name_d, reset_value)
//
// expands to a flip-flop (or a bank of them) on the rising edge of `clk_i` with the asynchronous
// active-low reset `rst_ni`: `name_q` takes `reset_value` while `rst_ni` is low and `name_d` at
// every edge after. It is the only way the RTL writes state: the next value is computed in
// `always_comb` (`_d`), the register is one line here (`_q`), so a reader finds every register of
// a module, and its reset value, by searching for NOC_FF. The including module must have `clk_i`
// and `rst_ni`. Use it at module scope or in a generate block, without a trailing semicolon.
// (The router's optional configuration registers, loaded while rst_ni is low, are the one
// exception: they have no reset value.)
`ifndef NOC_REGISTERS_SVH
`define NOC_REGISTERS_SVH

`define NOC_FF(q, d, reset_value) \
  always_ff @(posedge clk_i or negedge rst_ni) begin \
    if (!rst_ni) begin \
      q <= (reset_value); \
    end else begin \
      q <= (d); \
    end \
  end

`endif  // NOC_REGISTERS_SVH
