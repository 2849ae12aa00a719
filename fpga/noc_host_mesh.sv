// SPDX-License-Identifier: SHL-0.51
// noc_host_mesh: an R x C mesh driven by the host over the UART (docs/host-link.md):
// the network of the mesh self-test (rtl/noc_network_top.sv, 4 VCs by the VC-class plan) with a
// noc_ni per node, but the messages come from the host instead of traffic generators. Per node a
// host_inject_queue feeds the NI's message port at the board cycles the host asks for, and a
// host_delivery_log takes every flit from the NI's receive port with the board cycle it arrived
// in; host_link decodes the host's commands (uart_rx) and answers them (uart_tx). The node
// firmware runs on the host: the board only injects each message's words when told and logs what
// arrives.
//
// The board cycle (`now`) counts clock cycles from the release of reset, modulo 2^32.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_host_mesh #(
  /// Mesh nodes along x (2..4).
  parameter int unsigned SizeX = 2,
  /// Mesh nodes along y (2..4).
  parameter int unsigned SizeY = 2,
  /// VCs per router port: 4, the VC-class plan's count on 2D meshes (docs/rtl.md).
  parameter int unsigned NumVcs = 4,
  /// Flits per router input VC buffer (and NI ejection FIFO).
  parameter int unsigned BufDepth = 4,
  /// Entries of a node's injection queue: a message of n words takes n + 1.
  parameter int unsigned InjDepth = 16,
  /// Flits a node's delivery log holds.
  parameter int unsigned LogDepth = 16,
  /// Design clock in Hz: sets the UART's divisor.
  parameter int unsigned ClkHz = 25_000_000,
  /// UART baud rate (8N1), both directions.
  parameter int unsigned Baud = 115_200,
  /// Cycles a command may wait for its next byte (host_link): 4 byte times by default.
  parameter int unsigned TimeoutCycles = 40 * ((ClkHz + Baud / 2) / Baud)
) (
  /// Clock.
  input  logic       clk_i,
  /// Active-low reset, asynchronous assert, deasserted synchronously by the board.
  input  logic       rst_ni,
  /// UART receive line (from the host).
  input  logic       uart_rx_i,
  /// UART transmit line (to the host).
  output logic       uart_tx_o,
  /// Sticky: [2:0] the routers' errors_o (OR), [5:3] the NIs' errors_o (OR), [6] a router drained
  /// a worm, [7] 0.
  output logic [7:0] node_errors_o,
  /// The link's sticky error bits (host_link).
  output logic [7:0] link_errors_o
);

  localparam int unsigned NumNodes    = SizeX * SizeY;
  localparam int unsigned NumNetPorts = 4;
  localparam int unsigned NumPorts    = NumNetPorts + 1;
  localparam int unsigned VcIdW       = $clog2(NumVcs);
  localparam int unsigned FlitW       = noc_pkg::FlitW;
  localparam int unsigned DataW       = noc_pkg::DataW;
  localparam int unsigned StreamW     = $clog2(NumPorts * NumVcs);
  localparam int unsigned PosW        = noc_pkg::MoreW;
  localparam int unsigned LabelW      = $clog2(NumNodes);
  localparam int unsigned InjCountW   = $clog2(InjDepth + 1);
  localparam int unsigned LogCountW   = $clog2(LogDepth + 1);
  localparam int unsigned EntryW      = 8 + DataW + 32;

  if (NumVcs != 4) begin : gen_vcs_check
    $error("noc_host_mesh: NumVcs (%0d) must be 4, the VC-class plan's count on a 2D mesh", NumVcs);
  end

  // The board cycle.
  logic [31:0] now_d, now_q;
  assign now_d = now_q + 32'd1;
  `NOC_FF(now_q, now_d, '0)

  // ---------------------------------------------------------------------------------------------
  // The network and the NIs. Node n's local vectors at [n*W +: W].
  logic [NumNodes-1:0]                      inj_valid, ej_valid;
  logic [NumNodes*VcIdW-1:0]                inj_vc, ej_vc;
  logic [NumNodes*FlitW-1:0]                inj_flit, ej_flit;
  logic [NumNodes*NumVcs-1:0]               inj_credit, ej_credit;
  logic [NumNodes*StreamW-1:0]              ej_stream;
  logic [NumNodes*NumPorts*NumVcs-1:0]      draining;
  logic [NumNodes*noc_pkg::RouteDropsW-1:0] drops;
  logic [NumNodes*noc_pkg::ErrorsW-1:0]     r_errors;
  logic [NumNodes*3-1:0]                    ni_errors;

  noc_network_top #(
    .SizeX   (SizeX),
    .SizeY   (SizeY),
    .Torus   (0),
    .NumLocal(1),
    .NumVcs  (NumVcs),
    .BufDepth(BufDepth),
    .LabelW  (LabelW)
  ) u_net (
    .clk_i,
    .rst_ni,
    .inj_valid_i  (inj_valid),
    .inj_vc_i     (inj_vc),
    .inj_flit_i   (inj_flit),
    .inj_credit_o (inj_credit),
    .ej_valid_o   (ej_valid),
    .ej_vc_o      (ej_vc),
    .ej_flit_o    (ej_flit),
    .ej_credit_i  (ej_credit),
    .ej_stream_o  (ej_stream),
    .draining_o   (draining),
    .route_drops_o(drops),
    .errors_o     (r_errors)
  );

  // Per node: the message port from the queue, the receive port into the log.
  logic [NumNodes-1:0]           msg_valid, msg_ready, msg_last, rx_valid, rx_ready, rx_head, rx_addr, rx_last;
  logic [NumNodes*DataW-1:0]     msg_data, rx_data;
  logic [NumNodes*StreamW-1:0]   rx_stream;
  logic [NumNodes*PosW-1:0]      rx_pos;
  // Between the queues and logs and the link.
  logic [NumNodes-1:0]           push, late, log_pop, stall;
  logic                          push_start, push_last;
  logic [DataW-1:0]              push_data;
  logic [NumNodes*InjCountW-1:0] inj_free;
  logic [NumNodes*8-1:0]         inj_queued, node_errors;
  logic [NumNodes*LogCountW-1:0] log_count;
  logic [NumNodes*EntryW-1:0]    log_front;

  for (genvar n = 0; n < NumNodes; n++) begin : gen_node
    noc_ni #(
      .NumNetPorts(NumNetPorts),
      .NumLocal   (1),
      .NumVcs     (NumVcs),
      .BufDepth   (BufDepth)
    ) u_ni (
      .clk_i,
      .rst_ni,
      .msg_valid_i (msg_valid[n]),
      .msg_ready_o (msg_ready[n]),
      .msg_data_i  (msg_data[n*DataW +: DataW]),
      .msg_last_i  (msg_last[n]),
      .inj_valid_o (inj_valid[n]),
      .inj_vc_o    (inj_vc[n*VcIdW +: VcIdW]),
      .inj_flit_o  (inj_flit[n*FlitW +: FlitW]),
      .inj_credit_i(inj_credit[n*NumVcs +: NumVcs]),
      .ej_valid_i  (ej_valid[n]),
      .ej_flit_i   (ej_flit[n*FlitW +: FlitW]),
      .ej_stream_i (ej_stream[n*StreamW +: StreamW]),
      .ej_credit_o (ej_credit[n*NumVcs +: NumVcs]),
      .rx_valid_o  (rx_valid[n]),
      .rx_ready_i  (rx_ready[n]),
      .rx_stream_o (rx_stream[n*StreamW +: StreamW]),
      .rx_head_o   (rx_head[n]),
      .rx_addr_o   (rx_addr[n]),
      .rx_last_o   (rx_last[n]),
      .rx_pos_o    (rx_pos[n*PosW +: PosW]),
      .rx_data_o   (rx_data[n*DataW +: DataW]),
      .errors_o    (ni_errors[n*3 +: 3])
    );

    host_inject_queue #(
      .Depth(InjDepth),
      .DataW(DataW)
    ) u_queue (
      .clk_i,
      .rst_ni,
      .now_i       (now_q),
      .push_i      (push[n]),
      .push_start_i(push_start),
      .push_last_i (push_last),
      .push_data_i (push_data),
      .free_o      (inj_free[n*InjCountW +: InjCountW]),
      .queued_o    (inj_queued[n*8 +: 8]),
      .msg_valid_o (msg_valid[n]),
      .msg_ready_i (msg_ready[n]),
      .msg_data_o  (msg_data[n*DataW +: DataW]),
      .msg_last_o  (msg_last[n]),
      .late_o      (late[n])
    );

    host_delivery_log #(
      .Depth  (LogDepth),
      .DataW  (DataW),
      .StreamW(StreamW)
    ) u_log (
      .clk_i,
      .rst_ni,
      .now_i      (now_q),
      .rx_valid_i (rx_valid[n]),
      .rx_ready_o (rx_ready[n]),
      .rx_stream_i(rx_stream[n*StreamW +: StreamW]),
      .rx_head_i  (rx_head[n]),
      .rx_addr_i  (rx_addr[n]),
      .rx_last_i  (rx_last[n]),
      .rx_data_i  (rx_data[n*DataW +: DataW]),
      .stall_o    (stall[n]),
      .count_o    (log_count[n*LogCountW +: LogCountW]),
      .front_o    (log_front[n*EntryW +: EntryW]),
      .pop_i      (log_pop[n])
    );

    // The node's sticky error byte.
    logic [7:0] err_d, err_q;
    assign err_d = err_q | {1'b0, drops[n*noc_pkg::RouteDropsW +: noc_pkg::RouteDropsW] != '0,
                            ni_errors[n*3 +: 3], r_errors[n*noc_pkg::ErrorsW +: 3]};
    `NOC_FF(err_q, err_d, 8'h00)
    assign node_errors[n*8 +: 8] = err_q;
  end

  // ---------------------------------------------------------------------------------------------
  // The UART and the link.
  logic [7:0] rx_byte, tx_byte;
  logic       rx_byte_valid, rx_frame_error, tx_valid, tx_ready;

  uart_rx #(
    .ClkHz(ClkHz),
    .Baud (Baud)
  ) u_uart_rx (
    .clk_i,
    .rst_ni,
    .rx_i         (uart_rx_i),
    .data_o       (rx_byte),
    .valid_o      (rx_byte_valid),
    .frame_error_o(rx_frame_error)
  );

  host_link #(
    .NumNodes     (NumNodes),
    .DataW        (DataW),
    .InjDepth     (InjDepth),
    .LogDepth     (LogDepth),
    .TimeoutCycles(TimeoutCycles)
  ) u_link (
    .clk_i,
    .rst_ni,
    .now_i           (now_q),
    .rx_data_i       (rx_byte),
    .rx_valid_i      (rx_byte_valid),
    .rx_frame_error_i(rx_frame_error),
    .tx_data_o       (tx_byte),
    .tx_valid_o      (tx_valid),
    .tx_ready_i      (tx_ready),
    .push_o          (push),
    .push_start_o    (push_start),
    .push_last_o     (push_last),
    .push_data_o     (push_data),
    .inj_free_i      (inj_free),
    .inj_queued_i    (inj_queued),
    .late_i          (late),
    .log_count_i     (log_count),
    .log_front_i     (log_front),
    .log_pop_o       (log_pop),
    .stall_i         (stall),
    .node_errors_i   (node_errors),
    .link_errors_o   (link_errors_o)
  );

  uart_tx #(
    .ClkHz(ClkHz),
    .Baud (Baud)
  ) u_uart_tx (
    .clk_i,
    .rst_ni,
    .data_i (tx_byte),
    .valid_i(tx_valid),
    .ready_o(tx_ready),
    .tx_o   (uart_tx_o)
  );

  always_comb begin
    node_errors_o = '0;
    for (int n = 0; n < NumNodes; n++) node_errors_o = node_errors_o | node_errors[n*8 +: 8];
  end

  // The draining status is covered by route_drops_o; the ejection ports' VC is always 0; the
  // payload index is in the host's reassembly.
  logic unused;
  assign unused = ^{draining, ej_vc, rx_pos};

endmodule
