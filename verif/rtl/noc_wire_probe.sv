// SPDX-License-Identifier: SHL-0.51
// noc_wire_probe: test-only window onto the wire format of rtl/noc_pkg.sv. Purely combinational.
//
// verif/rtl/wire_format_test.cpp drives it from the C++ mirror (firmware/noc_wire_format.hpp) and
// requires bit-identical results. Every conversion goes through the package's types and functions,
// exactly as the router uses them:
//   - head: fields -> head_t -> 64 bits, and 64 bits -> head_t -> fields;
//   - coordinates: x, y, z -> noc_pkg::coord_dest, and dest -> coord_dest_x/y/z, coord_dest_ok,
//     plus the same split through coord_dest_t;
//   - source route: dest -> route_next (through route_entry_t), route_shift, route_used_up;
//   - link flit: head, tail, data -> flit_t -> FlitW bits, and back;
//   - the encodings: routing modes, CPR control fields, VC classes, networks, route constants.
// It has no clock: nothing here is state.
module noc_wire_probe (
  // Head flit, fields to data.
  /// Routing mode.
  input  logic [noc_pkg::ModeW-1:0]       mode_i,
  /// Channel network.
  input  logic [noc_pkg::NetworkW-1:0]    network_i,
  /// Input VC class.
  input  logic [noc_pkg::ClassW-1:0]      vc_class_i,
  /// CPR control field.
  input  logic [noc_pkg::CfW-1:0]         cf_i,
  /// Address flits after the head.
  input  logic [noc_pkg::MoreW-1:0]       more_i,
  /// Destination.
  input  logic [noc_pkg::AddrW-1:0]       dest_i,
  /// {src, tag}: source node id (none in the compact layout) and message tag.
  input  logic [noc_pkg::IdentW-1:0]      ident_i,
  /// The head flit data built from the fields above through head_t.
  output logic [noc_pkg::DataW-1:0]       head_o,

  // Head flit, data to fields.
  /// Head flit data.
  input  logic [noc_pkg::DataW-1:0]       head_i,
  /// Fields of `head_i` read through head_t.
  output logic [noc_pkg::ModeW-1:0]       mode_o,
  output logic [noc_pkg::NetworkW-1:0]    network_o,
  output logic [noc_pkg::ClassW-1:0]      vc_class_o,
  output logic [noc_pkg::CfW-1:0]         cf_o,
  output logic [noc_pkg::MoreW-1:0]       more_o,
  output logic [noc_pkg::AddrW-1:0]       dest_o,
  output logic [noc_pkg::IdentW-1:0]      ident_o,

  // Coordinate destination.
  /// Coordinates to build a destination from (noc_pkg::coord_dest).
  input  logic [noc_pkg::CoordW-1:0]      coord_x_i,
  input  logic [noc_pkg::CoordW-1:0]      coord_y_i,
  input  logic [noc_pkg::CoordW-1:0]      coord_z_i,
  /// noc_pkg::coord_dest(coord_x_i, coord_y_i, coord_z_i).
  output logic [noc_pkg::AddrW-1:0]       coord_dest_o,
  /// A destination to split.
  input  logic [noc_pkg::AddrW-1:0]       coord_dest_i,
  /// noc_pkg::coord_dest_x/y/z(coord_dest_i).
  output logic [noc_pkg::CoordW-1:0]      coord_x_o,
  output logic [noc_pkg::CoordW-1:0]      coord_y_o,
  output logic [noc_pkg::CoordW-1:0]      coord_z_o,
  /// noc_pkg::coord_dest_ok(coord_dest_i).
  output logic                            coord_dest_ok_o,
  /// 1 iff splitting `coord_dest_i` through coord_dest_t gives the same x, y, z as the functions.
  output logic                            coord_struct_agrees_o,

  // Source route.
  /// A route (dest of a source-routed head).
  input  logic [noc_pkg::AddrW-1:0]       route_i,
  /// Entry 0 of `route_i` (noc_pkg::route_next) read through route_entry_t.
  output logic                            route_deliver_o,
  output logic [noc_pkg::RoutePortW-1:0]  route_port_o,
  /// noc_pkg::route_shift(route_i).
  output logic [noc_pkg::AddrW-1:0]       route_shift_o,
  /// noc_pkg::route_used_up(route_i).
  output logic                            route_used_up_o,

  // Link flit.
  /// Flit fields to pack through flit_t.
  input  logic                            flit_head_i,
  input  logic                            flit_tail_i,
  input  logic [noc_pkg::DataW-1:0]       flit_data_i,
  /// The packed link flit.
  output logic [noc_pkg::FlitW-1:0]       flit_o,
  /// A packed link flit to read through flit_t.
  input  logic [noc_pkg::FlitW-1:0]       flit_i,
  output logic                            flit_head_o,
  output logic                            flit_tail_o,
  output logic [noc_pkg::DataW-1:0]       flit_data_o,

  // Encodings (constants of noc_pkg), in a fixed order for the test to compare with the C++ ones.
  /// route_mode_e: RouteHamPath, RouteHamCycle, RouteDimOrder, RouteCprLine, RouteSourceRouted;
  /// value i in bits [i*ModeW +: ModeW].
  output logic [5*noc_pkg::ModeW-1:0]     mode_enc_o,
  /// cf_e: CfUnicastTransit, CfDeliverStop, CfPassOnly, CfDeliverPass.
  output logic [4*noc_pkg::CfW-1:0]       cf_enc_o,
  /// HcClassPHigh, HcClassQHigh, HcClassPLow, HcClassQLow, DorClassWrapAhead, DorClassNoWrap,
  /// HpClassHigh, HpClassLow, BranchClassPlusX, BranchClassMinusX.
  output logic [10*noc_pkg::ClassW-1:0]   class_enc_o,
  /// NetworkLow, NetworkHigh.
  output logic [2*noc_pkg::NetworkW-1:0]  network_enc_o,
  /// {RouteEntryUnused, RoutePortEnd}.
  output logic [noc_pkg::RouteEntryW+noc_pkg::RoutePortW-1:0] route_enc_o
);

  // Head, fields to data.
  noc_pkg::head_t head_build;
  always_comb begin
    head_build          = '0;
    head_build.mode     = mode_i;
    head_build.network  = network_i;
    head_build.vc_class = vc_class_i;
    head_build.cf       = cf_i;
    head_build.more     = more_i;
    head_build.dest     = dest_i;
    head_build.ident    = ident_i;
  end
  assign head_o = head_build;

  // The head fields fill the data exactly (both tools stop on a mismatch at elaboration).
  if ($bits(head_build) != noc_pkg::DataW) begin : gen_head_width_check
    $error("noc_pkg::head_t is not noc_pkg::DataW bits wide");
  end

  // Head, data to fields.
  noc_pkg::head_t head_read;
  assign head_read  = head_i;
  assign mode_o     = head_read.mode;
  assign network_o  = head_read.network;
  assign vc_class_o = head_read.vc_class;
  assign cf_o       = head_read.cf;
  assign more_o     = head_read.more;
  assign dest_o     = head_read.dest;
  assign ident_o    = head_read.ident;

  // Coordinate destination.
  noc_pkg::coord_dest_t coord_read;
  assign coord_dest_o    = noc_pkg::coord_dest(coord_x_i, coord_y_i, coord_z_i);
  assign coord_x_o       = noc_pkg::coord_dest_x(coord_dest_i);
  assign coord_y_o       = noc_pkg::coord_dest_y(coord_dest_i);
  assign coord_z_o       = noc_pkg::coord_dest_z(coord_dest_i);
  assign coord_dest_ok_o = noc_pkg::coord_dest_ok(coord_dest_i);
  assign coord_read      = coord_dest_i;
  assign coord_struct_agrees_o = (coord_read.x == coord_x_o) && (coord_read.y == coord_y_o) &&
                                 (coord_read.z == coord_z_o) && ((coord_read.pad == '0) == coord_dest_ok_o);

  // Source route.
  noc_pkg::route_entry_t route_entry;
  assign route_entry     = noc_pkg::route_next(route_i);
  assign route_deliver_o = route_entry.deliver;
  assign route_port_o    = route_entry.port;
  assign route_shift_o   = noc_pkg::route_shift(route_i);
  assign route_used_up_o = noc_pkg::route_used_up(route_i);

  // Link flit.
  noc_pkg::flit_t flit_build, flit_read;
  always_comb begin
    flit_build      = '0;
    flit_build.head = flit_head_i;
    flit_build.tail = flit_tail_i;
    flit_build.data = flit_data_i;
  end
  assign flit_o      = flit_build;
  assign flit_read   = flit_i;
  assign flit_head_o = flit_read.head;
  assign flit_tail_o = flit_read.tail;
  assign flit_data_o = flit_read.data;

  // Encodings.
  assign mode_enc_o    = {noc_pkg::RouteSourceRouted, noc_pkg::RouteCprLine, noc_pkg::RouteDimOrder,
                          noc_pkg::RouteHamCycle, noc_pkg::RouteHamPath};
  assign cf_enc_o      = {noc_pkg::CfDeliverPass, noc_pkg::CfPassOnly, noc_pkg::CfDeliverStop,
                          noc_pkg::CfUnicastTransit};
  assign class_enc_o   = {noc_pkg::BranchClassMinusX, noc_pkg::BranchClassPlusX, noc_pkg::HpClassLow,
                          noc_pkg::HpClassHigh, noc_pkg::DorClassNoWrap, noc_pkg::DorClassWrapAhead,
                          noc_pkg::HcClassQLow, noc_pkg::HcClassPLow, noc_pkg::HcClassQHigh,
                          noc_pkg::HcClassPHigh};
  assign network_enc_o = {noc_pkg::NetworkHigh, noc_pkg::NetworkLow};
  assign route_enc_o   = {noc_pkg::RouteEntryUnused, noc_pkg::RoutePortEnd};

  if ($bits(flit_build) != noc_pkg::FlitW) begin : gen_flit_width_check
    $error("noc_pkg::flit_t is not noc_pkg::FlitW bits wide");
  end

endmodule
