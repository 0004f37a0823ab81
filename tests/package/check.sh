#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check T=package: bfly's installation and packaging, one TAP line
# ("ok - ..." or "not ok - ...") per check:
#   - dkms.conf's PACKAGE_VERSION is the VERSION file's
#   - the Debian packages build (build-deb.sh) and lintian reports no error
#     (its warnings go to OUTDIR/lintian.txt)
#   - make install DESTDIR= PREFIX=/usr installs every file it should
#     (the module built for stock 6.1)
#   - pkg-config on the installed bfly.pc compiles a program against the
#     installed headers; on libbfly.pc, one links the installed libbfly
#   - the installed bash completion completes commands, topologies, fabrics
#   - DKMS (private trees in OUTDIR) builds bfly.ko for stock 6.1 from
#     the bfly-dkms package's files
#   - a VM of Debian's stock 6.1 kernel with the packages' files (dpkg -x)
#     loads that bfly.ko and runs the demo with the installed programs
#
#   check.sh OUTDIR
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
version=$(cat "$top/VERSION")
n=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1))
	echo "not ok $n - $1"
	shift
	for f in "$@"; do tail -20 "$f" | sed 's/^/#   /'; done
}

# The stock 6.1 kernel: "RELEASE VMLINUZ KDIR"
read -r release vmlinuz kdir < <("$top/tests/vm/stock-kernels.sh" 2> "$out/stock.log" |
				 grep ' /usr/src/linux-headers-6\.1\.')

if grep -qx "PACKAGE_VERSION=\"$version\"" "$top/dkms.conf"; then
	ok "dkms.conf: PACKAGE_VERSION is VERSION's ($version)"
else
	echo "$top/dkms.conf: PACKAGE_VERSION is not \"$version\"" > "$out/dkms-version.log"
	not_ok "dkms.conf: PACKAGE_VERSION is VERSION's ($version)" "$out/dkms-version.log"
fi

deb=$out/deb
if "$top/tests/package/build-deb.sh" "$deb" > "$out/build-deb.log" 2>&1; then
	ok "dpkg-buildpackage: bfly-dkms, bflyctl, libbfly0, libbfly-dev"
else
	not_ok "dpkg-buildpackage: bfly-dkms, bflyctl, libbfly0, libbfly-dev" "$out/build-deb.log"
fi
lintian --tag-display-limit 0 -I "$deb"/bfly_"$version"_amd64.changes > "$deb/lintian.txt" 2>&1
if [ -s "$deb"/bfly_"$version"_amd64.changes ] && ! grep -q '^E: ' "$deb/lintian.txt"; then
	ok "lintian: no error ($(grep -c '^W: ' "$deb/lintian.txt") warnings, in ${deb#"$top"/}/lintian.txt)"
else
	not_ok "lintian: no error" "$deb/lintian.txt"
fi

# make install from the packages' copy of the sources (built programs and
# all), the module built for stock 6.1
dest=$out/destdir
rm -rf "$dest"
if make -C "$deb/bfly-$version" install DESTDIR="$dest" PREFIX=/usr KDIR="$kdir" \
	> "$out/make-install.log" 2>&1; then
	ok "make install DESTDIR= PREFIX=/usr"
else
	not_ok "make install DESTDIR= PREFIX=/usr" "$out/make-install.log"
fi
missing=
for f in usr/bin/bfly-info usr/bin/bfly-route usr/sbin/bflyctl \
	 usr/share/man/man1/bfly-info.1 usr/share/man/man1/bfly-route.1 \
	 usr/share/man/man8/bflyctl.8 usr/share/man/man4/bfly.4 \
	 usr/share/bash-completion/completions/bflyctl \
	 usr/include/linux/bfly.h usr/include/linux/bfly_netlink.h \
	 usr/include/linux/bfly_route.h usr/include/linux/bfly_batch.h \
	 usr/include/linux/bfly_msgset.h usr/include/linux/bfly_hrel.h \
	 usr/share/pkgconfig/bfly.pc etc/udev/rules.d/60-bfly.rules \
	 usr/include/bfly/libbfly.h usr/lib/libbfly.a usr/lib/libbfly.so.0 usr/lib/libbfly.so \
	 usr/lib/pkgconfig/libbfly.pc \
	 etc/modprobe.d/bfly.conf "lib/modules/$release/updates/bfly.ko"; do
	[ -f "$dest/$f" ] || missing+=" $f"
