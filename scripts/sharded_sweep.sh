# SPDX-License-Identifier: Apache-2.0
# Sourced by the experiment scripts (scripts/experiments_rtl.sh, scripts/experiments_load.sh): a
# `wormcast sweep` run as shards at once and merged, and the merged CSVs put under one header.
# The caller sets WORMCAST (the binary), JOBS (shards at once), TMP (a scratch folder) and
# SCRIPT_NAME (the prefix of its error lines).

# sharded_sweep NAME ARGS...: `wormcast sweep ARGS` as JOBS shards at once (`--shard i/JOBS`),
# merged into $TMP/NAME.csv (the unsharded sweep's file, byte for byte). A shard that fails (a run
# off its plan, the RTL and the model apart) prints the shards' logs and exits 1.
sharded_sweep() {
    local name=$1
    shift
    echo "+ wormcast sweep $*  ($JOBS shards)" >&2
    local pids=() shards=()
    for ((i = 0; i < JOBS; i++)); do
        "$WORMCAST" sweep "$@" --shard "$i/$JOBS" --csv "$TMP/$name-$i.csv" > "$TMP/$name-$i.log" &
        pids+=($!)
        shards+=("$TMP/$name-$i.csv")
    done
    local failed=0
    for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
    if ((failed)); then
        cat "$TMP/$name"-*.log >&2
        echo "$SCRIPT_NAME: the sweep $name failed (above)" >&2
        exit 1
    fi
    "$WORMCAST" merge "${shards[@]}" -o "$TMP/$name.csv"
}

# concat OUTFILE NAMES...: the merged CSVs $TMP/NAME.csv one after another under one header.
concat() {
    local out=$1
    shift
    head -n 1 "$TMP/$1.csv" > "$out"
    for name in "$@"; do tail -n +2 "$TMP/$name.csv" >> "$out"; done
    echo "wrote $out" >&2
}
