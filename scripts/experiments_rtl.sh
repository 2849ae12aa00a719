#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The papers' experiments on the routers (docs/results-rtl.md): each seed's multicasts run through the node firmware on the verilated routers and
# on the timing model (`wormcast sweep --backend rtl --algorithms`: every run checked against its
# plan, every destination delivered in the same cycle by both), with the analytic estimate and the
# plan's hops beside them. One CSV and one PNG per seed in docs/results/rtl/.
#
# Usage: scripts/experiments_rtl.sh [path/to/wormcast]   (default: build/sim/wormcast)
#        `make experiments-rtl` builds the binary first and runs this script.
# Environment:
#   OUT      output folder (default docs/results/rtl)
#   JOBS     shards of each sweep run at once (default 2, the machine's cores): `--shard i/JOBS`,
#            then `wormcast merge`; the merged file is the unsharded sweep's, byte for byte
#   BACKEND  rtl (default: the RTL and the timing model side by side) or model (the timing model
#            alone, minutes faster; the CSVs' RTL columns stay empty)
#   RUNS_000 RUNS_001 RUNS_002 RUNS_003 RUNS_004  random requests per point (defaults below, chosen
#            so that the whole script takes well under half an hour on 2 shared cores); PAPER=1 sets the
#            papers' counts (seed 001: 1,024 per point; the thesis: 1,000; the others state none,
#            we take 1,000), hours to days on the RTL: shard them over many machines.
#   SEEDS    the experiments that run (default "000 000-length 001 002 002-length 003 004": a seed's
#            sweep against K or N, and the message-length sweeps of seeds 000 and 002), e.g.
#            SEEDS=002-length; the plots are drawn from every CSV in OUT
# Every sweep has a fixed seed: the same binary writes the same CSVs and PNGs.
set -euo pipefail

cd "$(dirname "$0")/.."
WORMCAST=${1:-build/sim/wormcast}
OUT=${OUT:-docs/results/rtl}
JOBS=${JOBS:-2}
BACKEND=${BACKEND:-rtl}
if ! [[ "$JOBS" =~ ^[1-9][0-9]*$ ]]; then
    echo "experiments_rtl: JOBS='$JOBS' must be a shard count of at least 1" >&2
    exit 2
fi
if [[ -n "${PAPER:-}" ]]; then
    RUNS_000=${RUNS_000:-1000} RUNS_001=${RUNS_001:-1024} RUNS_002=${RUNS_002:-1000}
    RUNS_003=${RUNS_003:-1000} RUNS_004=${RUNS_004:-1000}
fi
RUNS_000=${RUNS_000:-6} # seed 000: random requests per K (paper: not stated)
RUNS_001=${RUNS_001:-8} # seed 001: per K (paper: 1,024)
RUNS_002=${RUNS_002:-3} # seed 002: random sources per mesh, and the corner once (paper: not stated)
RUNS_003=${RUNS_003:-5} # seed 003: random sources per L (paper: "a large number")
RUNS_004=${RUNS_004:-6} # seed 004: per K (thesis: 1,000)
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}  # Debian's, with matplotlib
SEEDS=${SEEDS:-000 000-length 001 002 002-length 003 004}
for s in $SEEDS; do
    case $s in 000 | 000-length | 001 | 002 | 002-length | 003 | 004) ;; *)
        echo "experiments_rtl: SEEDS has '$s'; valid: 000 000-length 001 002 002-length 003 004" >&2
        exit 2
        ;;
    esac
done