done
if [ -z "$missing" ]; then
	ok "make install: programs, man pages, completion, headers, bfly.pc, libbfly, udev, modprobe.d, bfly.ko"
else
	echo "missing:$missing" > "$out/install-missing.log"
	not_ok "make install: every file installed" "$out/install-missing.log"
fi

# A program built against the installed headers, found by pkg-config
cat > "$out/pc-test.c" <<'PROG'
#include <stdio.h>
#include <linux/bfly.h>
#include <linux/bfly_netlink.h>

int main(void)
{
	printf("%s %lu %lu\n", BFLY_FAMILY_NAME, (unsigned long)sizeof(struct bfly_info),
	       (unsigned long)BFLY_IOC_GET_INFO);
	return 0;
}
PROG
if { PKG_CONFIG_PATH=$dest/usr/share/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest pkg-config --modversion bfly |
       grep -qx "$version" &&
     cc -Wall -Werror $(PKG_CONFIG_PATH=$dest/usr/share/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest \
			pkg-config --cflags bfly) -o "$out/pc-test" "$out/pc-test.c" &&
     "$out/pc-test" | grep -q '^bfly '; } > "$out/pkg-config.log" 2>&1; then
	ok "pkg-config bfly ($version): a program compiles against the installed headers"
else
	not_ok "pkg-config bfly: a program compiles against the installed headers" "$out/pkg-config.log"
fi

# A program linked with the installed libbfly, found by pkg-config
cat > "$out/lib-test.c" <<'PROG'
#include <stdio.h>
#include <bfly/libbfly.h>

int main(void)
{
	__u32 dest[8];

	if (libbfly_a2a_round(8, LIBBFLY_A2A_RLS, 3, dest) || dest[0] != 5)
		return 1;
	printf("libbfly %s\n", libbfly_version());
	return 0;
}
PROG
pc() { PKG_CONFIG_PATH=$dest/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest pkg-config "$@"; }
if { pc --modversion libbfly | grep -qx "$version" &&
     cc -Wall -Werror $(pc --cflags libbfly) -o "$out/lib-test" "$out/lib-test.c" \
	$(pc --libs libbfly) &&
     LD_LIBRARY_PATH=$dest/usr/lib "$out/lib-test" | grep -qx "libbfly $version" &&
     objdump -p "$out/lib-test" | grep -q 'NEEDED *libbfly.so.0'; } > "$out/libbfly.log" 2>&1; then
	ok "pkg-config libbfly ($version): a program links the installed libbfly.so.0 and runs"
else
	not_ok "pkg-config libbfly: a program links the installed libbfly.so.0 and runs" \
		"$out/libbfly.log"
fi

