// SPDX-License-Identifier: SHL-0.51
// noc_ni_eject_formal: formal harness of noc_ni_eject through its ports (verif/formal/run.sh;
// docs/verification.md).
//
// Environment: the router ejects only with a credit of the pool (BufDepth credits, a credit
// returned in a cycle spendable from the next), flits of all streams interleave at will, and every
// stream's own flits are legal (a head only between worms, any other flit only inside one); the
// consumer is ready or not at will. Claims: no flit is ever dropped as misplaced or lost to a full
// FIFO; and the reassembly context of one stream is never disturbed by another. For an arbitrary
// stream S, a shadow context kept from S's own delivered flits alone (inside a worm or not, address
// flits left, next payload index) must agree with every annotation (rx_head, rx_addr, rx_pos) the
// unit puts on S's flits. S being arbitrary, this holds for every stream.
// With ViaEjectUnit = 1 the router's side is its real ejection port instead of the pool model: a
// noc_eject_unit (credit counter, registered valid and stream) with the router's switch-traversal
// register for the flit sends whenever the environment wants to and the
// unit shows a credit, and the NI's credits go back to it; then also credits + the flit on the link
// + flits held in the NI = BufDepth.
module noc_ni_eject_formal #(
  parameter int unsigned BufDepth = 2,
  parameter int unsigned NumStreams = 3,
  parameter bit ViaEjectUnit = 1'b0,
  localparam int unsigned StreamW = (NumStreams > 1) ? $clog2(NumStreams) : 1,
  localparam int unsigned PosW = noc_pkg::MoreW,
  localparam int unsigned CountW = $clog2(BufDepth + 1)
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic                      send_i,    // the router sends a flit (ViaEjectUnit: wants to)
  input logic [noc_pkg::FlitW-1:0] flit_i,
  input logic [StreamW-1:0]        stream_i,
  input logic                      rx_ready_i
);
  logic f_first = 1'b1;  // the first cycle: reset is asserted
  always_ff @(posedge clk_i) f_first <= 1'b0;
  always_comb if (f_first) assume (!rst_ni);

  (* anyconst *) logic [StreamW-1:0] f_stream;  // the stream watched
  always_comb assume (32'(f_stream) < NumStreams);

  logic                      credit, rx_valid, rx_head, rx_addr, rx_last, misplaced, overflow;
  logic [StreamW-1:0]        rx_stream;
  logic [PosW-1:0]           rx_pos;
  logic [noc_pkg::DataW-1:0] rx_data;
  logic [CountW-1:0]         held;
  // The router's side: the flit sent (sent, sent_flit, stream_i) and the NI's link in.
  logic                      sent, ej_valid;
  logic [noc_pkg::FlitW-1:0] ej_flit;
  logic [StreamW-1:0]        ej_stream;
  noc_pkg::flit_t            sent_flit;
  logic [CountW-1:0]         pool_q;  // the pool model's credits
  assign sent_flit = flit_i;
  if (ViaEjectUnit) begin : gen_eject_unit
    logic              unit_credit, unit_overflow;
    logic [CountW-1:0] unit_count;
    assign sent = send_i && unit_credit;
    noc_eject_unit #(.BufDepth(BufDepth), .StreamW(StreamW)) u_eject (
      .clk_i, .rst_ni, .send_i(sent), .stream_i, .credit_i(credit),
      .credit_o(unit_credit), .credit_count_o(unit_count), .valid_o(ej_valid),
      .stream_o(ej_stream), .credit_overflow_o(unit_overflow)
    );
    // The router's switch-traversal register: the flit the grant read, on the link in the next
    // cycle, zero without one (noc_router's RAM output through the registered crossbar select).
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ej_flit <= '0;
      else ej_flit <= sent ? flit_i : '0;
    end
    always_comb begin
      if (rst_ni) begin
        assert (!unit_overflow);
        assert ((CountW+1)'(unit_count) + (CountW+1)'(ej_valid) + (CountW+1)'(held) == (CountW+1)'(BufDepth));
      end
    end
  end else begin : gen_pool
    // Sent only with a credit of the pool, spendable from the cycle after its return.
    assign sent      = send_i;
    assign ej_valid  = send_i;
    assign ej_flit   = flit_i;
    assign ej_stream = stream_i;
    always_comb if (rst_ni && send_i) assume (pool_q != '0);
  end

  noc_ni_eject #(.BufDepth(BufDepth), .NumStreams(NumStreams)) dut (
    .clk_i, .rst_ni, .ej_valid_i(ej_valid), .ej_flit_i(ej_flit), .ej_stream_i(ej_stream),
    .ej_credit_o(credit),
    .rx_valid_o(rx_valid), .rx_ready_i, .rx_stream_o(rx_stream), .rx_head_o(rx_head),
    .rx_addr_o(rx_addr), .rx_last_o(rx_last), .rx_pos_o(rx_pos), .rx_data_o(rx_data),
    .held_o(held), .misplaced_o(misplaced), .overflow_o(overflow)
  );

  // Each stream's worm state where the router sends, and the pool model's credits.
  logic [NumStreams-1:0] in_worm_q;  // the stream has sent a head and not yet its tail
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pool_q <= CountW'(BufDepth);
      in_worm_q <= '0;
    end else begin
      pool_q <= pool_q - CountW'(sent) + CountW'(credit);
      for (int s = 0; s < NumStreams; s++) begin
        if (sent && stream_i == StreamW'(s)) in_worm_q[s] <= !sent_flit.tail;
      end
    end
  end
  always_comb begin
    if (rst_ni && sent) begin
      assume (32'(stream_i) < NumStreams);
      for (int s = 0; s < NumStreams; s++) begin
        if (stream_i == StreamW'(s)) assume (sent_flit.head == !in_worm_q[s]);
      end
    end
  end

  // The shadow context of stream f_stream, from its delivered flits only.
  noc_pkg::head_t  rx_as_head;
  logic            open_q;       // inside a worm
  logic [PosW-1:0] addr_left_q;  // address flits still to come
  logic [PosW-1:0] pos_q;        // index of the next payload word
  logic            watched;      // a flit of the watched stream is delivered this cycle
  assign rx_as_head = rx_data;
  assign watched = rx_valid && rx_ready_i && rx_stream == f_stream;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      open_q <= 1'b0;
      addr_left_q <= '0;
      pos_q <= '0;
    end else if (watched) begin
      open_q <= !rx_last;
      if (rx_head) begin
        addr_left_q <= rx_as_head.more;
        pos_q <= '0;
      end else if (addr_left_q != '0) begin
        addr_left_q <= addr_left_q - PosW'(1);
      end else begin
        pos_q <= pos_q + PosW'(1);
      end
    end
  end

  always_comb begin
    if (rst_ni) begin
      assert (!misplaced);
      assert (!overflow);
      if (watched) begin
        assert (rx_head == !open_q);
        if (rx_head) assert (!rx_addr && rx_pos == '0);
        else if (addr_left_q != '0) assert (rx_addr && rx_pos == '0);
        else assert (!rx_addr && rx_pos == pos_q);
      end
    end
  end
endmodule
