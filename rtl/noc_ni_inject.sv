// SPDX-License-Identifier: SHL-0.51
// noc_ni_inject: the packetizer of one injection channel of the RTL network interface (docs/rtl.md,
// "Network interface"): a valid/ready stream of message words in, link flits with per-VC credits
// out, to one local input port of noc_router.
//
// A message is its words in order: the head (a noc_pkg::head_t), the head's `more` address flits
// (docs/header-format.md), then the payload words; `msg_last_i` marks the last word. Each word
// becomes one flit: head = 1 on the first word of a message, tail = 1 on the last. The whole worm
// travels in one VC, the one the head's class maps to: vc_class mod NumVcs, as the router maps
// every class onto a VC ("VC-class plan") and as sim/node_interface.cpp's injection_vc() does.
// A word goes only with a credit of that VC (one per free slot of the router's input VC buffer,
// BufDepth after reset). A credit the router returns in a cycle can be spent in the same cycle,
// as the harness's C++ NI does (it adds the returned credits, then decides): the router's credit
// outputs are registers, so this path starts at a flip-flop.
//
// No buffer: the link is combinational from the message port (the word is the flit), so the NI
// adds no cycle and no storage; the router registers the flit on arrival. A source that needs a
// register in front of the router's route compute puts it before msg_*_i.
`include "noc_assert.svh"
`include "noc_registers.svh"

