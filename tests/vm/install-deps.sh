#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package bfly needs to build, boot its test VMs and
# run its tests, on a Debian 12 machine. Run as root. Does nothing slow
# when everything is already installed.
set -euo pipefail

packages=(
	# building the module, the test kernel and the userspace programs
	build-essential bc bison flex libelf-dev libssl-dev pahole kmod
	pkg-config libnl-3-dev libnl-genl-3-dev libjson-c-dev
	# kernel headers: Debian's stock 6.1 and 6.12, and the 6.12 source
	linux-headers-amd64 linux-headers-6.12-amd64 linux-source-6.12
	# the VM: QEMU (TCG), a busybox initramfs
	qemu-system-x86 busybox-static cpio xz-utils
	# checks: sparse; kunit.py, YNL and checkpatch need python3 and perl
	sparse python3 python3-yaml python3-jsonschema perl
	# tests/rst-check.py: Documentation/*.rst parse
	python3-docutils
	# the end-to-end tests' checks of bflyctl's JSON
	jq
	# netlink tools
	libnl-utils
	# pictures: Graphviz renders bflyctl's DOT (bflyctl show ... format svg)
	graphviz
	# checking the man pages (make -C userspace man-check)
	groff-base man-db
	# the SAT solver of tools/flatfly-schedule-sat.py
	cadical
	# bfly-mpi: bfly's rounds over MPI (userspace/mpi)
	openmpi-bin libopenmpi-dev
	# packaging: the Debian packages (dpkg-buildpackage, debhelper,
	# dh-dkms), their checks (lintian) and DKMS (make check T=package)
	dpkg-dev debhelper dh-dkms dkms lintian fakeroot bash-completion
	# udevd applies the installed udev rule in the package test's VM
	udev
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: need root to install: ${missing[*]}" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${packages[@]}" >&2
