# SPDX-License-Identifier: Apache-2.0
# wormcast top-level driver. `make run` (the demo) and `make test` (the test suite) install any
# missing Debian packages first (scripts/ensure-deps.sh), then configure and build with CMake.
# The configurations are CMakePresets.json's (default, regress, cli-only, bench, sanitize): each sets
# every build option, so a configure resets whatever was changed by hand in the folder. BUILD moves the
# default and cli-only presets' folder (build/), CMAKE_FLAGS adds cache entries (e.g.
# -DCMAKE_CXX_COMPILER_LAUNCHER=ccache).
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build test run clean format experiments experiments-rtl experiments-load bench regress fuzz sanitize

all: build

deps:
	@scripts/ensure-deps.sh --quiet

configure: deps
	@cmake --preset default -B $(BUILD) $(CMAKE_FLAGS) > $(BUILD).configure.log 2>&1 || (cat $(BUILD).configure.log; exit 1)

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# For the targets that need only the command line (run, experiments-rtl): the cli-only preset, without
# the test suites (Verilator runs at configure time for every test-only model), unless `make test`
# or `make regress` configured the folder with them: then their preset, so that they stay. The
# presets build the same command line but for the verilated board top of `run --backend fpga-sim`
# (WORMCAST_BOARD_SIM, off in cli-only; `make run CMAKE_FLAGS=-DWORMCAST_BOARD_SIM=ON` builds it in).
# BUILD_PRESET: the preset with the test suites that configured $(BUILD) (regress or default), or
# nothing.
BUILD_PRESET = $(shell if grep -qs '^WORMCAST_REGRESS:[A-Z]*=ON$$' $(BUILD)/CMakeCache.txt; then echo regress; \
	elif grep -qs '^WORMCAST_TESTS:[A-Z]*=ON$$' $(BUILD)/CMakeCache.txt; then echo default; fi)
.PHONY: configure-cli
configure-cli: deps
	@cmake --preset $(or $(BUILD_PRESET),cli-only) -B $(BUILD) $(CMAKE_FLAGS) > $(BUILD).configure.log 2>&1 \
		|| (cat $(BUILD).configure.log; exit 1)

# Every suite, each part once (docs/verification.md, "make test and make regress"): the model, the
# firmware, the RTL (every router variant, mechanism and algorithm; lint, yosys, the fast formal
# proofs), the system suites, the FPGA self-test in simulation, the fuzz harnesses on their seed
# corpora, the format check. It builds only what it runs; the default preset leaves the
# regression's checks, the libFuzzer targets and the benchmarks out.
# GoogleTest's sharding variables are for `make regress` (below): under ctest, which runs one test
# per process, a stray GTEST_SHARD_INDEX would make most tests run nothing, so they are unset here.
test: build
	@env -u GTEST_TOTAL_SHARDS -u GTEST_SHARD_INDEX ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The regress preset: the default's options with the regression-only checks and their models
# (WORMCAST_REGRESS), the libFuzzer targets and the benchmarks, in the same folder.
.PHONY: configure-regress build-regress regress-ctest
configure-regress: deps
	@cmake --preset regress -B $(BUILD) $(CMAKE_FLAGS) > $(BUILD).configure.log 2>&1 || (cat $(BUILD).configure.log; exit 1)

build-regress: configure-regress
	@cmake --build $(BUILD) -j $(JOBS)

# Every ctest test of the regress build: make test's and the regression's own (more sizes,
# parameters and faults of the same checks, the fuzz targets for a fixed number of inputs). In a
# sharded regression (below) shard 0 runs them, the other shards only their share of regress-run.
regress-ctest:
	@if [ "$${GTEST_SHARD_INDEX:-0}" = 0 ]; then \
		env -u GTEST_TOTAL_SHARDS -u GTEST_SHARD_INDEX ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS); fi

