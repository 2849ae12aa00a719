// SPDX-License-Identifier: SHL-0.51
// wormcast_hx8k: the board top for the Lattice iCE40-HX8K Breakout Board (iCE40HX8K-CT256).
//
// The 12 MHz oscillator (pin J3) drives an SB_PLL40_CORE to the design clock; the PLL's LOCK is the
// reset request of wormcast_hx8k_core, whose reset synchronizer releases the design a few cycles
// after lock. The PLL settings are parameters: `make fpga` (fpga/build.sh) takes them from `icepll`
// for the clock it is asked for (FPGA_MHZ) and sets them with chparam; the defaults below are
// icepll's for 16 MHz (15.9375 MHz achieved: 12 MHz x (DivF + 1) / (DivR + 1) / 2^DivQ).
// Pins: fpga/hx8k_breakout.pcf.
module wormcast_hx8k #(
  /// PLL reference divider (DIVR).
  parameter int unsigned DivR = 0,
  /// PLL feedback divider (DIVF).
  parameter int unsigned DivF = 84,
  /// PLL output divider (DIVQ).
  parameter int unsigned DivQ = 6,
  /// PLL loop filter range (FILTER_RANGE).
  parameter int unsigned FilterRange = 1,
  /// The design clock the settings above give, in Hz.
  parameter int unsigned ClkHz = 15_937_500,
  /// Test-only fault injection (wormcast_hx8k_core); 0 on the board.
  parameter int unsigned Fault = 0,
  /// Flits per input VC of the self-test's routers (wormcast_hx8k_core).
  parameter int unsigned BufDepth = 1
) (
  /// The board's 12 MHz oscillator.
  input  logic       clk_12m_i,
  /// UART transmit (FPGA to the FTDI's channel B receive: the host's serial port).
  output logic       uart_tx_o,
  /// LEDs D2..D9.
  output logic [7:0] led_o
);

  logic clk, locked;

  SB_PLL40_CORE #(
    .FEEDBACK_PATH("SIMPLE"),
    .DIVR         (4'(DivR)),
    .DIVF         (7'(DivF)),
    .DIVQ         (3'(DivQ)),
    .FILTER_RANGE (3'(FilterRange))
  ) u_pll (
    .REFERENCECLK(clk_12m_i),
    .PLLOUTCORE  (),
    .PLLOUTGLOBAL(clk),
    .LOCK        (locked),
    .EXTFEEDBACK (1'b0),
    .DYNAMICDELAY(8'h00),
    .RESETB      (1'b1),
    .BYPASS      (1'b0),
    .LATCHINPUTVALUE(1'b0),
    .SDI         (1'b0),
    .SCLK        (1'b0),
    .SDO         ()
  );

  wormcast_hx8k_core #(
    .Fault   (Fault),
    .ClkHz   (ClkHz),
    .BufDepth(BufDepth)
  ) u_core (
    .clk_i     (clk),
    .rst_req_ni(locked),
    .uart_tx_o (uart_tx_o),
    .led_o     (led_o)
  );

endmodule
