#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages wormcast needs, once. A second run finds everything present and
# installs nothing. As root it uses apt-get; otherwise it stops and names what is missing.
#
# Usage: scripts/ensure-deps.sh [--quiet] [--plots]
#   --plots: only what the experiments' plots need (python3, python3-matplotlib), for
#            `make experiments-rtl`, which builds just the wormcast binary.
set -euo pipefail

quiet=""
plots_only=""
for arg in "$@"; do
  case $arg in
    --quiet) quiet=1 ;;
    --plots) plots_only=1 ;;
    *) echo "ensure-deps: unknown option '$arg'; valid: --quiet, --plots" >&2; exit 2 ;;
  esac
done

# Debian package -> why we need it.
packages=(
  cmake            # build system
  g++              # C++20 compiler
  make             # top-level driver
  pkgconf          # used by CMake find modules
  libgtest-dev     # GoogleTest
  libgmock-dev     # GoogleMock (ships with GoogleTest)
  libbenchmark-dev # Google Benchmark (make bench)
  libcli11-dev     # CLI11 (the wormcast command line)
  nlohmann-json3-dev # JSON output
  libfmt-dev       # fmt formatting
  clang-format     # formatting check in the tests
  clang            # the libFuzzer targets of verif/fuzz/ (the Fuzz.* tests, make fuzz)
  libclang-rt-14-dev # libFuzzer and the sanitizer runtimes for them
  verilator        # RTL lint and simulation
  yosys            # synthesis check
  iverilog         # gate-level netlist simulation
  nextpnr-ice40    # iCE40 place and route: the router's fmax in make synth, the bitstream of make fpga
  fpga-icestorm    # icepll, icepack, icetime, icebox_vlog: make fpga and make fpga-check
  fpga-icestorm-chipdb # icetime's and icebox_vlog's chip database (make fpga, make fpga-check)
  gcc-riscv64-unknown-elf # the firmware's freestanding RV32 build and code size
  picolibc-riscv64-unknown-elf # headers (stdint.h, string.h) for that freestanding build
  zlib1g-dev       # the FST waveforms of wormcast run --trace (Verilator's FST writer)
  python3          # the tests' SVG and showcase checks (xml, csv)
  python3-matplotlib # latency plots of `wormcast sweep --backend` (scripts/plot_traffic.py)
)

if [[ -n "$plots_only" ]]; then
  packages=(python3 python3-matplotlib)
fi

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  [[ -n "$quiet" ]] || echo "ensure-deps: all packages present"
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  echo "ensure-deps: missing Debian packages: ${missing[*]}" >&2
  echo "ensure-deps: run as root, or install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "ensure-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
