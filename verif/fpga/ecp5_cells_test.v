// SPDX-License-Identifier: SHL-0.51
// verif/fpga/ecp5_cells_check.sh: a small design that uses every cell kind the ULX3S build's
// routed netlist holds, to check the ECP5 cell models of make fpga-check BOARD=ulx3s
// (verif/fpga/ecp5_cells.v) against plain Verilog: a power-on reset request and a reset
// synchronizer (flip-flops without and with asynchronous reset), an adder chain (CCU2C), a 16 x 8
// distributed RAM with an initial content written and read at LFSR-driven addresses
// (TRELLIS_DPR16X4: nextpnr's TRELLIS_RAMW and DPRAM slices, the INITVAL permutation), a signed
// 16 x 16 multiply (MULT18X18D) and flip-flops with an enable. Same ports as wormcast_ulx3s, so
// fpga/ulx3s/ulx3s_v20.lpf places it.
module ecp5_cells_test (
  input  wire       clk_25mhz_i,
  input  wire       uart_rx_i,
  output wire       uart_tx_o,
  output wire [7:0] led_o
);
  wire clk = clk_25mhz_i;
  reg por_q = 1'b0;
  always @(posedge clk) por_q <= 1'b1;
  reg [2:0] sync_q;
  always @(posedge clk or negedge por_q)
    if (!por_q) sync_q <= 3'b000;
    else sync_q <= {sync_q[1:0], 1'b1};
  wire rst_n = sync_q[2];

  reg [23:0] count_q;
  always @(posedge clk or negedge rst_n)
    if (!rst_n) count_q <= 24'd0;
    else count_q <= count_q + 24'd3;

  reg [15:0] lfsr_q;
  reg [3:0] waddr_q, raddr_q;
  always @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      lfsr_q  <= 16'hace1;
      waddr_q <= 4'd0;
      raddr_q <= 4'd5;
    end else begin
      lfsr_q  <= {lfsr_q[14:0], lfsr_q[15] ^ lfsr_q[13] ^ lfsr_q[12] ^ lfsr_q[10]};
      waddr_q <= waddr_q + {3'b000, lfsr_q[0]};
      raddr_q <= raddr_q + {3'b000, lfsr_q[3]};
    end

  reg [7:0] mem [0:15];
  integer i;
  initial for (i = 0; i < 16; i = i + 1) mem[i] = i * 37 + 5;
  always @(posedge clk) if (lfsr_q[0]) mem[waddr_q] <= lfsr_q[15:8] ^ count_q[7:0];
  wire [7:0] rdata = mem[raddr_q];

  reg [15:0] x_q, y_q;
  reg [31:0] p_q;
  always @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      x_q <= 16'd0;
      y_q <= 16'd0;
      p_q <= 32'd0;
    end else begin
      x_q <= {rdata, count_q[15:8]};
      y_q <= lfsr_q ^ count_q[23:8];
      p_q <= $signed(x_q) * $signed(y_q);
    end

  reg [7:0] acc_q;
  always @(posedge clk or negedge rst_n)
    if (!rst_n) acc_q <= 8'd0;
    else if (lfsr_q[5]) acc_q <= acc_q ^ p_q[31:24] ^ p_q[7:0] ^ rdata;

  assign led_o = acc_q;
  assign uart_tx_o = ^p_q ^ uart_rx_i;
endmodule
