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
#                      kernel-doc, regen, kunit, canary, package, e2e or one
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
#   make install       install bfly.ko (kbuild modules_install, to
#                      /lib/modules/RELEASE/updates), the programs, man
#                      pages, bash completion, the uapi headers and bfly.pc,
#                      the udev rule and the modprobe.d example; DESTDIR and
#                      PREFIX (default /usr/local) as usual. Its parts:
#                      install-modules, install-userspace, install-headers,
#                      install-config; install-dkms puts the module's
#                      sources and dkms.conf in /usr/src/bfly-VERSION.
#                      Documentation/packaging.rst lists every path.
#   make deb           the Debian packages (dpkg-buildpackage), in build/deb
#
# KDIR defaults to the running kernel's build directory when it has one,
# else to Debian's stock 6.12 headers.

KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
		    $(lastword $(sort $(wildcard /usr/src/linux-headers-6.12.*-amd64))))

.PHONY: all modules userspace clean deps demo check bench bench-native pictures deb \
	install install-modules install-userspace install-headers install-lib install-config \
	install-dkms

VERSION := $(shell cat VERSION)
PREFIX ?= /usr/local
INCLUDEDIR ?= $(PREFIX)/include
# bfly.pc names headers only: arch-independent
PKGCONFIGDIR ?= $(PREFIX)/share/pkgconfig
# libbfly: the libraries and libbfly.pc (Debian: /usr/lib/<multiarch>)
LIBDIR ?= $(PREFIX)/lib
# udev and modprobe read neither /usr/local nor a PREFIX: the Debian
# packages set /lib/udev/rules.d and keep /etc/modprobe.d
UDEVRULESDIR ?= /etc/udev/rules.d
MODPROBEDIR ?= /etc/modprobe.d
DKMSSRCDIR ?= /usr/src
INSTALL ?= install
export PREFIX INSTALL

all: modules userspace

modules:
	@test -n "$(KDIR)" || { echo "no kernel headers: install linux-headers-6.12-amd64 or set KDIR" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace

install: install-modules install-userspace install-headers install-lib install-config

# depmod needs the kernel's System.map: run it only on a real install.
# Signing needs the kernel's key, which distribution headers lack (DKMS
# signs with its own): sign only when KDIR has certs/signing_key.pem.
install-modules: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) INSTALL_MOD_DIR=updates \
		$(if $(DESTDIR),DEPMOD=true) \
		$(if $(wildcard $(KDIR)/certs/signing_key.pem),,CONFIG_MODULE_SIG_ALL=) modules_install

install-userspace: userspace
	$(MAKE) -C userspace install

install-headers:
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR)/linux $(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 644 uapi/linux/*.h $(DESTDIR)$(INCLUDEDIR)/linux/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' packaging/bfly.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/bfly.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/bfly.pc

# libbfly (userspace/libbfly): the static and the shared library, its
# header as <bfly/libbfly.h>, and libbfly.pc
install-lib:
	$(MAKE) -C userspace/libbfly libbfly.a libbfly.so.0
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR)/bfly $(DESTDIR)$(LIBDIR)/pkgconfig
	$(INSTALL) -m 644 userspace/libbfly/include/bfly/libbfly.h $(DESTDIR)$(INCLUDEDIR)/bfly/
	$(INSTALL) -m 644 userspace/libbfly/libbfly.a userspace/libbfly/libbfly.so.0 \
		$(DESTDIR)$(LIBDIR)/
	ln -sf libbfly.so.0 $(DESTDIR)$(LIBDIR)/libbfly.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' packaging/libbfly.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/libbfly.pc
	chmod 644 $(DESTDIR)$(LIBDIR)/pkgconfig/libbfly.pc

install-config:
	$(INSTALL) -d $(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(MODPROBEDIR)
	$(INSTALL) -m 644 packaging/60-bfly.rules $(DESTDIR)$(UDEVRULESDIR)/60-bfly.rules
	$(INSTALL) -m 644 packaging/bfly-modprobe.conf $(DESTDIR)$(MODPROBEDIR)/bfly.conf

# The module's sources only (no object files): what DKMS builds from
install-dkms:
	rm -rf $(DESTDIR)$(DKMSSRCDIR)/bfly-$(VERSION)
	$(INSTALL) -d $(DESTDIR)$(DKMSSRCDIR)/bfly-$(VERSION)
	$(INSTALL) -m 644 Kbuild VERSION dkms.conf $(DESTDIR)$(DKMSSRCDIR)/bfly-$(VERSION)/
	find kmod uapi -name '*.[ch]' -o -name '*.mk' | while read -r f; do \
		$(INSTALL) -D -m 644 $$f $(DESTDIR)$(DKMSSRCDIR)/bfly-$(VERSION)/$$f || exit 1; \
	done

# The Debian packages (debian/), built out of a copy of the sources
deb:
	tests/package/build-deb.sh build/deb

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