# Everything `make test` runs and more (regress-ctest above), then longer random regressions than
# `make test`: the system suites (firmware on the RTL, checked
# against the model) with REGRESS_SCALE times the random runs and concurrent rounds, and the random
# mixes (verif/system/random_mix_test.cpp) for REGRESS_SCALE x 50,000 network cycles per topology
# on each backend (10^6 at the default scale; each topology prints its cycles and worms delivered),
# every seed offset by REGRESS_SEED. Fixed and bounded: per unit of scale about 2.3 min of CPU for the
# mixes, 6 min for the hang scenarios (most of it on the RTL; docs/verification.md) and 15 s for
# the other suites, on a 2-core machine, so about 3 h of CPU at the default 20; rerun with the same two
# numbers to reproduce a failure (a failing mix also prints its request file and rerun command).
# GoogleTest's sharding variables split it into independent jobs (a CI matrix, a Slurm array;
# docs/results.md "Sharding"): `GTEST_TOTAL_SHARDS=n GTEST_SHARD_INDEX=i make regress` runs shard
# i (0-based) of n, every test whole with its own fixed seed, so the n shards run exactly the tests
# of the unsharded regression with the same seeds. `regress-run` is the run alone, without the build
# (test Regress.HonoursGoogleTestShardingVariables); REGRESS_ARGS adds options (--gtest_filter=...).
REGRESS_SCALE ?= 20
REGRESS_SEED ?= 1
REGRESS_ARGS ?=
regress: build-regress
	@$(MAKE) --no-print-directory regress-ctest
	@$(MAKE) --no-print-directory regress-run
	@$(MAKE) --no-print-directory fuzz-run

.PHONY: regress-run
regress-run:
	@if [ -n "$$GTEST_TOTAL_SHARDS$$GTEST_SHARD_INDEX" ]; then \
		echo "regress: GoogleTest shard $${GTEST_SHARD_INDEX:-unset} of $${GTEST_TOTAL_SHARDS:-unset}"; fi
	@WORMCAST_REGRESS_SCALE=$(REGRESS_SCALE) WORMCAST_REGRESS_SEED=$(REGRESS_SEED) $(BUILD)/verif/system_tests \
		--gtest_brief=1 $(REGRESS_ARGS)

# The libFuzzer targets of the input readers (verif/fuzz/, docs/verification.md "Fuzzing"), each
# for FUZZ_TIME seconds from its seed corpus with seed FUZZ_SEED (part of `make regress`; the Fuzz.*
# tests of `make test` run them for seconds). A finding fails the target and is kept, with the
# command to rerun it, in $(BUILD)/verif/fuzz-long/<target>/artifacts/,
# the whole run's log in $(BUILD)/verif/fuzz-long/<target>.log.
FUZZ_TIME ?= 600
FUZZ_SEED ?= 1
fuzz: configure-regress
	@cmake --build $(BUILD) -j $(JOBS) --target wormcast_fuzzers
	@$(MAKE) --no-print-directory fuzz-run

.PHONY: fuzz-run
fuzz-run:
	@status=0; for target in topology request_file command_line; do \
		echo "fuzz: $$target for $(FUZZ_TIME) s, seed $(FUZZ_SEED) (log: $(BUILD)/verif/fuzz-long/$$target.log)"; \
		mkdir -p $(BUILD)/verif/fuzz-long; log=$(BUILD)/verif/fuzz-long/$$target.log; \
		verif/fuzz/run_fuzzer.sh $(BUILD)/verif/fuzz/$${target}_fuzzer $(BUILD)/verif/fuzz-long/$$target \
			-max_total_time=$(FUZZ_TIME) -seed=$(FUZZ_SEED) > $$log 2>&1 || status=1; \
		grep -E '^(Done|stat::number_of_executed_units|stat::average_exec_per_sec|run_fuzzer|SUMMARY)' $$log; \
	done; exit $$status

