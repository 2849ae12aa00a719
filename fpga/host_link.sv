// SPDX-License-Identifier: SHL-0.51
// host_link: the board's end of the host link's command protocol (docs/host-link.md, "The
// protocol"): decodes the commands the host sends over the UART and answers each one.
//
//   'S'                                  status: answered by 'S' and the status block
//   'I' node cycle[4] n word[n]          inject a message of n words at node's NI at board cycle
//                                        `cycle`: answered by 'I' node code free
//   'R' node max                         read up to max of node's logged flits: answered by 'R'
//                                        node k and k records {flags, word, cycle[4]}
//   any other byte b                     answered by 'E' b
//
// Multi-byte fields are little-endian; a word is DataW / 8 bytes. The decoder takes one byte per
// cycle as uart_rx delivers it. A command's bytes must follow each other within TimeoutCycles
// cycles, else the partial command is dropped (LinkErrTimeout) and the next byte starts a new
// command: how the host resynchronizes. The responder sends one response at a time; a command
// that completes while a response is still being sent loses its response (LinkErrOverrun): the
// host sends a command only after the previous answer arrived.
`include "noc_assert.svh"
`include "noc_registers.svh"

module host_link #(
  /// Nodes of the network (1..16).
  parameter int unsigned NumNodes = 4,
  /// Width of a message word (noc_pkg::DataW): 32 or 64.
  parameter int unsigned DataW = 32,
  /// Entries of a node's injection queue (host_inject_queue Depth).
  parameter int unsigned InjDepth = 32,
  /// Entries of a node's delivery log (host_delivery_log Depth).
  parameter int unsigned LogDepth = 32,
  /// Cycles a command may wait for its next byte.
  parameter int unsigned TimeoutCycles = 4096,
  /// Width of an injection queue's free count. Derived, do not override.
  localparam int unsigned InjCountW = $clog2(InjDepth + 1),
  /// Width of a delivery log's count. Derived, do not override.
  localparam int unsigned LogCountW = $clog2(LogDepth + 1),
  /// Width of a delivery log entry (host_delivery_log). Derived, do not override.
  localparam int unsigned EntryW = 8 + DataW + 32
) (
  /// Clock.
  input  logic                          clk_i,
  /// Asynchronous active-low reset: no command, no response, the counters and errors cleared.
  input  logic                          rst_ni,
  /// The board cycle (free-running from reset).
  input  logic [31:0]                   now_i,
  /// A byte from the host (uart_rx): the byte, valid for one cycle, a framing error.
  input  logic [7:0]                    rx_data_i,
  input  logic                          rx_valid_i,
  input  logic                          rx_frame_error_i,
  /// A byte to the host (uart_tx's valid/ready handshake).
  output logic [7:0]                    tx_data_o,
  output logic                          tx_valid_o,
  input  logic                          tx_ready_i,
  /// Injection queues (host_inject_queue): write node n's queue (bit n), the entry, node n's free
  /// entries and complete messages, node n's late starts.
  output logic [NumNodes-1:0]           push_o,
  output logic                          push_start_o,
  output logic                          push_last_o,
  output logic [DataW-1:0]              push_data_o,
  input  logic [NumNodes*InjCountW-1:0] inj_free_i,
  input  logic [NumNodes*8-1:0]         inj_queued_i,
  input  logic [NumNodes-1:0]           late_i,
  /// Delivery logs (host_delivery_log): node n's count, its oldest entry, take it (bit n), and
  /// node n's stalls.
  input  logic [NumNodes*LogCountW-1:0] log_count_i,
  input  logic [NumNodes*EntryW-1:0]    log_front_i,
  output logic [NumNodes-1:0]           log_pop_o,
  input  logic [NumNodes-1:0]           stall_i,
  /// Node n's error byte for the status block: [2:0] its router's errors_o, [5:3] its NI's
  /// errors_o, [6] its router drained a worm, [7] 0.
  input  logic [NumNodes*8-1:0]         node_errors_i,
  /// The sticky link error bits of the status block (for the board's LEDs).
  output logic [7:0]                    link_errors_o
);

  /// Command and response bytes.
  localparam logic [7:0] OpStatus = 8'h53;  // 'S'
  localparam logic [7:0] OpInject = 8'h49;  // 'I'
  localparam logic [7:0] OpRead   = 8'h52;  // 'R'
  localparam logic [7:0] OpError  = 8'h45;  // 'E'
  /// Inject answers' codes.
  localparam logic [7:0] CodeAccepted = 8'd0;
  localparam logic [7:0] CodeBadNode  = 8'd1;
  localparam logic [7:0] CodeBadLen   = 8'd2;
  localparam logic [7:0] CodeNoRoom   = 8'd3;
  /// Sticky link error bits of the status block.
  localparam int unsigned LinkErrCommand  = 0;  // an unknown command byte
  localparam int unsigned LinkErrInject   = 1;  // an inject command was refused
  localparam int unsigned LinkErrTimeout  = 2;  // a partial command timed out
  localparam int unsigned LinkErrOverrun  = 3;  // a response was lost to the one being sent
  localparam int unsigned LinkErrFrame    = 4;  // a byte with a low stop bit
  /// Bytes of a word and of a read record.
  localparam int unsigned WordBytes   = DataW / 8;
  localparam int unsigned RecordBytes = 1 + WordBytes + 4;
  /// Bytes of the status block before the per-node fields (response byte included).
  localparam int unsigned StatusHead  = 14;
  localparam int unsigned StatusBytes = StatusHead + 4 * NumNodes;
  localparam int unsigned TimeW       = $clog2(TimeoutCycles + 1);
  localparam int unsigned NodeW       = (NumNodes > 1) ? $clog2(NumNodes) : 1;

  if (NumNodes < 1 || NumNodes > 16) begin : gen_nodes_check
    $error("host_link: NumNodes (%0d) must be 1..16", NumNodes);
  end
  if (DataW != 32 && DataW != 64) begin : gen_width_check
    $error("host_link: DataW (%0d) must be 32 or 64", DataW);
  end
  if (InjDepth > 256 || LogDepth > 128) begin : gen_depth_check
    $error("host_link: InjDepth (%0d) must be at most 256 and LogDepth (%0d) at most 128", InjDepth, LogDepth);
  end

  // ---------------------------------------------------------------------------------------------
  // Decoder.
  typedef enum logic [2:0] {
    DecIdle, DecInjNode, DecInjCycle, DecInjLen, DecInjWords, DecReadNode, DecReadMax
  } dec_e;

  // A response the decoder asks for (the responder takes it when idle).
  typedef enum logic [2:0] {RespNone, RespStatus, RespInject, RespRead, RespError} resp_e;

  dec_e              dec_d, dec_q;
  logic [7:0]        node_d, node_q;        // the command's node byte
  logic [31:0]       cycle_d, cycle_q;      // the inject command's start cycle, shifted in
  logic [1:0]        cnt_d, cnt_q;          // cycle bytes so far
  logic [7:0]        left_d, left_q;        // words still to come
  logic [DataW-1:0]  word_d, word_q;        // the word so far, shifted in from the top
  logic [3:0]        wbyte_d, wbyte_q;      // bytes of the word so far
  logic [7:0]        code_d, code_q;        // the inject command's answer code
  logic [TimeW-1:0]  idle_d, idle_q;        // cycles since the command's last byte
  logic [7:0]        link_err_d, link_err_q;
  resp_e             req;                   // this cycle's response request
  resp_e             resp_d, resp_q;        // the response being sent
  logic [7:0]        req_arg;               // its byte: the error byte, or the read's max

  // The addressed node's free entries (0 for a node that does not exist).
  logic [InjCountW-1:0] node_free;
  always_comb begin
    node_free = '0;
    for (int n = 0; n < NumNodes; n++) begin
      if (node_q == 8'(n)) node_free = inj_free_i[n*InjCountW +: InjCountW];
    end
  end

  always_comb begin
    dec_d        = dec_q;
    node_d       = node_q;
    cycle_d      = cycle_q;
    cnt_d        = cnt_q;
    left_d       = left_q;
    word_d       = word_q;
    wbyte_d      = wbyte_q;
    code_d       = code_q;
    idle_d       = (dec_q == DecIdle) ? '0 : idle_q + TimeW'(1);
    link_err_d   = link_err_q;
    req          = RespNone;
    req_arg      = rx_data_i;
    push_o       = '0;
    push_start_o = 1'b0;
    push_last_o  = 1'b0;
    push_data_o  = word_q;
    if (rx_frame_error_i) link_err_d[LinkErrFrame] = 1'b1;
    if (rx_valid_i) begin
      idle_d = '0;
      unique case (dec_q)
        DecIdle: begin
          unique case (rx_data_i)
            OpStatus: req = RespStatus;
            OpInject: dec_d = DecInjNode;
            OpRead:   dec_d = DecReadNode;
            default: begin
              req                        = RespError;
              link_err_d[LinkErrCommand] = 1'b1;
            end
          endcase
        end
        DecInjNode: begin
          node_d = rx_data_i;
          cnt_d  = 2'd0;
          dec_d  = DecInjCycle;
        end
        DecInjCycle: begin
          cycle_d = {rx_data_i, cycle_q[31:8]};
          cnt_d   = cnt_q + 2'd1;
          if (cnt_q == 2'd3) dec_d = DecInjLen;
        end
        DecInjLen: begin
          left_d  = rx_data_i;
          wbyte_d = '0;
          dec_d   = DecInjWords;
          if (node_q >= 8'(NumNodes)) begin
            code_d = CodeBadNode;
          end else if (rx_data_i == 8'd0 || 9'(rx_data_i) >= 9'(InjDepth)) begin
            code_d = CodeBadLen;
          end else if (9'(rx_data_i) + 9'd1 > 9'(node_free)) begin
            code_d = CodeNoRoom;
          end else begin
            code_d       = CodeAccepted;
            push_o       = NumNodes'(1) << node_q[NodeW-1:0];
            push_start_o = 1'b1;
            push_data_o  = DataW'(cycle_q);
          end
          if (rx_data_i == 8'd0) begin
            req   = RespInject;
            dec_d = DecIdle;
          end
          if (code_d != CodeAccepted) link_err_d[LinkErrInject] = 1'b1;
        end
        DecInjWords: begin
          word_d  = {rx_data_i, word_q[DataW-1:8]};
          wbyte_d = wbyte_q + 4'd1;
          if (wbyte_q == 4'(WordBytes - 1)) begin
            wbyte_d     = '0;
            left_d      = left_q - 8'd1;
            push_last_o = (left_q == 8'd1);
            push_data_o = word_d;
            if (code_q == CodeAccepted) push_o = NumNodes'(1) << node_q[NodeW-1:0];
            if (left_q == 8'd1) begin
              req   = RespInject;
              dec_d = DecIdle;
            end
          end
        end
        DecReadNode: begin
          node_d = rx_data_i;
          dec_d  = DecReadMax;
        end
        DecReadMax: begin
          req   = RespRead;
          dec_d = DecIdle;
        end
        default: dec_d = DecIdle;
      endcase
    end else if (dec_q != DecIdle && idle_q == TimeW'(TimeoutCycles)) begin
      dec_d                      = DecIdle;
      link_err_d[LinkErrTimeout] = 1'b1;
    end
    // The responder takes a request only when idle.
    if (req != RespNone && resp_q != RespNone) link_err_d[LinkErrOverrun] = 1'b1;
  end

  `NOC_FF(dec_q, dec_d, DecIdle)
  `NOC_FF(node_q, node_d, '0)
  `NOC_FF(cycle_q, cycle_d, '0)
  `NOC_FF(cnt_q, cnt_d, '0)
  `NOC_FF(left_q, left_d, '0)
  `NOC_FF(word_q, word_d, '0)
  `NOC_FF(wbyte_q, wbyte_d, '0)
  `NOC_FF(code_q, code_d, '0)
  `NOC_FF(idle_q, idle_d, '0)

  // ---------------------------------------------------------------------------------------------
  // Counters of the status block: late starts and stalled cycles, summed over the nodes, 16 bits
  // saturating.
  logic [15:0] late_d, late_q, stall_d, stall_q;
  always_comb begin
    late_d  = late_q;
    stall_d = stall_q;
    if (late_i != '0 && late_q != 16'hffff) late_d = late_q + 16'd1;
    if (stall_i != '0 && stall_q != 16'hffff) stall_d = stall_q + 16'd1;
  end
  `NOC_FF(late_q, late_d, '0)
  `NOC_FF(stall_q, stall_d, '0)

  // ---------------------------------------------------------------------------------------------
  // Responder.
  logic [7:0]  rnode_d, rnode_q;    // the response's node
  logic [7:0]  rarg_d, rarg_q;      // the error byte, or the inject code
  logic [7:0]  idx_d, idx_q;        // byte of the response's fixed part being sent
  logic [7:0]  recs_d, recs_q;      // read records still to send
  logic [3:0]  rbyte_d, rbyte_q;    // byte of the current record
  logic [31:0] snap_d, snap_q;      // the status block's board cycle

  // The response node's fields.
  logic [LogCountW-1:0] rnode_count;
  logic [EntryW-1:0]    rnode_front;
  logic [InjCountW-1:0] rnode_free;
  always_comb begin
    rnode_count = '0;
    rnode_front = '0;
    rnode_free  = '0;
    for (int n = 0; n < NumNodes; n++) begin
      if (rnode_q == 8'(n)) begin
        rnode_count = log_count_i[n*LogCountW +: LogCountW];
        rnode_front = log_front_i[n*EntryW +: EntryW];
        rnode_free  = inj_free_i[n*InjCountW +: InjCountW];
      end
    end
  end

  // Byte `idx_q` of the status block.
  logic [7:0] status_byte;
  always_comb begin
    status_byte = 8'h00;
    unique case (idx_q)
      8'd0:    status_byte = OpStatus;
      8'd1:    status_byte = snap_q[7:0];
      8'd2:    status_byte = snap_q[15:8];
      8'd3:    status_byte = snap_q[23:16];
      8'd4:    status_byte = snap_q[31:24];
      8'd5:    status_byte = late_q[7:0];
      8'd6:    status_byte = late_q[15:8];
      8'd7:    status_byte = stall_q[7:0];
      8'd8:    status_byte = stall_q[15:8];
      8'd9:    status_byte = link_err_q;
      8'd10:   status_byte = 8'(WordBytes);
      8'd11:   status_byte = 8'(NumNodes);
      8'd12:   status_byte = 8'(InjDepth - 1);
      8'd13:   status_byte = 8'(LogDepth);
      default: begin
        for (int n = 0; n < NumNodes; n++) begin
          if (idx_q == 8'(StatusHead + 4 * n)) status_byte = node_errors_i[n*8 +: 8];
          if (idx_q == 8'(StatusHead + 4 * n + 1)) status_byte = 8'(inj_free_i[n*InjCountW +: InjCountW]);
          if (idx_q == 8'(StatusHead + 4 * n + 2)) status_byte = inj_queued_i[n*8 +: 8];
          if (idx_q == 8'(StatusHead + 4 * n + 3)) status_byte = 8'(log_count_i[n*LogCountW +: LogCountW]);
        end
      end
    endcase
  end

  // Byte `rbyte_q` of the response node's oldest record: flags, word, cycle (little-endian).
  logic [7:0] record_byte;
  always_comb begin
    record_byte = rnode_front[EntryW-1 -: 8];
    for (int b = 0; b < WordBytes; b++) begin
      if (rbyte_q == 4'(1 + b)) record_byte = rnode_front[32 + 8 * b +: 8];
    end
    for (int b = 0; b < 4; b++) begin
      if (rbyte_q == 4'(1 + WordBytes + b)) record_byte = rnode_front[8 * b +: 8];
    end
  end

  logic taken, in_records;
  assign in_records = (resp_q == RespRead) && idx_q == 8'd3;
  assign taken      = (resp_q != RespNone) && tx_ready_i;  // tx_valid_o is resp_q != RespNone

  always_comb begin
    resp_d     = resp_q;
    rnode_d    = rnode_q;
    rarg_d     = rarg_q;
    idx_d      = idx_q;
    recs_d     = recs_q;
    rbyte_d    = rbyte_q;
    snap_d     = snap_q;
    tx_valid_o = 1'b0;
    tx_data_o  = 8'h00;
    log_pop_o  = '0;
    unique case (resp_q)
      RespStatus: begin
        tx_valid_o = 1'b1;
        tx_data_o  = status_byte;
        if (taken) begin
          idx_d = idx_q + 8'd1;
          if (idx_q == 8'(StatusBytes - 1)) resp_d = RespNone;
        end
      end
      RespInject: begin
        tx_valid_o = 1'b1;
        unique case (idx_q)
          8'd0:    tx_data_o = OpInject;
          8'd1:    tx_data_o = rnode_q;
          8'd2:    tx_data_o = rarg_q;
          default: tx_data_o = 8'(rnode_free);
        endcase
        if (taken) begin
          idx_d = idx_q + 8'd1;
          if (idx_q == 8'd3) resp_d = RespNone;
        end
      end
      RespRead: begin
        tx_valid_o = 1'b1;
        unique case (idx_q)
          8'd0:    tx_data_o = OpRead;
          8'd1:    tx_data_o = rnode_q;
          8'd2:    tx_data_o = recs_q;
          default: tx_data_o = record_byte;
        endcase
        if (taken) begin
          if (!in_records) begin
            idx_d = idx_q + 8'd1;
            if (idx_q == 8'd2 && recs_q == 8'd0) resp_d = RespNone;
          end else begin
            rbyte_d = rbyte_q + 4'd1;
            if (rbyte_q == 4'(RecordBytes - 1)) begin
              rbyte_d   = '0;
              recs_d    = recs_q - 8'd1;
              log_pop_o = NumNodes'(1) << rnode_q[NodeW-1:0];
              if (recs_q == 8'd1) resp_d = RespNone;
            end
          end
        end
      end
      RespError: begin
        tx_valid_o = 1'b1;
        tx_data_o  = (idx_q == 8'd0) ? OpError : rarg_q;
        if (taken) begin
          idx_d = idx_q + 8'd1;
          if (idx_q == 8'd1) resp_d = RespNone;
        end
      end
      default: ;
    endcase
    // A new request: taken when the responder is idle (else lost: the decoder's LinkErrOverrun).
    if (req != RespNone && resp_q == RespNone) begin
      resp_d  = req;
      idx_d   = '0;
      rbyte_d = '0;
      snap_d  = now_i;
      rnode_d = (req == RespError) ? rnode_q : node_d;
      rarg_d  = (req == RespError) ? req_arg : code_d;
      recs_d  = '0;
      if (req == RespRead) begin
        // node_q addresses the read (its node byte came before the max); k = min(max, count).
        for (int n = 0; n < NumNodes; n++) begin
          if (node_q == 8'(n)) begin
            recs_d = (9'(log_count_i[n*LogCountW +: LogCountW]) < 9'(req_arg))
                         ? 8'(log_count_i[n*LogCountW +: LogCountW]) : req_arg;
          end
        end
      end
    end
  end

  `NOC_FF(resp_q, resp_d, RespNone)
  `NOC_FF(rnode_q, rnode_d, '0)
  `NOC_FF(rarg_q, rarg_d, '0)
  `NOC_FF(idx_q, idx_d, '0)
  `NOC_FF(recs_q, recs_d, '0)
  `NOC_FF(rbyte_q, rbyte_d, '0)
  `NOC_FF(snap_q, snap_d, '0)
  `NOC_FF(link_err_q, link_err_d, '0)
  assign link_errors_o = link_err_q;

  `NOC_ASSERT(OnePushPerCycle_A, $onehot0(push_o))
  `NOC_ASSERT(PopOnlyWhatIsLogged_A, (log_pop_o & ~{NumNodes{rnode_count != '0}}) == '0)

endmodule