# bflyctl's installed bash completion: commands, topologies, and the
# fabrics a (stand-in) bflyctl list shows
if bash -c "source '$dest/usr/share/bash-completion/completions/bflyctl'
	bflyctl() { printf 'ID   DEV        TOPOLOGY\n0    bfly0      benes\n3    bfly3      bfly2\n'; }
	c() { COMP_WORDS=(\"\$@\"); COMP_CWORD=\$((\${#COMP_WORDS[@]} - 1)); _bflyctl; echo \"\${COMPREPLY[*]}\"; }
	[ \"\$(c bflyctl r)\" = 'route raw' ] &&
	[ \"\$(c bflyctl new b)\" = 'butterfly bfly2 bfly-twice benes' ] &&
	[ \"\$(c bflyctl -j show '')\" = 'bfly0 bfly3' ] &&
	[ \"\$(c bflyctl fault add bfly3 s)\" = 'stuck straight' ]" > "$out/completion.log" 2>&1; then
	ok "bash completion: commands, topologies, fabrics from bflyctl list"
else
	not_ok "bash completion: commands, topologies, fabrics from bflyctl list" "$out/completion.log"
fi

# DKMS from bfly-dkms's files, in private trees (nothing in /var/lib/dkms
# but DKMS's signing key)
root=$out/root
dk=$out/dkms
rm -rf "$root" "$dk"
mkdir -p "$dk/tree" "$dk/inst"
for p in bfly-dkms bflyctl; do
	dpkg-deb -x "$deb/${p}_${version}_"*.deb "$root"
done
dkms_opts=(--dkmstree "$dk/tree" --sourcetree "$root/usr/src" --installtree "$dk/inst")
ko=$dk/tree/bfly/$version/$release/x86_64/module/bfly.ko
if dkms add "${dkms_opts[@]}" "bfly/$version" > "$dk/dkms.log" 2>&1 &&
   dkms build "${dkms_opts[@]}" "bfly/$version" -k "$release" --kernelsourcedir "$kdir" \
	>> "$dk/dkms.log" 2>&1 && [ -f "$ko" ] &&
   modinfo -F vermagic "$ko" | grep -q "^$release "; then
	ok "dkms build bfly/$version for $release"
else
	cat "$dk/tree/bfly/$version/build/make.log" >> "$dk/dkms.log" 2>/dev/null
	not_ok "dkms build bfly/$version for $release" "$dk/dkms.log"
fi

# Every parameter modinfo lists is in the installed modprobe.d example
# (as "#options bfly NAME=" or named in its comments) and in bfly(4)
parms=$(modinfo -F parm "$ko" 2> /dev/null | cut -d: -f1 | sort)
conf=$root/etc/modprobe.d/bfly.conf
man4=$(zcat -f "$root"/usr/share/man/man4/bfly.4* 2> /dev/null)
missing=
for p in $parms; do
	grep -qE "^#options bfly $p=|^# (.* )?$p (and|are|is) " "$conf" 2> /dev/null ||
		missing="$missing conf:$p"
	printf '%s\n' "$man4" | grep -qE "^\.BI? $p(=| |$)" || missing="$missing bfly.4:$p"
done
if [ -n "$parms" ] && [ -z "$missing" ]; then
	ok "modprobe.d example and bfly(4): every parameter of modinfo ($(echo $parms | wc -w))"
else
	echo "parameters: $(echo $parms); missing:$missing" > "$out/params.log"
	not_ok "modprobe.d example and bfly(4): every parameter of modinfo" "$out/params.log"
fi

# The VM: the installed files, the DKMS module where dkms install puts it
modpath=/lib/modules/$release/updates/dkms/bfly.ko
vmdir=$out/vm
rm -rf "$vmdir"
mkdir -p "$vmdir/nomod"
install -D -m 644 "$ko" "$root$modpath" 2>/dev/null
# Debian's udevd, to apply the installed rule (lib/udev/rules.d), and the
# system group bfly-dkms's postinst adds (addgroup --system bfly)
install -D -m 755 /usr/bin/udevadm "$root/usr/bin/udevadm"
mkdir -p "$root/lib/systemd" "$root/etc"
ln -sf /usr/bin/udevadm "$root/lib/systemd/systemd-udevd"
echo 'bfly:x:120:' > "$root/etc/group"
if [ -f "$root$modpath" ] &&
   BFLY_YNL=no BFLY_ROOT=$root "$top/tests/vm/mkinitramfs.sh" "$vmdir/initrd.cpio.gz" "$vmdir/nomod" \
	> "$vmdir/mkinitramfs.log" 2>&1 &&
   "$top/tests/vm/run-vm.sh" "$vmlinuz" "$vmdir/initrd.cpio.gz" "$vmdir/console.log" \
	"$vmdir/results.log" "${BFLY_VM_TIMEOUT:-600}" bflymode=demo bflyko=$modpath bflyargs=topology=benes,ports=16 \
	> "$vmdir/run-vm.log" 2>&1 &&
   grep -q '^# rmmod bfly: ok' "$vmdir/results.log" &&
   grep -qx "# insmod $modpath topology=benes ports=16" "$vmdir/results.log" &&
   grep -Eq '^0 +bfly0 +benes ' "$vmdir/results.log" &&
   grep -Eq '^crw-rw---- +1 root +bfly .* /dev/bfly0$' "$vmdir/results.log" &&
   "$top/tests/vm/check-log.sh" "$vmdir/console.log" > "$vmdir/check-log.log" 2>&1; then
	ok "stock $release VM: the DKMS bfly.ko loads, udev gives /dev/bfly0 to group bfly (0660), the installed programs run the demo"
else
	not_ok "stock $release VM: the DKMS bfly.ko loads, udev gives /dev/bfly0 to group bfly (0660), the installed programs run the demo" \
		"$vmdir/mkinitramfs.log" "$vmdir/run-vm.log" "$vmdir/results.log" "$vmdir/console.log"
fi
