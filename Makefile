# SPDX-License-Identifier: GPL-2.0
#
# bfly top-level Makefile.
#
#   make               build bfly.ko against KDIR and the userspace programs
#   make demo          install dependencies, build, boot a VM with bfly.ko
#                      loaded and show the fabric
#   make check         install dependencies and run every test
#   make check T=route,kunit KERNELS=debug
#                      only those groups (build, native, mpi, checkpatch,
#                      kernel-doc, regen, kunit, canary, e2e or one
#                      end-to-end test's name), only those VMs (debug, 6.1,
#                      6.12); see tests/run-all.sh
#   make pictures      draw Documentation/pictures/ from the device (a VM on
#                      stock 6.12): DOT and the SVG Graphviz renders
#   make bench         every benchmark, natively and in a VM (the ioctl
#                      next to the same code as a user program, batches
#                      next to memcpy), then one table of their ratios
#                      (tests/bench/run-bench.sh; whole outputs in
#                      build/bench/)
#   make bench-native  the same without the VM
#   make bench BASE=REV
#                      this tree's routing, schedule and payload code
#                      against REV's, alternated call by call in one
#                      process (tests/bench/compare.sh)
#
# KDIR defaults to the running kernel's build directory when it has one,
# else to Debian's stock 6.12 headers.

KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
		    $(lastword $(sort $(wildcard /usr/src/linux-headers-6.12.*-amd64))))

.PHONY: all modules userspace clean deps demo check bench bench-native pictures

all: modules userspace

modules:
	@test -n "$(KDIR)" || { echo "no kernel headers: install linux-headers-6.12-amd64 or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace

clean:
	@if [ -n "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	$(MAKE) -C userspace clean
	rm -rf build

deps:
	tests/vm/install-deps.sh

demo: deps
	tests/vm/demo.sh

pictures: deps
	tests/pictures.sh update

check: deps
	tests/run-all.sh $(if $(T),-t $(T)) $(if $(KERNELS),-k $(KERNELS))

bench: deps
ifdef BASE
	tests/bench/compare.sh $(BASE)
else
	tests/bench/run-bench.sh
endif

bench-native: deps
	tests/bench/run-bench.sh --native
