#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The papers' dynamic experiments (docs/results-rtl.md, "Multicasts under load"): every node starts
# multicasts of one algorithm as a Poisson process (`wormcast sweep --backend B --algorithms A
# --rates ...`: every run checked against its plans, on the RTL backend every destination delivered
# in the same cycle by the RTL and the timing model), mean and 95th-percentile latency against the
# rate beside the zero-load value. One CSV and one PNG per experiment in docs/results/load/.
#
# Usage: scripts/experiments_load.sh [path/to/wormcast]   (default: build/sim/wormcast)
#        `make experiments-load` builds the binary first and runs this script.
# Environment:
#   OUT          output folder (default docs/results/load)
#   JOBS         shards of each sweep run at once (default 2): `--shard i/JOBS`, then `wormcast merge`
#   EXPERIMENTS  which to run (default "fig7-rtl fig7-model steady-model"):
#     fig7-rtl      seed 000's Fig. 7 setting on the RTL and the timing model side by side, 8x8 mesh
#                   (about 10 minutes of CPU)
#     fig7-model    the same on the paper's 16x16 mesh, on the timing model alone (the RTL takes about
#                   2 minutes of CPU per point there; `BACKEND_FIG7_16=rtl` runs it)
#     steady-model  seed 002's steady state: PCP, RD and EDN broadcasts from every node, 8x8 mesh, on
#                   the timing model (a few minutes of CPU)
# Every sweep has a fixed seed: the same binary writes the same CSVs and PNGs.
set -euo pipefail

cd "$(dirname "$0")/.."
WORMCAST=${1:-build/sim/wormcast}
OUT=${OUT:-docs/results/load}
JOBS=${JOBS:-2}
EXPERIMENTS=${EXPERIMENTS:-fig7-rtl fig7-model steady-model}
BACKEND_FIG7_16=${BACKEND_FIG7_16:-model}
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}  # Debian's, with matplotlib
if ! [[ "$JOBS" =~ ^[1-9][0-9]*$ ]]; then
    echo "experiments_load: JOBS='$JOBS' must be a shard count of at least 1" >&2
    exit 2
fi
for e in $EXPERIMENTS; do
    case $e in fig7-rtl | fig7-model | steady-model) ;; *)
        echo "experiments_load: EXPERIMENTS has '$e'; valid: fig7-rtl fig7-model steady-model" >&2
        exit 2
        ;;
    esac
done
runs() { [[ " $EXPERIMENTS " == *" $1 "* ]]; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"

# sweep NAME ARGS...: the sweep as JOBS shards at once, merged into $TMP/NAME.csv; concat OUTFILE
# NAMES...: the merged CSVs under one header (scripts/sharded_sweep.sh).
SCRIPT_NAME=experiments_load
# shellcheck source=scripts/sharded_sweep.sh
source scripts/sharded_sweep.sh
sweep() { sharded_sweep "$@"; }

# Seed 000, Fig. 7: one-port against two-port unicast-based multicast, K = 10 random destinations
# per multicast, L = 20, alpha = gamma = 227 cycles (the T3D start-up/flit ratio, as in the
# zero-load figures), generation ratio about 0.2 .. 2.2 (rate x K x (alpha + gamma)).
FIG7_RATES=0.00004:0.00048:0.00004
fig7() {
    local name=$1 topology=$2 backend=$3 measure=$4
    for a in one-port:one two-port:two; do
        sweep "$name-${a%%:*}" --backend "$backend" -t "$topology" -a "${a%%:*}" -p "${a##*:}" -k 10 \
            --rates "$FIG7_RATES" -L 20 --alpha 227 --gamma 227 --warmup 5000 --measure "$measure" \
            --drain-limit 50000 --seed 0
    done
    concat "$OUT/$name.csv" "$name-one-port" "$name-two-port"
}
if runs fig7-rtl; then fig7 seed000_fig7_mesh8x8 mesh:8x8 rtl 40000; fi
if runs fig7-model; then fig7 seed000_fig7_mesh16x16 mesh:16x16 "$BACKEND_FIG7_16" 20000; fi

# Seed 002, steady state: PCP, RD and EDN broadcasts (K = N - 1) from every node, all-port, L = 64,
# alpha = gamma = 227 (T3D), 8x8 mesh. The rates are low: a broadcast is 63 deliveries, and every
# PCP broadcast in the network takes the one replication lock in turn.
if runs steady-model; then
    sweep seed002_steady_mesh8x8 --backend model -t mesh:8x8 -a pcp,rd,edn -p all -k all \
        --rates 0.000001,0.000002,0.000003,0.000005,0.00001,0.00002,0.00003,0.00004 -L 64 --alpha 227 \
        --gamma 227 --warmup 20000 --measure 200000 --drain-limit 100000 --seed 2
    concat "$OUT/seed002_steady_mesh8x8.csv" seed002_steady_mesh8x8
fi

"$PYTHON" scripts/plot_load.py "$OUT"
