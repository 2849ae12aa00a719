#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Reproduce the experiments of the source papers with the golden model (`wormcast sweep`) and write
# one CSV per experiment to docs/results/ (see docs/results.md for the tables and the comparison).
#
# Usage: scripts/experiments.sh [path/to/wormcast]     (default: build/sim/wormcast)
#        `make experiments` builds first and runs this script.
# Environment: TREE_RUNS (default 1000), RUNS (default 1000), TORUS_RUNS (default 1024) override the
# samples per point, by default the papers' counts; OUT (default docs/results) the output directory;
# SEEDS (default "000 001 002 004") the seeds whose sweeps run (004: the thesis's), e.g. SEEDS=002.
# Every sweep has a fixed seed, so the same build writes the same files. Every mean in the CSVs
# comes with its standard deviation and 95 % confidence interval (docs/results.md, "Uncertainty").
set -euo pipefail

cd "$(dirname "$0")/.."
WORMCAST=${1:-build/sim/wormcast}
OUT=${OUT:-docs/results}
TREE_RUNS=${TREE_RUNS:-1000}   # thesis: 1000 per point
RUNS=${RUNS:-1000}             # thesis: 1000 per point (XY-path vs LIN); seeds 000 and 002: not stated
TORUS_RUNS=${TORUS_RUNS:-1024} # seed 001: 1024 per point
SEEDS=${SEEDS:-000 001 002 004}
for s in $SEEDS; do
    case $s in 000 | 001 | 002 | 004) ;; *)
        echo "experiments: SEEDS has '$s'; valid: 000 001 002 004 (004: the thesis)" >&2
        exit 2
        ;;
    esac
done
mkdir -p "$OUT"

# runs SEED: the sweeps of SEED are selected (SEEDS).
runs() { [[ " $SEEDS " == *" $1 "* ]]; }

sweep() {
    echo "+ wormcast sweep $*" >&2
    "$WORMCAST" sweep "$@" > /dev/null
}

# Latency parameter sets.
HOPS=(--alpha 0 --gamma 0 --beta 1 --router-delay 1)              # latency = hops + L (thesis D + L)
SAF=(--alpha 0 --gamma 0 --beta 1 --router-delay 0)               # store-and-forward: latency = L * steps
MAXHOPS=(--alpha 0 --gamma 0 --beta 0 --router-delay 1)           # latency = the longest worm's hops
T3D=(--alpha 0.75 --gamma 0.75 --mu 0.75 --beta 0.0033 --router-delay 0.0033) # us (seed 002)
SEED001=(--alpha 1 --gamma 0 --beta 0.025 --router-delay 0.025)   # us: 1 us start-up, 25 ns per flit/hop

K2D=$(seq -s, 10 10 380)   # thesis, 20x20 (its published mean K 195; docs/results.md "K sets")
K3D=$(seq -s, 10 10 370)   # 1000 nodes (its published mean K 190)

# 1. Thesis chapter 4: store-and-forward trees, one-port, source at the origin, seed 4.
if runs 004; then
    for topo in mesh:20x20 torus:20x20 mesh:10x10x10 torus:10x10x10; do
        case $topo in *x*x*) K=$K3D ;; *) K=$K2D ;; esac
        name=trees_${topo/:/_}
        sweep -t "$topo" -a vh,diag,dds,min -k "$K" -n "$TREE_RUNS" --seed 4 -s origin -p one \
              -L 20 "${SAF[@]}" --csv "$OUT/$name.csv"
    done
    # The four networks side by side, as the thesis's text compares them (torus against mesh, the
    # gaps between the algorithms): docs/results.md, "Torus against mesh, 2D against 3D".
    python3 scripts/tree_networks.py "$OUT" > /dev/null

    # 2. Thesis chapter 4: XY-path vs LIN, wormhole, all-port, 20x20 mesh, L = 20, latency = D + L.
    sweep -t mesh:20x20 -a xy-path,lin -k "$K3D" -n "$RUNS" --seed 4 -s origin -p all -L 20 \
          "${HOPS[@]}" --csv "$OUT/xypath_lin_mesh_20x20.csv"
fi

# 3. Seed 000: two-port vs one-port on a 16x16 mesh, random source, K = 1..70 (same samples: same
#    seed, topology, source policy and K list). Latency in cycles with the T3D-ratio defaults.
if runs 000; then
    K70=$(seq -s, 1 1 70)
    sweep -t mesh:16x16 -a one-port -k "$K70" -n "$RUNS" --seed 0 -s random -p one -L 20 \
          --csv "$OUT/seed000_one_port_mesh_16x16.csv"
    sweep -t mesh:16x16 -a two-port -k "$K70" -n "$RUNS" --seed 0 -s random -p two -L 20 \
          --csv "$OUT/seed000_two_port_mesh_16x16.csv"
fi

# 4. Seed 002: PCP vs RD vs EDN vs NP-D broadcasts, all-port, T3D parameters (us), L = 100.
if runs 002; then
    for m in 4x4 8x8 16x16 32x32; do
        sweep -t "mesh:$m" -a pcp,rd,edn,np-d -k all -n 1 --seed 2 -s origin -p all -L 100 "${T3D[@]}" \
              --csv "$OUT/seed002_broadcast_mesh_${m}_corner.csv"
        sweep -t "mesh:$m" -a pcp,rd,edn,np-d -k all -n "$RUNS" --seed 2 -s random -p all -L 100 "${T3D[@]}" \
              --csv "$OUT/seed002_broadcast_mesh_${m}_random.csv"
    done
fi

# 5. Seed 001: uniform vs fixed vs (Lin-Ni) dual-path on a 64x64 torus (Fig. 5) and vs
#    hp-dual-path on the 6-star (Fig. 6), random source and destinations, 120 flits. Run (a): latency = max(len(M^h), len(M^l)) in hops; run (b): us.
if runs 001; then
    K64=1,10,50,100,200,500,1000,2000,4095
    sweep -t torus:64x64 -a uniform,fixed,dual-path -k "$K64" -n "$TORUS_RUNS" \
          --seed 1 -s random -p all -L 120 "${MAXHOPS[@]}" --csv "$OUT/seed001_torus_64x64_hops.csv"
    sweep -t torus:64x64 -a uniform,fixed,dual-path -k "$K64" -n "$TORUS_RUNS" \
          --seed 1 -s random -p all -L 120 "${SEED001[@]}" --csv "$OUT/seed001_torus_64x64_us.csv"
    # Fig. 6: the 6-star (720 nodes) against the dual-path of Chen et al. (hp-dual-path).
    K6=1,10,50,100,200,400,719
    sweep -t star:6 -a uniform,fixed,hp-dual-path -k "$K6" -n "$TORUS_RUNS" \
          --seed 1 -s random -p all -L 120 "${MAXHOPS[@]}" --csv "$OUT/seed001_star_6_hops.csv"
    sweep -t star:6 -a uniform,fixed,hp-dual-path -k "$K6" -n "$TORUS_RUNS" \
          --seed 1 -s random -p all -L 120 "${SEED001[@]}" --csv "$OUT/seed001_star_6_us.csv"
fi

echo "wrote $(find "$OUT" -maxdepth 1 -name "*.csv" | wc -l) CSV files to $OUT" >&2
