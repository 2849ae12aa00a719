#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Compiles the node firmware for a 32-bit RISC-V core as firmware is built: freestanding, no
# exceptions, no RTTI, -Os, warnings as errors; the include root holds only firmware/ (so model/
# cannot be included) and the two C++ headers the cross toolchain lacks (freestanding_shim/).
# Prints the code size per object (riscv64-unknown-elf-size). Fails on any compile error.
# Usage: rv32_size.sh <repo root> <riscv64-unknown-elf-g++> <riscv64-unknown-elf-size> <work dir>
set -eu
root=$1 cxx=$2 size=$3 work=$4
for tool in "$cxx" "$size"; do
  command -v "$tool" > /dev/null || { echo "rv32_size.sh: '$tool' not found (scripts/ensure-deps.sh installs gcc-riscv64-unknown-elf and picolibc)"; exit 1; }
done
rm -rf "$work" && mkdir -p "$work/include_root"
ln -s "$root/firmware" "$work/include_root/firmware"
flags="-std=c++20 -Os -march=rv32imc -mabi=ilp32 -ffreestanding -fno-exceptions -fno-rtti -nostdinc++
       -Wall -Wextra -Wpedantic -Werror -isystem $root/verif/firmware/freestanding_shim -I$work/include_root"
objects=""
for src in "$root"/firmware/*.cpp "$root/verif/firmware/firmware_image.cpp"; do
  obj="$work/$(basename "$src" .cpp).o"
  # shellcheck disable=SC2086
  "$cxx" $flags -c "$src" -o "$obj"
  objects="$objects $obj"
done
# shellcheck disable=SC2086
"$size" $objects
# shellcheck disable=SC2086
"$size" -t $objects | tail -n 1 | awk '{print "firmware total: code (text) " $1 " bytes; state of one node (data + bss) " $2 + $3 " bytes"}'
