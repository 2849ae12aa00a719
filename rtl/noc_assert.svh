// SPDX-License-Identifier: SHL-0.51
// noc_assert.svh: the one assertion macro of the wormcast RTL.
//
//   `NOC_ASSERT(Name_A, property)
//
// expands to a concurrent assertion sampled on the rising edge of `clk_i` and disabled while
// `rst_ni` is low, so the including module must have ports (or signals) named `clk_i` and `rst_ni`.
// A failure reports, through $error, the assertion name and the property text (Verilator adds the
// instance path). The name is in the message, not a label: Verilator 5.006 gives every labelled
// assertion a scope of its own (one VerilatedScope in the context's name map per assertion and
// model instance, ~1,200 per 4-VC router), which made building a 4,096-router network a fifth of
// its run time; unlabelled, an assertion reports through its module instance's scope.
// Use it at module scope (not inside an always block: Verilator 5.006 crashes on
// `assert property` there) and without a trailing semicolon. `##N` delays do not parse in that
// version; use `|->`, `|=>` and `$past`. Name assertions UpperCamelCase with an `_A` suffix.
//
//   `NOC_COVER(Name_C, property)
//
// marks a rare path the tests must reach (a spine spawning into three outputs, a regroup dropping
// its used-up head, a reroute that keeps ejecting): a named cover property on the same clock and
// reset. Verilated with --coverage-user, each one counts the cycles its property held
// (verif/rtl/router_cover_test.cpp requires every one to be hit); without it, nothing.
//
// Under SYNTHESIS (yosys defines it) both macros expand to nothing, so no assertion logic reaches a
// netlist. Simulate with `verilator --assert`; without it the assertions are compiled out.
`ifndef NOC_ASSERT_SVH
`define NOC_ASSERT_SVH

`ifndef SYNTHESIS
`define NOC_ASSERT(name, prop) \
  assert property (@(posedge clk_i) disable iff (!rst_ni) (prop)) \
    else $error("%s failed: %s", `"name`", `"prop`");
`define NOC_COVER(name, prop) \
  name: cover property (@(posedge clk_i) disable iff (!rst_ni) (prop));
`else
`define NOC_ASSERT(name, prop)
`define NOC_COVER(name, prop)
`endif

`endif  // NOC_ASSERT_SVH