# The demo: every algorithm the firmware runs, on the verilated routers of an 8x8 mesh, a 4x4 torus
# and a 4x4x4 mesh, each run checked against the model; the table and one SVG per run go to
# $(BUILD)/demo/. Exit status 1 if a check fails. `wormcast demo` is the model's tour.
# It builds the command line alone (the 9 verilated routers of the harness, not the test-only
# models): see configure-cli.
run: configure-cli
	@cmake --build $(BUILD) -j $(JOBS) --target wormcast
	@$(BUILD)/sim/wormcast showcase --out $(BUILD)/demo

# Planning speed on this machine (docs/algorithms.md, "Speed"): plans per second of every algorithm
# and the wall time of the thesis's chapter-4 sweep. Then network simulation speed of the RTL and
# the model and the verilated 4x4 network top (docs/timing.md, "Benchmarks"; the top is verilated
# and built here only, not by `make build`: WORMCAST_BENCH_TOP). Google Benchmark; measurements, not
# tests. The bench preset's own folder, build-bench/, so build/'s options stay as they are.
bench: deps
	@cmake --preset bench $(CMAKE_FLAGS) > build-bench.configure.log 2>&1 || (cat build-bench.configure.log; exit 1)
	@cmake --build --preset bench -j $(JOBS)
	@build-bench/bench/plan_bench --benchmark_counters_tabular=true
	@build-bench/bench/network_bench_top --benchmark_counters_tabular=true

# The C++ suites under AddressSanitizer and UndefinedBehaviorSanitizer: the sanitize preset, its own
# folder build-sanitize/ (docs/verification.md, "Sanitizers"). SANITIZE_LABELS: the ctest labels to
# run (a regular expression, e.g. 'model|firmware'); every suite by default.
SANITIZE_LABELS ?= .
sanitize: deps
	@cmake --preset sanitize $(CMAKE_FLAGS) > build-sanitize.configure.log 2>&1 || (cat build-sanitize.configure.log; exit 1)
	@cmake --build --preset sanitize -j $(JOBS)
	@ctest --preset sanitize -j $(JOBS) -L '$(SANITIZE_LABELS)'

# Reproduce the papers' experiments (docs/results.md): fixed seeds, CSVs to docs/results/.
experiments: build
	@scripts/experiments.sh $(BUILD)/sim/wormcast

# The papers' experiments on the routers (docs/results-rtl.md): every
# seed's multicasts through the node firmware on the verilated routers and the timing model, with
# the analytic estimate; a CSV and a PNG per seed to docs/results/rtl/ (scripts/experiments_rtl.sh:
# RUNS_000 .. RUNS_004 or PAPER=1 for the sample counts, JOBS shards at once). Builds only the
# wormcast binary; the plots need python3-matplotlib (ensure-deps.sh --plots).
EXPERIMENTS_RTL_JOBS ?= 2
experiments-rtl: configure-cli
	@scripts/ensure-deps.sh --quiet --plots
	@cmake --build $(BUILD) -j $(JOBS) --target wormcast
	@JOBS=$(EXPERIMENTS_RTL_JOBS) scripts/experiments_rtl.sh $(BUILD)/sim/wormcast

# The papers' dynamic experiments (docs/results-rtl.md, "Multicasts under load"): every node starts
# multicasts as a Poisson process; latency against the rate on the RTL and the timing model, a CSV
# and a PNG per experiment to docs/results/load/ (scripts/experiments_load.sh: EXPERIMENTS selects,
# JOBS shards at once; about 20 minutes of CPU).
experiments-load: configure-cli
	@scripts/ensure-deps.sh --quiet --plots
	@cmake --build $(BUILD) -j $(JOBS) --target wormcast
	@JOBS=$(EXPERIMENTS_RTL_JOBS) scripts/experiments_load.sh $(BUILD)/sim/wormcast

format:
	@clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	@rm -rf $(BUILD) $(BUILD).configure.log build-bench build-bench.configure.log build-sanitize build-sanitize.configure.log

# iCE40 LUT/FF report of every RTL cell (yosys synth_ice40 + stat), after the same synthesis check
# as the Rtl.YosysSynthNoLatches test (no latches, no undriven wires). Needs no CMake build.
.PHONY: synth-report
synth-report: deps
	@verif/rtl/synth_check.sh