# runs SEED: the sweeps of SEED are selected (SEEDS).
runs() { [[ " $SEEDS " == *" $1 "* ]]; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"

# sweep NAME ARGS...: the sweep as JOBS shards at once, merged into $TMP/NAME.csv; concat OUTFILE
# NAMES...: the merged CSVs under one header (scripts/sharded_sweep.sh).
SCRIPT_NAME=experiments_rtl
# shellcheck source=scripts/sharded_sweep.sh
source scripts/sharded_sweep.sh
sweep() { sharded_sweep "$1" --backend "$BACKEND" "${@:2}"; }

START=$(date +%s)

# Seed 000: two-port vs one-port unicast-based multicast, 16x16 mesh (the paper's), random source,
# L = 20, alpha = gamma = 227 cycles (the T3D start-up/flit ratio, as in docs/results.md section 3).
if runs 000; then
    K000=1,5,10,20,30,40,50,60,70
    for a in one-port:one two-port:two; do
        sweep "s000-${a%%:*}" -t mesh:16x16 -a "${a%%:*}" -p "${a##*:}" -k "$K000" -n "$RUNS_000" --seed 0 \
            -s random -L 20 --alpha 227 --gamma 227
    done
    concat "$OUT/seed000_unicast_mesh16x16.csv" s000-one-port s000-two-port
fi
# Seed 000, Fig. 8: latency against the message length, one-port vs two-port on the same mesh at
# K = 30 (the middle of Fig. 6's range; the paper's text gives neither its K nor its lengths), L = 20
# to 200 words.
if runs 000-length; then
    for a in one-port:one two-port:two; do
        sweep "s000L-${a%%:*}" -t mesh:16x16 -a "${a%%:*}" -p "${a##*:}" -k 30 --lengths 20,50,100,150,200 \
            -n "$RUNS_000" --seed 0 -s random --alpha 227 --gamma 227
    done
    concat "$OUT/seed000_length_mesh16x16.csv" s000L-one-port s000L-two-port
fi

# Seed 001: uniform vs fixed vs dual-path, random source and destinations. 1 us start-up against
# 25 ns per hop is 40 hops; the RTL's hop is 2 cycles, so alpha = 80 cycles (gamma = 0, the seed's
# start-up is the sender's). L = 64 and torus 16x16 and S5 (the paper: 120 flits, torus 64x64 and
# S6): the sizes of the default run, which keeps it under half an hour. The firmware and RTL limits
# that once set them are lifted (docs/firmware.md, "Long messages and large broadcasts"; one
# torus:64x64 run of 120 flits takes 9-17 s of CPU), so the paper's sizes are a rerun away.
if runs 001; then
    sweep s001-torus -t torus:16x16 -a uniform,fixed,dual-path -p all -k 1,10,25,50,100,150,200,255 \
        -n "$RUNS_001" --seed 1 -s random -L 64 --alpha 80 --gamma 0
    sweep s001-star -t star:5 -a uniform,fixed -p all -k 1,10,30,60,90,119 -n "$RUNS_001" --seed 1 -s random \
        -L 64 --alpha 80 --gamma 0
    concat "$OUT/seed001_dualpath_torus16x16_star5.csv" s001-torus s001-star
fi

# Seed 002: PCP vs RD vs EDN vs NP-D broadcasts, all-port, T3D parameters: alpha = gamma = 0.75 us
# over 3.3 ns per flit = 227 cycles at the RTL's flit a cycle. L = 64 (paper: 100). 4x4 .. 16x16
# (32x32 runs since broadcasts carry no destination list, 40-90 s of CPU per broadcast: left out of
# the default run for time). From the corner, and random sources.
if runs 002; then
    names=()
    for m in 4x4 8x8 16x16; do
        sweep "s002-$m-corner" -t "mesh:$m" -a pcp,rd,edn,np-d -p all -k all -n 1 --seed 2 -s origin -L 64 \
            --alpha 227 --gamma 227
        sweep "s002-$m-random" -t "mesh:$m" -a pcp,rd,edn,np-d -p all -k all -n "$RUNS_002" --seed 2 -s random \
            -L 64 --alpha 227 --gamma 227
        names+=("s002-$m-corner" "s002-$m-random")
    done
    concat "$OUT/seed002_broadcast_mesh.csv" "${names[@]}"
fi
# Seed 002, Fig. 5: latency against the message length, L = 30 to 210 flits (the paper's range) on
# the 4x4 and 8x8 meshes (the paper's), T3D start-ups as above; the paper compares PCP and RD, EDN
# and NP-D run beside them. From the corner once, and from RUNS_002 random sources.
if runs 002-length; then
    names=()
    for m in 4x4 8x8; do
        for source in origin random; do
            n=$RUNS_002
            [[ $source == origin ]] && n=1
            sweep "s002L-$m-$source" -t "mesh:$m" -a pcp,rd,edn,np-d -p all -k all --lengths 30,60,90,120,150,180,210 \
                -n "$n" --seed 2 -s "$source" --alpha 227 --gamma 227
            names+=("s002L-$m-$source")
        done
    done
    concat "$OUT/seed002_length_mesh4x4_8x8.csv" "${names[@]}"
fi

# Seed 003: 3-DBL vs 3-DBS broadcasts on the 5x5x5 mesh (the paper's), random sources, latency vs
# the message length over the paper's range, 100 to 2,000 bytes: L = 13 to 250 words of 8 bytes
# (104 to 2,000 bytes). Its two start-ups (10 and 100 us, no flit time given) as two start-ups ten
# times apart: alpha = gamma = 23 and 227 cycles.
if runs 003; then
    L003=13,25,50,100,150,200,250
    for alpha in 23 227; do
        sweep "s003-a$alpha" -t mesh:5x5x5 -a 3dbl,3dbs -p all -k all --lengths "$L003" -n "$RUNS_003" --seed 3 \
            -s random --alpha "$alpha" --gamma "$alpha"
    done
    concat "$OUT/seed003_broadcast_mesh5x5x5.csv" s003-a23 s003-a227
fi

# Seed 004 (thesis): XY-path vs LIN (all-port) and the four trees (one-port), source at the
# origin, L = 20, no start-up (the thesis's times are D + L and L per store-and-forward step), on
# the 10x10 mesh at K = 10 .. 90 and 99 = N - 1. The thesis's 20x20 runs in the firmware at every K
# (its lists are sized from the network: docs/firmware.md, "Long messages and large broadcasts");
# the sweep keeps 10x10 for the RTL time of its runs.
if runs 004; then
    K004=10,20,30,40,50,60,70,80,90,99
    sweep s004-xy -t mesh:10x10 -a xy-path,lin -p all -k "$K004" -n "$RUNS_004" --seed 4 -s origin -L 20 \
        --alpha 0 --gamma 0
    sweep s004-trees -t mesh:10x10 -a vh,diag,dds,min -p one -k "$K004" -n "$RUNS_004" --seed 4 -s origin -L 20 \
        --alpha 0 --gamma 0
    concat "$OUT/seed004_xypath_lin_mesh10x10.csv" s004-xy
    concat "$OUT/seed004_trees_mesh10x10.csv" s004-trees
fi

echo "experiments_rtl: the sweeps took $(( $(date +%s) - START )) s wall" >&2
"$PYTHON" scripts/plot_experiments_rtl.py "$OUT"
