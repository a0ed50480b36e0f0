#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-pkgs.sh FLAVOUR - fetch the Debian packages of a kernel flavour that
# the machine's own suite (Debian 12) does not carry, unpack them into the
# cache (once) and print what the flavour provides, as shell assignments:
#
#   lts        Debian 12's backported 6.12 LTS kernel (bookworm-backports:
#              linux-image-<abi>-amd64-unsigned, its headers and kbuild)
#              -> KDIR=... KIMAGE=... KVER=...
#   lts-rt     the same kernel's PREEMPT_RT flavour (-rt-amd64)
#              -> KDIR=... KIMAGE=... KVER=...
#   mainline   the newest kernel source Debian carries (unstable's
#              linux-source metapackage -> linux-source-X.Y), unpacked
#              -> KSRC=... KVER=...
#
# The machine's apt configuration is never touched: a private sources list
# names the extra suite on the same archive the machine's own sources name
# (read from them, never written down here), with private lists, cache and an
# empty dpkg status, and packages come in with `apt-get download` and
# `dpkg -x`.  The version is whatever the suite's metapackage depends on when
# the lists are refreshed (at most once a day, VGPU_APT_MAX_AGE seconds), so a
# new point release is picked up, and an archive that cannot be reached falls
# back on the newest version already unpacked.  Each unpacked flavour records
# its package versions in <dir>/.vgpu-versions.
set -euo pipefail

cache=${VGPU_CACHE:-/var/cache/vgpu-dispatch}
flavour=${1:-}
max_age=${VGPU_APT_MAX_AGE:-86400}

die() { echo "kernel-pkgs.sh: $*" >&2; exit 1; }
log() { echo "kernel-pkgs.sh: $*" >&2; }

case "$flavour" in
lts|lts-rt) suite=bookworm-backports ;;
mainline) suite=unstable ;;
*) die "usage: kernel-pkgs.sh lts|lts-rt|mainline" ;;
esac

# The Debian archive the machine itself uses: the URI of the source that
# carries the main suite, from deb822 .sources files or one-line lists.
archive_uri() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk 'BEGIN { RS = ""; FS = "\n" }
		/(^|\n)Suites:[^\n]*bookworm/ && /(^|\n)Components:[^\n]*main/ {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^URIs:/) { split($i, a, /[ \t]+/); print a[2]; exit }
		}' "$f"
	done
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "deb" && / bookworm / && / main/ {
			for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; exit } }'
}

apt_dir=$cache/apt/$suite
# One fetch at a time per suite; a second caller waits and reuses it.
mkdir -p "$apt_dir"
exec 9> "$apt_dir/.lock"
flock 9
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list"
	-o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
	-o "Dir::State::Lists=$apt_dir/lists"
	-o "Dir::State::status=$apt_dir/status"
	-o "Dir::Cache=$apt_dir/cache"
	-o "Dir::Cache::archives=$apt_dir/archives"
	-o "APT::Get::List-Cleanup=0"
	-o "Debug::NoLocking=1"
	-o "Acquire::Retries=3"
	-o "APT::Sandbox::User=root")

# Refresh the private lists when missing or older than max_age; 0 when the
# lists are usable afterwards.
apt_update() {
	local uri stamp=$apt_dir/.updated now
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/sources.list.d" \
		"$apt_dir/cache" "$apt_dir/archives/partial"
	: >> "$apt_dir/status"
	now=$(date +%s)
	if [ -f "$stamp" ] && [ $((now - $(stat -c %Y "$stamp"))) -lt "$max_age" ]; then
		return 0
	fi
	uri=$(archive_uri | head -n 1)
	[ -n "$uri" ] || { log "no Debian archive in the machine's apt sources"; return 1; }
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main" \
		> "$apt_dir/sources.list"
	log "refreshing the package lists of $suite (private, $apt_dir)"
	if apt-get "${apt_opts[@]}" -qq update >&2; then
		touch "$stamp"
		return 0
	fi
	log "apt-get update of $suite failed"
	[ -f "$stamp" ]
}

# pkg_field PKG FIELD: FIELD of the candidate version of PKG in the suite.
pkg_field() {
	apt-cache "${apt_opts[@]}" show --no-all-versions "$1" 2>/dev/null |
		sed -n "s/^$2: //p" | head -n 1
}