# --- make formal: formal proofs of the router's leaf cells (docs/verification.md) ---
# yosys + ABC's PDR (unbounded) on the input buffer, the credit loop, the round-robin arbiter and the
# switch allocator, then every mutant (a one-line RTL change on a copy) that each proof must
# reject. Prints one line per proof and mutant; the table goes to docs/results/formal.md. Exit 1 if
# a proof fails or a mutant survives. Needs no CMake build; the fast proofs also run in make test.
.PHONY: formal
formal: deps
	@verif/formal/run.sh --results docs/results/formal.md
# --- end make formal ---

# --- make synth: resource table of the router (docs/rtl.md, "make synth: resource table") ---
# iCE40, Xilinx 7-series and ECP5 LUT/FF counts of noc_router in its main configurations, and the
# iCE40 HX8K fmax from nextpnr-ice40 for the configurations that fit (FULL=1: try every one).
# Table to stdout, $(BUILD)/synth/synth_table.md and docs/results/synth.md (the rows this run measured
# replace theirs; the date, commit, tools and options are written with them). Needs no CMake build.
# ONLY=<regex>: only the configurations whose table entry matches (e.g. ONLY=node); the 4x4 mesh top
# (40 min of CPU) only with ONLY=mesh4x4. FLOWS="ice40": only those yosys flows (the others' columns "-").
# SYNTH_ICE40_OPTS / NEXTPNR_OPTS in the environment: extra synth_ice40 / nextpnr-ice40 options (make
# fpga takes them too).
.PHONY: synth
synth: deps
	@SYNTH_FLOWS='$(FLOWS)' verif/rtl/synth_table.sh $(if $(FULL),--full) $(if $(ONLY),--only '$(ONLY)') --results docs/results/synth.md $(BUILD)/synth
# iCE40 tool options side by side on the 2-VC node's fmax wrapper (docs/rtl.md, "Arbiters and tool
# options"): synth_ice40 -abc9 and nextpnr's --opt-timing, --tmg-ripup, router2, NEXTPNR_SEEDS (3)
# seeds each, to docs/results/synth_options.md. OPTS=<regex>: only those option sets. FROM=<dir>: the
# default options' run taken from a make synth directory that ran the 2-VC node row at the same
# commit (FROM=$(BUILD)/synth), not run again. An hour or more of CPU.
.PHONY: synth-options
synth-options: deps
	@verif/rtl/synth_options.sh $(if $(OPTS),--only '$(OPTS)') $(if $(FROM),--from '$(FROM)') --results docs/results/synth_options.md $(BUILD)/synth_options
# --- end make synth ---

# --- make fpga: the self-test bitstream for the iCE40-HX8K Breakout Board (docs/fpga.md) ---
# yosys synth_ice40 + nextpnr-ice40 (HX8K, ct256, fpga/hx8k_breakout.pcf) at the design clock
# FPGA_MHZ (the PLL's nearest to it from 12 MHz), placement seed FPGA_SEED, the routers' buffers
# FPGA_BUFDEPTH flits per VC (default 1, what the fault tests simulate), then icepack to
# $(BUILD)/fpga/wormcast_hx8k.bin and the resource/fmax report ($(BUILD)/fpga/report.md). Fails
# (no .bin) when nextpnr's fmax is below the clock. Needs no CMake build.
# FPGA_STANDIN=1: the flow around a test-only counter stand-in instead of the network.
# BOARD=ulx3s: the mesh self-test on the ULX3S (LFE5U-85F) instead, with the YoWASP yosys and
# nextpnr-ecp5 that scripts/ensure-deps.sh --ecp5 installs into .venv-fpga/ (fpga/ulx3s/build.sh:
# ULX3S_MESH, default 3x3, and ULX3S_BUFDEPTH, default 1, at the board's 25 MHz); bitstream and report
# in $(BUILD)/fpga_ulx3s, the report also in docs/results/fpga_ulx3s.md.
# ULX3S_ABC=abc|abc9 picks the LUT mapper (default abc), ULX3S_ROUTER=router2|router1 nextpnr's router.
FPGA_MHZ ?= 16
FPGA_SEED ?= 1
FPGA_BUFDEPTH ?= 1
BOARD ?= hx8k
.PHONY: fpga
fpga: deps
ifeq ($(BOARD),hx8k)
	@FPGA_MHZ=$(FPGA_MHZ) FPGA_SEED=$(FPGA_SEED) FPGA_BUFDEPTH=$(FPGA_BUFDEPTH) FPGA_STANDIN=$(FPGA_STANDIN) \
		fpga/build.sh $(BUILD)/fpga