module noc_ni_inject #(
  /// Virtual channels of the router's local input port: 1, 2 or 4 (noc_router NumVcs).
  parameter int unsigned NumVcs = 2,
  /// Flits per router input VC buffer: the credits per VC after reset (noc_router BufDepth, >= 1).
  parameter int unsigned BufDepth = 4,
  /// Width of a VC id on a link. Derived, do not override.
  localparam int unsigned VcIdW = (NumVcs > 1) ? $clog2(NumVcs) : 1,
  /// Width of a credit count (0..BufDepth). Derived, do not override.
  localparam int unsigned CountW = $clog2(BufDepth + 1)
) (
  /// Clock.
  input  logic                      clk_i,
  /// Asynchronous active-low reset: BufDepth credits per VC, the next word is a head.
  input  logic                      rst_ni,

  // Message port (valid/ready): the words of one message after another.
  /// A message word is offered. Once offered, hold it (and its data) until msg_ready_o.
  input  logic                      msg_valid_i,
  /// The word is taken this cycle (it leaves as a flit). Depends on msg_data_i at the first word
  /// of a message (its class picks the VC), never on msg_valid_i.
  output logic                      msg_ready_o,
  /// The word: the head (noc_pkg::head_t), an address flit or a payload word.
  input  logic [noc_pkg::DataW-1:0] msg_data_i,
  /// The word is the last of its message (the flit's tail flag). A message has at least the head
  /// and its `more` address flits.
  input  logic                      msg_last_i,

  // Link to the router's local input port (noc_router in_*_i / in_credit_o of that port).
  /// A flit goes to the router this cycle (only with a credit of its VC).
  output logic                      inj_valid_o,
  /// The flit's VC: the head's vc_class mod NumVcs, for every flit of the worm.
  output logic [VcIdW-1:0]          inj_vc_o,
  /// The flit (noc_pkg::flit_t): {head, tail, data}.
  output logic [noc_pkg::FlitW-1:0] inj_flit_o,
  /// Credits from the router, bit v for VC v (its in_credit_o bits of this port).
  input  logic [NumVcs-1:0]         inj_credit_i,

  /// Credits per VC, VC v in bits [v*CountW +: CountW] (for tests and debugging).
  output logic [NumVcs*CountW-1:0]  credit_count_o,
  /// A credit came back to a VC whose count is full: it is dropped (combinational; the top keeps it
  /// sticky). The router sent more credits than flits it received.
  output logic                      credit_overflow_o
);

  noc_pkg::head_t  word_head;  // msg_data_i read as a head (meaningful at the first word)
  noc_pkg::flit_t  flit;
  logic            first_d, first_q;  // the next word is the head of a message
  logic [VcIdW-1:0] vc_d, vc_q;       // the worm's VC, chosen at its head
  logic [VcIdW-1:0] vc;               // this word's VC
  logic [NumVcs*CountW-1:0] count_d, count_q;
  logic [NumVcs-1:0] available;       // VC v may send this cycle
  logic [NumVcs-1:0] consume;         // VC v's flit leaves this cycle
  logic [NumVcs-1:0] overflow;        // VC v's returned credit does not fit
  logic            send;
  // Address flits still due in the current message: only the assertion on message structure
  // reads it (synthesis drops it).
  logic [noc_pkg::MoreW-1:0] addr_left_d, addr_left_q;

  assign word_head = msg_data_i;
  // The NI reads only the class and the address-flit count of a head; the rest passes through.
  logic unused_head;
  assign unused_head = ^{word_head.mode, word_head.network, word_head.vc_class, word_head.cf, word_head.dest,
                         word_head.ident};

  // The class's low bits are the VC (NumVcs is a power of two no wider than the class field).
  if (NumVcs > 1) begin : gen_vc_of_class
    assign vc = first_q ? word_head.vc_class[VcIdW-1:0] : vc_q;
  end else begin : gen_single_vc
    assign vc = 1'b0;
  end

  // A credit returned this cycle counts at once, so a VC at 0 credits may send in the cycle its
  // credit comes back.
  always_comb begin
    for (int v = 0; v < NumVcs; v++) begin
      available[v] = (count_q[v*CountW +: CountW] != '0) || inj_credit_i[v];
    end
  end

  // A mux over the VCs (constant slices; docs/sv-subset.md: no variable part-select where area counts).
  always_comb begin
    msg_ready_o = 1'b0;
    for (int v = 0; v < NumVcs; v++) begin
      if (vc == VcIdW'(v)) begin
        msg_ready_o = available[v];
      end
    end
  end
  assign send = msg_valid_i && msg_ready_o;

  assign flit.head = first_q;
  assign flit.tail = msg_last_i;
  assign flit.data = msg_data_i;

  assign inj_valid_o = send;
  assign inj_vc_o    = vc;
  assign inj_flit_o  = flit;

  // Credits per VC: +1 per credit returned, -1 per flit sent; a credit that would exceed BufDepth
  // is dropped (and flagged) so the count never wraps.
  always_comb begin
    count_d = count_q;
    for (int v = 0; v < NumVcs; v++) begin
      consume[v]  = send && (vc == VcIdW'(v));
      overflow[v] = inj_credit_i[v] && !consume[v] && (count_q[v*CountW +: CountW] == CountW'(BufDepth));
      if (inj_credit_i[v] && !consume[v] && !overflow[v]) begin
        count_d[v*CountW +: CountW] = count_q[v*CountW +: CountW] + CountW'(1);
      end else if (consume[v] && !inj_credit_i[v]) begin
        count_d[v*CountW +: CountW] = count_q[v*CountW +: CountW] - CountW'(1);
      end
    end
  end
  assign credit_overflow_o = |overflow;
  assign credit_count_o    = count_q;

  assign first_d = send ? msg_last_i : first_q;
  assign vc_d    = (send && first_q) ? vc : vc_q;

  always_comb begin
    addr_left_d = addr_left_q;
    if (send) begin
      if (first_q) begin
        addr_left_d = word_head.more;
      end else if (addr_left_q != '0) begin
        addr_left_d = addr_left_q - noc_pkg::MoreW'(1);
      end
    end
  end

  `NOC_FF(first_q, first_d, 1'b1)
  `NOC_FF(vc_q, vc_d, '0)
  `NOC_FF(count_q, count_d, {NumVcs{CountW'(BufDepth)}})
  `NOC_FF(addr_left_q, addr_left_d, '0)

  // A flit leaves only with a credit of its VC (the router's buffer has room).
  `NOC_ASSERT(SendNeedsCredit_A, inj_valid_o |-> available[inj_vc_o])
  // Head before body: a message's first flit is its head, and only its first; after a tail the
  // next flit is a head.
  `NOC_ASSERT(HeadFirst_A, inj_valid_o |-> (flit.head == first_q))
  `NOC_ASSERT(HeadAfterTail_A, (inj_valid_o && flit.tail) |=> first_q)
  // The VC is the head's class mod NumVcs for every flit of the worm.
  `NOC_ASSERT(WormKeepsItsVc_A, (inj_valid_o && !first_q) |-> (inj_vc_o == vc_q))
  // A message carries its head's `more` address flits: it ends no earlier than the last of them.
  `NOC_ASSERT(MessageKeepsItsAddressFlits_A,
              (send && msg_last_i) |-> (first_q ? (word_head.more == '0) : (addr_left_q <= noc_pkg::MoreW'(1))))
  // A valid/ready source holds its word until it is taken.
  `NOC_ASSERT(MessageWordHeld_A, (msg_valid_i && !msg_ready_o) |=> (msg_valid_i && $stable(msg_data_i)
                                                                   && $stable(msg_last_i)))
  for (genvar v = 0; v < NumVcs; v++) begin : gen_credit_checks
    // Credits stay within 0..BufDepth: the router returns no more than it was sent.
    `NOC_ASSERT(CreditsInRange_A, count_q[v*CountW +: CountW] <= CountW'(BufDepth))
    `NOC_ASSERT(CreditReturnFits_A, inj_credit_i[v] |-> !overflow[v])
  end

endmodule
