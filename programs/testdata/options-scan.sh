#!/usr/bin/env bash
# options-scan.sh OUT [probe]: the scan behind options.md (issue 28 items 2,
# 3, 6); with "probe", only the last pass, over an OUT already collected.
# For every executable in the directories of PATH_DIRS (default /usr/bin
# /usr/sbin; /bin and /sbin are links to them on Debian 12) it collects the
# man page (zcat of man{1,8}/NAME.*; for a versioned name with no page of
# its own — llvm-nm-14, gcc-12, python3.11 — the page of the name without
# its version; roff requests and font escapes removed) and the output of
# `NAME --help` (then `-h` when --help printed nothing), run as nobody with
# no new privileges, stdin /dev/null, in an empty scratch directory that is
# also HOME, 5 s timeout (programs named like power-off or init tools are not
# run), into OUT/text/NAME.txt. Then it greps every text for each phrase of
# PHRASES and writes OUT/match/LABEL (one name a line) and OUT/counts. A
# second pass asks each program matched by no response-file phrase whether
# it reads one anyway: it runs `NAME @OUT/probe.rsp` with the file holding
# --version, and records in OUT/match/probe-version the names whose output
# then is that of `NAME --version` and differs from `NAME @OUT/missing.rsp`.
set -u
out=$1
dirs=${PATH_DIRS:-/usr/bin /usr/sbin}
mkdir -p "$out/text" "$out/match" "$out/scratch"
chown nobody "$out/scratch"

bins() {
	for d in $dirs; do
		[ -d "$d" ] || continue
		find "$d" -maxdepth 1 \( -type f -o -type l \) -perm -u+x -printf '%p\n'
	done
}

unversioned() { # NAME: NAME without a version suffix (-14, -12, 3.11, 5.36.0)
	printf '%s\n' "$1" | sed -E 's/-[0-9][0-9.]*$//; s/([a-z])[0-9]+(\.[0-9]+)+$/\1/'
}

manpage() { # NAME: the roff of NAME's page, de-roffed
	local n f
	for n in "$1" "$(unversioned "$1")"; do
		for f in /usr/share/man/man1/"$n".1* /usr/share/man/man8/"$n".8*; do
			[ -f "$f" ] || continue
			zcat -f "$f" 2>/dev/null | sed -e 's/\\f[BIRPC(][A-Z]*//g' -e 's/\\-/-/g' -e 's/\\(em/--/g' -e 's/^\.[A-Za-z]\{1,3\} *//' -e 's/\\&//g'
			return
		done
	done
}

skip() { # NAME: programs not run at all
	case "$1" in
	reboot | halt | poweroff | shutdown | init | telinit | runlevel | *-init | runit | runsvdir | svscan* | s6-svscan*) return 0 ;;
	esac
	return 1
}

asnobody() { # PATH ARG...: run as nobody in the scratch directory
	(cd "$out/scratch" && env -i PATH=/usr/bin:/usr/sbin HOME="$out/scratch" LANG=C.UTF-8 TERM=dumb \
		timeout -k 1 5 setpriv --reuid=nobody --regid=nogroup --clear-groups --no-new-privs "$@" </dev/null 2>&1 | head -c 200000)
}

help() { # PATH: --help (or -h) output
	local p=$1 o a
	skip "${p##*/}" && { echo "(not run)"; return; }
	for a in --help -h; do
		o=$(asnobody "$p" "$a")
		if [ -n "$o" ]; then
			printf '%s\n' "$o"
			return
		fi
	done
}

probe() { # PATH: prints NAME when PATH expands @FILE
	local p=$1 name=${1##*/} a b v
	a=$(asnobody "$p" "@$out/probe.rsp")
	b=$(asnobody "$p" "@$out/missing.rsp")
	# A cheap filter first, then the test: what @probe.rsp prints is what
	# --version prints (a usage message that echoes its argument differs).
	if [ "$a" != "$b" ] && printf '%s\n' "$a" | grep -qiE 'version|[0-9]+\.[0-9]+'; then
		v=$(asnobody "$p" --version)
		[ -n "$v" ] && [ "$a" = "$v" ] && echo "$name"
	fi
}

if [ "${2:-}" != probe ]; then
n=0 nman=0
bins | sort -u > "$out/bins"
while read -r p; do
	name=${p##*/}
	f="$out/text/$name.txt"
	[ -e "$f" ] && continue
	m=$(manpage "$name")
	[ -n "$m" ] && nman=$((nman + 1))
	{
		echo "== path $p -> $(readlink -f "$p")"
		echo "== man"
		printf '%s\n' "$m"
		echo "== help"
		help "$p"
	} > "$f" 2>/dev/null
	n=$((n + 1))
done < "$out/bins"
echo "executables $(wc -l < "$out/bins") names $n" > "$out/counts"
echo "with a man page $nman" >> "$out/counts"

# PHRASES: label<TAB>extended regular expression (matched case-insensitively)
while IFS=$'\t' read -r label re; do
	[ -n "$label" ] || continue
	grep -liE -- "$re" "$out"/text/*.txt | sed 's,.*/,,; s,\.txt$,,' > "$out/match/$label"
	echo "$label $(wc -l < "$out/match/$label")" >> "$out/counts"
done <<'PHRASES'
at-file	(^|[^a-z0-9._%+-])@(file|<file>|filename|argfile|files|path|cmdfile)\b
response-file	response[ -]files?|options? files?|argument files?|@-?files?|read (additional |more )?(command[- ]line )?(options|arguments) from
plugin-option	(^|[^a-z])--?f?plugin(-opt|-path|-dir)?\b
load-option	(^|[^a-z])--?(load|load-pass-plugin|load-plugin|dlopen|preload|module|modules|engine|keygen_engine|provider|provider-path|extension|extensions|library|lib|so|ld-preload|audit|interp|rcfile|init-file|rc)(=|\b)
env-loader	\bLD_(PRELOAD|AUDIT|LIBRARY_PATH)\b|[A-Z_]+_(PLUGIN|MODULE|ENGINE|PROVIDER)S?(_PATH|_DIR)?\b
loads-code	\bload(s|ing|ed)? (a |the |an |any |each |every |all |additional |extra |external |user |custom |dynamic )*(module|library|libraries|plugin|plug-in|extension|engine|provider|shared|\.so)
PHRASES

fi

# The probe: does NAME expand @FILE? (only names a phrase above did not
# find, run as nobody like --help, four at a time; a program that expands
# it prints for @probe.rsp what it prints for --version, and something
# else for @missing.rsp.)
printf -- '--version\n' > "$out/probe.rsp"
chmod 644 "$out/probe.rsp"
cat "$out/match/at-file" "$out/match/response-file" | sort -u > "$out/phrased"
export out
export -f probe asnobody skip
while read -r p; do
	name=${p##*/}
	grep -qxF -- "$name" "$out/phrased" && continue
	skip "$name" && continue
	printf '%s\n' "$p"
done < "$out/bins" | xargs -r -d '\n' -n 1 -P 4 bash -c 'probe "$1"' _ | sort -u > "$out/match/probe-version"
sed -i '/^probe-version /d' "$out/counts"
echo "probe-version $(wc -l < "$out/match/probe-version")" >> "$out/counts"