else ifeq ($(BOARD),ulx3s)
	@scripts/ensure-deps.sh --quiet --ecp5
	@FPGA_SEED=$(FPGA_SEED) fpga/ulx3s/build.sh $(BUILD)/fpga_ulx3s
else
	@echo "make fpga: BOARD '$(BOARD)' is not one of hx8k (the default), ulx3s" >&2; exit 2
endif

# The self-test in simulation alone (docs/fpga.md, "make fpga-sim and the tests"): the verilated
# core with the network and a C++ UART receiver, until the line says PASS, then the injected fault
# (Fault 1; Fault 2 too in a folder `make regress` configured) until it says FAIL; every status
# line printed.
.PHONY: fpga-sim
fpga-sim: deps
	@cmake --preset $(or $(BUILD_PRESET),default) -B $(BUILD) $(CMAKE_FLAGS) > $(BUILD).configure.log 2>&1 \
		|| (cat $(BUILD).configure.log; exit 1)
	@cmake --build $(BUILD) -j $(JOBS) --target fpga_board_tests
	@WORMCAST_FPGA_ECHO=1 $(BUILD)/verif/rtl/fpga_board_tests --gtest_filter='FpgaBoard.*'

# The placed and routed design against the RTL (docs/fpga.md, "make fpga-check"): icebox_vlog of
# make fpga's .asc simulated in iverilog, the RTL core in Verilator, FPGA_CHECK_CYCLES cycles
# (default 400000), the UART pin and LEDs compared in every cycle. Needs make fpga's output, not the
# CMake build.
# BOARD=ulx3s: the ULX3S build's netlist after routing (nextpnr-ecp5 --write, written back as Verilog
# by yosys) in iverilog with the ECP5 cell models, against wormcast_ulx3s in Verilator
# (verif/fpga/fpga_check_ulx3s.sh; docs/fpga.md, "make fpga-check BOARD=ulx3s"); FPGA_CHECK_CYCLES
# defaults to 160000 there. Needs make fpga BOARD=ulx3s's output (built first when missing).
.PHONY: fpga-check
fpga-check: deps
ifeq ($(BOARD),hx8k)
	@if [ ! -f $(BUILD)/fpga/wormcast_hx8k.asc ]; then $(MAKE) --no-print-directory fpga; fi
	@FPGA_CHECK_CYCLES=$(or $(FPGA_CHECK_CYCLES),400000) verif/fpga/fpga_check.sh $(BUILD)/fpga
else ifeq ($(BOARD),ulx3s)
	@scripts/ensure-deps.sh --quiet --ecp5
	@if [ ! -f $(BUILD)/fpga_ulx3s/wormcast_ulx3s.routed.json ]; then $(MAKE) --no-print-directory fpga BOARD=ulx3s; fi
	@FPGA_CHECK_CYCLES=$(or $(FPGA_CHECK_CYCLES),160000) verif/fpga/fpga_check_ulx3s.sh $(BUILD)/fpga_ulx3s
else
	@echo "make fpga-check: BOARD '$(BOARD)' is not one of hx8k (the default), ulx3s" >&2; exit 2
endif
# --- end make fpga ---
