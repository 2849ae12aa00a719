#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Prove one RTL module of the working tree equivalent to the same module at an earlier git
# revision, for refactors that claim "same function, fewer LUTs" (docs/design-log.md). Each side is read into yosys from its own copy of rtl/, given the parameters,
# flattened, its memories mapped to flip-flops (`memory`: the input buffers' RAMs), and the two
# are compared with equiv_make / equiv_simple / equiv_induct: registers are
# matched by name (a refactor keeps the state and changes only the logic between it), so every
# output and every next state must be the same function of the inputs and the state. Exit status
# 0 when every $equiv cell is proven, 1 otherwise (the log names the unproven ones).
#
# Usage: [EQUIV_NEW_OUTPUTS="<port>..."] [EQUIV_UNMATCHED="<signal>..."] [EQUIV_RENAME="<new>=<old>..."]
#        [EQUIV_STATE_ONLY=1] [EQUIV_DEFINES="-D..."]
#          verif/rtl/equiv_rev.sh <git-rev> <module> ["<chparam args>"]...
#   verif/rtl/equiv_rev.sh 2cb3bbe noc_vc_allocator "-set NumIn 5 -set NumOut 4 -set NumVcs 4"
# Every parameter set given is checked in turn. Output ports the revision did not have (a new
# status output) are named in EQUIV_NEW_OUTPUTS: they are removed from the working tree's side
# with the logic only they use, and everything else must still match. Internal signals that the
# change gives a new function on purpose (e.g. the router's crossbar input steered by tentative
# grants: different where no flit is sent) are named in EQUIV_UNMATCHED, hierarchical names as
# yosys prints them after flattening (`read_flit`, `u_traversal.u_crossbar.sel_i`): equiv_make does not pair
# them, so only the registers and outputs (and the signals still paired) must match;
# EQUIV_STATE_ONLY=1 pairs nothing but ports and register outputs (every other wire name hidden on
# both sides), for a change that redefines many internal signals. EQUIV_RENAME="<new>=<old> ..."
# renames signals of the working tree's side, after flattening, to the revision's names, so that a
# register a refactor moved into a sub-block (`u_status.errors_q=errors_q`) is paired with its old
# self. EQUIV_DEFINES
# goes to read_verilog on both sides (`-DNOC_DATA_W=32`). Logs in build/equiv/.
set -uo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 <git-rev> <module> [\"<chparam args>\"]..." >&2
  exit 2
fi
rev=$1
module=$2
shift 2
params=("$@")
[[ ${#params[@]} -eq 0 ]] && params=("")

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out_dir=$repo/build/equiv
mkdir -p "$out_dir"
old_dir=$(mktemp -d)
trap 'rm -rf "$old_dir"' EXIT
if ! git -C "$repo" rev-parse --verify -q "$rev^{commit}" >/dev/null; then
  echo "equiv_rev: '$rev' is not a commit of $repo" >&2
  exit 2
fi
git -C "$repo" archive "$rev" rtl | tar -x -C "$old_dir"

# Packages first, like every other script here (yosys 0.23 needs them before their users).
files_of() {
  local dir=$1 f list=()
  for f in "$dir"/*_pkg.sv; do list+=("$f"); done
  for f in "$dir"/*.sv; do [[ "$f" == *_pkg.sv ]] || list+=("$f"); done
  echo "${list[*]}"
}

status=0
for p in "${params[@]}"; do
  tag="$module.$(echo "$p" | tr -c 'A-Za-z0-9' '_')"
  # One side: read its rtl/, set the parameters, flatten, rename the top, stash the design.
  side() {
    local dir=$1 name=$2 drop="" port pair
    if [[ $name == gate ]]; then
      for port in ${EQUIV_NEW_OUTPUTS:-}; do drop+="delete -port $name/$port; "; done
      for pair in ${EQUIV_RENAME:-}; do drop+="cd $name; rename ${pair%%=*} ${pair#*=}; cd ..; "; done
    fi
    # Hide every wire but the ports and the flip-flops' outputs (selection stack: all wires, minus
    # the ports, minus the wires on a flip-flop's Q).
    if [[ ${EQUIV_STATE_ONLY:-0} == 1 ]]; then
      drop+="opt_clean; rename -hide w:* i:* o:* %u %d t:\$adff t:\$dff %u %x:+[Q] w:* %i %d; "
    fi
    echo "design -reset; read_verilog -sv -noautowire ${EQUIV_DEFINES:-} -I$dir $(files_of "$dir");
${p:+chparam $p $module;} hierarchy -check -top $module; rename -top $name; proc; flatten; memory; $drop opt_clean; async2sync;
design -stash $name;"
  }
  blacklist=""
  if [[ -n "${EQUIV_UNMATCHED:-}" ]]; then
    blacklist="$old_dir/unmatched.txt"
    printf '%s\n' ${EQUIV_UNMATCHED} >"$blacklist"
  fi
  script="$(side "$old_dir/rtl" gold) $(side "$repo/rtl" gate)
design -reset; design -copy-from gold -as gold gold; design -copy-from gate -as gate gate;
equiv_make ${blacklist:+-blacklist $blacklist} gold gate equiv; hierarchy -top equiv; equiv_simple -seq 2; equiv_induct; equiv_status -assert"
  if yosys -q -l "$out_dir/$tag.log" -p "$script" >/dev/null 2>&1; then
    echo "equiv_rev: $module ($p) equals $rev: $(grep -oE '[0-9]+ are proven' "$out_dir/$tag.log" | tail -1) \$equiv cells"
  else
    echo "equiv_rev: $module ($p) differs from $rev or failed (log: $out_dir/$tag.log):" >&2
    grep -E 'unproven|ERROR' "$out_dir/$tag.log" | tail -3 >&2
    status=1
  fi
done
exit $status
