#!/usr/bin/env bash
# runners-scan.sh OUT [EXTRA_ROOT]: the scan behind runners.md (issue 19
# item 7). For every executable in /usr/bin /usr/sbin (/bin and /sbin are
# links to them on Debian 12) and, when given, in EXTRA_ROOT/{usr/,}{s,}bin
# (packages unpacked with dpkg -x rather than installed: daemons whose
# postinst would start a service, and large ones), it collects the man page
# (zcat of man{1,8,6}/NAME.*; roff requests and font escapes removed) and the
# output of `NAME --help` (then `-h` when --help printed nothing), run as
# nobody with no new privileges, stdin /dev/null, in an empty scratch
# directory, HOME there, 5 s timeout (programs named like power-off or init
# tools are not run at all), into OUT/text/NAME.txt; then it greps every
# text for each phrase of PHRASES and writes OUT/match/PHRASE (one name a
# line) and OUT/counts.
set -u
out=$1 extra=${2:-}
mkdir -p "$out/text" "$out/match" "$out/scratch"
chown nobody "$out/scratch"

bins() {
	for d in /usr/bin /usr/sbin ${extra:+$extra/usr/bin $extra/usr/sbin $extra/bin $extra/sbin}; do
		[ -d "$d" ] || continue
		find "$d" -maxdepth 1 \( -type f -o -type l \) -perm -u+x -printf '%p\n'
	done
}

manpage() { # NAME ROOT...: the roff of NAME's page, de-roffed
	local n=$1 r f
	shift
	for r in "$@"; do
		for f in "$r"/usr/share/man/man1/"$n".1* "$r"/usr/share/man/man8/"$n".8* "$r"/usr/share/man/man6/"$n".6*; do
			[ -f "$f" ] || continue
			zcat -f "$f" 2>/dev/null | sed -e 's/\\f[BIRPC(][A-Z]*//g' -e 's/\\-/-/g' -e 's/\\(em/--/g' -e 's/^\.[A-Za-z]\{1,3\} *//' -e 's/\\&//g'
			return
		done
	done
}

help() { # PATH: --help (or -h) output, as nobody
	local p=$1 o
	case "${p##*/}" in
	reboot | halt | poweroff | shutdown | init | telinit | runlevel | *-init | runit | runsvdir | svscan* | s6-svscan*) echo "(not run)"; return ;;
	esac
	for a in --help -h; do
		o=$(cd "$out/scratch" && env -i PATH=/usr/bin:/usr/sbin HOME="$out/scratch" LANG=C.UTF-8 TERM=dumb \
			timeout -k 1 5 setpriv --reuid=nobody --regid=nogroup --clear-groups --no-new-privs "$p" "$a" </dev/null 2>&1 | head -c 200000)
		if [ -n "$o" ]; then
			printf '%s\n' "$o"
			return
		fi
	done
}

n=0 nman=0
bins | sort -u > "$out/bins"
while read -r p; do
	name=${p##*/}
	f="$out/text/$name.txt"
	[ -e "$f" ] && continue # the same name twice (/usr/bin and EXTRA_ROOT)
	m=$(manpage "$name" / ${extra:+$extra})
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
execute	\bexecut(e|es|ed|ing|ion)\b
run-command	\bruns? (a |the |an |any |given |specified |arbitrary |another |other |user )*(command|program|prog|script|executable|application|utility|binary)
command-to-run	(command|program|script)s? (to|that will|which will|will be) (run|execute|be run|be executed|launch|invoke)
program-args	\b(command|program|prog|cmd|utility|executable)\]?\s*\[\s*-*(arg|args|argument|arguments|options?|params?)\b
exec-option	(^|[^a-z])--?exec(=|\b)
e-cmd	(^|\s)-[ecx][ ,=]+\[?(cmd|command|prog|program|script|utility)\b
plugin	plug-?ins?\b
load-module	\bload(s|ing|ed)? (a |the |any |each |every |all |additional |extra |external |user |custom )*(module|library|libraries|plugin|extension|shared|\.so)
ld-preload	LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT
dlopen	\bdlopen
shared-object	shared (object|library)
preload	--?preload
wrapper	wrapper|--wrap\b
hook	\bhooks?\b
shell-escape	shell[ -]escape|(invoke|spawn|start|run)s? (a |the |an |your )?(sub)?shell\b|!command|! command
interpreter	--?(interpreter|debugger|profiler|launcher|emulator)\b
PHRASES
