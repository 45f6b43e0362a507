#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernels.sh release|headers 6.1|6.12
# Debian release string, or headers directory, of a Debian 12 kernel.

. "$(dirname "$0")/lib.sh"

case ${1:-} in
release) kernel_release "${2:-6.1}" ;;
headers) kernel_headers "${2:-6.1}" ;;
*) die "usage: $0 release|headers 6.1|6.12" ;;
esac
