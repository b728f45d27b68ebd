#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make install / make uninstall: one list of what is installed, so the two
# cannot drift. The Makefile passes the folders (from PREFIX; DESTDIR is
# prepended to each) and the built binaries:
#
#	mk/install.sh install|uninstall
#	  DESTDIR BINDIR MANDIR DOCDIR COMPDIR DATADIR UNITDIR UDEVDIR TIERTUNE TIERTOP
#	  PREFIX LIBDIR INCDIR MAN3DIR LIBSO SONAME VERSION
#
# The library (lib/README.md): LIBSO (libtiertune.so.1.0.0) with its soname
# link (libtiertune.so.1) and the development link (libtiertune.so), the
# header, tiertune.pc (from lib/tiertune.pc.in, with these folders) and the
# calls' manual pages (docs/*.3).
#
# The Ansible role goes to DATADIR/ansible/ (docs/fleet.md). The models go
# to DATADIR/models/ and the machine trees they name to
# DATADIR/machines/NAME/, each model's machine_sysfs rewritten to
# "../machines/NAME" (a path relative to the model file, as tt_model_load
# reads it), so `--model NAME` finds both wherever PREFIX puts them.
set -eu
mode=${1:?install or uninstall}
: "${BINDIR:?}" "${MANDIR:?}" "${DOCDIR:?}" "${COMPDIR:?}" "${DATADIR:?}" "${UNITDIR:?}" "${UDEVDIR:?}"
: "${LIBDIR:?}" "${INCDIR:?}" "${MAN3DIR:?}"
D=${DESTDIR:-}
# The trees the models name: the last part of their machine_sysfs.
trees() { sed -n 's|.*"machine_sysfs": *"[^"]*/\([^"/]*\)".*|\1|p' model/machines/*.json | sort -u; }
units="tiertune-apply.service tiertune-hotplug.service tiertune-metrics.service tiertune-metrics.timer"

if [ "$mode" = uninstall ]; then
	rm -f "$D$BINDIR/tiertune" "$D$BINDIR/tiertop" "$D$MANDIR/tiertune.1" "$D$MANDIR/tiertop.1" \
		"$D$COMPDIR/tiertune" "$D$COMPDIR/tiertop" "$D$UDEVDIR/85-tiertune.rules"
	for u in $units; do rm -f "$D$UNITDIR/$u"; done
	rm -f "$D$LIBDIR"/libtiertune.so* "$D$LIBDIR/pkgconfig/tiertune.pc" "$D$INCDIR/tiertune.h"
	for m in docs/*.3; do rm -f "$D$MAN3DIR/${m##*/}"; done
	rm -rf "$D$DOCDIR" "$D$DATADIR"
	echo "uninstalled tiertune from $D${BINDIR%/bin}"
	exit 0
fi
[ "$mode" = install ] || { echo "mk/install.sh: '$mode' is neither install nor uninstall" >&2; exit 2; }
: "${TIERTUNE:?}"
# Units name the installed binary and docs.
subst() { sed -e "s|@bindir@|$BINDIR|g" -e "s|@docdir@|$DOCDIR|g" "$1"; }

install -D -m 0755 "$TIERTUNE" "$D$BINDIR/tiertune"
install -D -m 0644 docs/tiertune.1 "$D$MANDIR/tiertune.1"
install -D -m 0644 cli/completion.bash "$D$COMPDIR/tiertune"
if [ -n "${TIERTOP:-}" ]; then
	install -D -m 0755 "$TIERTOP" "$D$BINDIR/tiertop"
	install -D -m 0644 docs/tiertop.1 "$D$MANDIR/tiertop.1"
	install -D -m 0644 tui/completion.bash "$D$COMPDIR/tiertop"
fi
for f in README.md docs/json.md docs/fleet.md docs/models.md; do install -D -m 0644 "$f" "$D$DOCDIR/${f##*/}"; done
for f in systemd/*.in; do
	u=${f##*/}
	install -d "$D$UNITDIR"
	subst "$f" >"$D$UNITDIR/${u%.in}"
	chmod 0644 "$D$UNITDIR/${u%.in}"
done
: "${LIBSO:?}" "${SONAME:?}" "${VERSION:?}" "${PREFIX:?}"
install -D -m 0644 "$LIBSO" "$D$LIBDIR/${LIBSO##*/}"
ln -sf "${LIBSO##*/}" "$D$LIBDIR/$SONAME"
ln -sf "$SONAME" "$D$LIBDIR/libtiertune.so"
install -D -m 0644 lib/tiertune.h "$D$INCDIR/tiertune.h"
install -d "$D$LIBDIR/pkgconfig"
sed -e "s|@prefix@|$PREFIX|" -e "s|@libdir@|$LIBDIR|" -e "s|@includedir@|$INCDIR|" \
	-e "s|@version@|$VERSION|" -e '/^# SPDX/d' lib/tiertune.pc.in >"$D$LIBDIR/pkgconfig/tiertune.pc"
chmod 0644 "$D$LIBDIR/pkgconfig/tiertune.pc"
for m in docs/*.3; do install -D -m 0644 "$m" "$D$MAN3DIR/${m##*/}"; done
install -D -m 0644 systemd/tiertune-metrics.timer "$D$UNITDIR/tiertune-metrics.timer"
install -D -m 0644 systemd/85-tiertune.rules "$D$UDEVDIR/85-tiertune.rules"
# The Ansible role and its example playbook, as git has them (not the
# lint configuration, which is the tree's test).
for f in $(cd ansible && find . -type f ! -name .ansible-lint | sort); do
	install -D -m 0644 "ansible/${f#./}" "$D$DATADIR/ansible/${f#./}"
done
install -d "$D$DATADIR/models" "$D$DATADIR/machines"
for m in model/machines/*.json; do
	sed 's|\("machine_sysfs": *"\)[^"]*/\([^"/]*\)"|\1../machines/\2"|' "$m" >"$D$DATADIR/models/${m##*/}"
	chmod 0644 "$D$DATADIR/models/${m##*/}"
done
for t in $(trees); do
	[ -d "tests/fixtures/sysfs/$t" ] || { echo "mk/install.sh: a model names tests/fixtures/sysfs/$t, which is not there" >&2; exit 1; }
	rm -rf "$D$DATADIR/machines/$t"
	cp -R "tests/fixtures/sysfs/$t" "$D$DATADIR/machines/$t"
	# Data, not programs, whatever the checkout's umask made them.
	find "$D$DATADIR/machines/$t" -type d -exec chmod 0755 {} + -o -type f -exec chmod 0644 {} +
done
echo "installed tiertune under $D${BINDIR%/bin}"