# fetch DEST PKG...: download PKG... and dpkg -x them into DEST (atomically:
# DEST appears complete or not at all).
fetch() {
	local dest=$1 p deb dl
	shift
	dl=$apt_dir/dl
	rm -rf "$dl" "$dest.tmp"
	mkdir -p "$dl" "$dest.tmp"
	log "downloading $* into $dest"
	(cd "$dl" && apt-get "${apt_opts[@]}" -qq download "$@") >&2 ||
		die "apt-get download $* failed"
	: > "$dest.tmp/.vgpu-versions"
	for p in "$@"; do
		deb=$(ls "$dl/${p}_"*.deb 2>/dev/null | head -n 1)
		[ -n "$deb" ] || die "$p was not downloaded"
		dpkg -x "$deb" "$dest.tmp"
		echo "$p $(dpkg-deb -f "$deb" Version)" >> "$dest.tmp/.vgpu-versions"
	done
	rm -rf "$dl"
	# Debian's header packages include each other by absolute path
	# (/usr/src/linux-headers-<abi>-common/Makefile): point them here.
	for m in "$dest.tmp"/usr/src/linux-headers-*/Makefile; do
		[ -f "$m" ] && sed -i "s|^include /usr/src/|include $dest/usr/src/|" "$m"
	done
	mv "$dest.tmp" "$dest"
}

# newest DIR-GLOB: the newest unpacked directory matching the glob, if any.
newest() {
	{ ls -d $1 2>/dev/null || true; } | sort -V | tail -n 1
}

case "$flavour" in
lts|lts-rt)
	[ "$flavour" = lts ] && sfx=amd64 || sfx=rt-amd64
	abi=""
	if apt_update; then
		# linux-headers-amd64 (backports) -> linux-headers-<abi>-amd64
		abi=$(pkg_field "linux-headers-$sfx" Depends |
			sed -n "s/.*linux-headers-\([^ ]*\)-$sfx .*/\1/p")
	fi
	if [ -n "$abi" ]; then
		dir=$cache/kernels/$flavour-$abi
		if [ ! -d "$dir" ]; then
			common=linux-headers-$abi-common
			[ "$flavour" = lts-rt ] && common=$common-rt
			fetch "$dir" "linux-image-$abi-$sfx-unsigned" \
				"linux-headers-$abi-$sfx" "$common" \
				"linux-kbuild-$abi"
		fi
	else
		dir=$(newest "$cache/kernels/$flavour-[0-9]*")
		[ -n "$dir" ] || die "cannot resolve the $flavour kernel and none is cached"
		abi=${dir##*/$flavour-}
		log "using the cached $flavour kernel $abi"
	fi
	kver=$abi-$sfx
	kdir=$dir/usr/src/linux-headers-$kver
	kimage=$dir/boot/vmlinuz-$kver
	[ -f "$kdir/Makefile" ] || die "no headers in $kdir"
	[ -f "$kimage" ] || die "no kernel image $kimage"
	echo "KDIR=$kdir"
	echo "KIMAGE=$kimage"
	echo "KVER=$kver"
	;;
mainline)
	pkg=""
	if apt_update; then
		# linux-source (unstable) -> linux-source-X.Y
		pkg=$(pkg_field linux-source Depends | sed -n 's/^\(linux-source-[0-9.]*\) .*/\1/p')
	fi
	if [ -n "$pkg" ]; then
		ver=$(pkg_field "$pkg" Version)
		dir=$cache/kernels/mainline-$ver
		if [ ! -f "$dir/.vgpu-unpacked" ]; then
			fetch "$dir.deb" "$pkg"
			tarball=$(ls "$dir.deb"/usr/src/linux-source-*.tar.xz)
			rm -rf "$dir" "$dir.tmp"
			mkdir -p "$dir.tmp"
			log "unpacking $tarball"
			tar -xJf "$tarball" -C "$dir.tmp" --strip-components=1
			cp "$dir.deb/.vgpu-versions" "$dir.tmp/"
			touch "$dir.tmp/.vgpu-unpacked"
			mv "$dir.tmp" "$dir"
			rm -rf "$dir.deb"
		fi
	else
		dir=$(newest "$cache/kernels/mainline-[0-9]*")
		[ -n "$dir" ] && [ -f "$dir/.vgpu-unpacked" ] ||
			die "cannot resolve the mainline source and none is cached"
		ver=${dir##*/mainline-}
		log "using the cached mainline source $ver"
	fi
	echo "KSRC=$dir"
	echo "KVER=$(make -s -C "$dir" kernelversion 2>/dev/null || echo "$ver")"
	;;
esac
