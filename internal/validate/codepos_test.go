package validate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// codeSpec builds a spec for template cmd. Every slot is a required string
// unless decl says otherwise: "enum:a|b", "pattern:RE", "int", "path",
// "default:v"; a leading "opt" makes it optional ("opt enum:a|b").
func codeSpec(cmd string, decl map[string]string) *tool.Spec {
	t, err := ParseTemplate(cmd)
	if err != nil {
		panic(err)
	}
	s := &tool.Spec{Name: "t", Description: "d", Command: cmd}
	for _, name := range t.Slots() {
		a := tool.Arg{Name: name, Type: tool.String, Description: "d", Required: true}
		d := decl[name]
		if rest, ok := strings.CutPrefix(d, "opt"); ok {
			a.Required, d = false, strings.TrimSpace(rest)
		}
		kind, val, _ := strings.Cut(d, ":")
		switch kind {
		case "default":
			a.Required, a.Default, a.HasDefault = false, val, true
		case "enum":
			a.Enum = strings.Split(val, "|")
		case "pattern":
			a.Pattern = val
		case "int":
			a.Type = tool.Integer
		case "path":
			a.Type = tool.Path
		}
		s.Args = append(s.Args, a)
	}
	return s
}

// codeRefusals returns the 613 messages of Spec(s) by field.
func codeRefusals(t *testing.T, s *tool.Spec) map[string]string {
	t.Helper()
	_, err := Spec(s)
	out := map[string]string{}
	if err == nil {
		return out
	}
	for _, e := range specErrors(t, err) {
		out[e.Field] += e.Msg + "\n"
	}
	return out
}

type codeCase struct {
	cmd  string
	decl map[string]string
	// refused maps a field ("arguments.x", "command") to a part of its
	// message; nil: the spec passes.
	refused map[string]string
}

func refused(slot, msg string) map[string]string {
	if slot == "command" {
		return map[string]string{"command": msg}
	}
	return map[string]string{"arguments." + slot: msg}
}

var codeCases = []codeCase{
	// sed: the script operand.
	{"sed -n {s} {f}", nil, refused("s", "sed's script (its first operand")},
	{"sed {s} {f}", nil, refused("s", "sed's script")},
	{"gsed -n {s} {f}", nil, refused("s", "gsed's script")},
	{"sed4.9 -n {s} {f}", nil, refused("s", "sed4.9's script")},
	{"/usr/bin/sed -n {s} {f}", nil, refused("s", "sed's script")},
	{"SED -n {s} {f}", nil, refused("s", "sed's script")},
	{"sed -n {s}p {f}", nil, refused("s", "(part of) sed's script")},
	{"sed -n 1{s} {f}", nil, refused("s", "(part of) sed's script")},
	{"sed -n -- {s} {f}", nil, refused("s", "sed's script")},
	{"sed -l {n} {s} {f}", map[string]string{"n": "int"}, refused("s", "sed's script")},
	{"sed --line-length {n} -n {s} {f}", map[string]string{"n": "int"}, refused("s", "sed's script")},
	// sed: -e and --expression, attached, separate, clustered, abbreviated.
	{"sed -e {s} {f}", nil, refused("s", "(the value of -e)")},
	{"sed -e{s} {f}", nil, refused("s", "(the value of -e)")},
	{"sed -ne {s} {f}", nil, refused("s", "(the value of -e)")},
	{"sed -ne{s} {f}", nil, refused("s", "(the value of -e)")},
	{"sed -e p -e {s} {f}", nil, refused("s", "(the value of -e)")},
	{"sed --expression={s} {f}", nil, refused("s", "(the value of --expression)")},
	{"sed --expression {s} {f}", nil, refused("s", "(the value of --expression)")},
	{"sed --expr={s} {f}", nil, refused("s", "(the value of --expr)")},
	{"sed --e {s} {f}", nil, refused("s", "(the value of --e)")},
	{"sed -n -e 1p {f} -e {s}", nil, refused("s", "(the value of -e)")},
	// sed: -f names the script's file: refused, enum or not.
	{"sed -f {p} {f}", nil, refused("p", "sed's -f, which names the file sed reads its script from")},
	{"sed -nf{p} {f}", nil, refused("p", "sed's -f")},
	{"sed --file={p} {f}", map[string]string{"p": "path"}, refused("p", "sed's --file")},
	{"sed --fi {p} {f}", nil, refused("p", "sed's --fi (--file)")},
	{"sed -f {p} {f}", map[string]string{"p": "enum:a.sed|b.sed"}, refused("p", "an enum does not help: write the script out in the template instead (-e SCRIPT)")},
	// sed: a slot among option letters can add e or f.
	{"sed -n{p} {f}", nil, map[string]string{"arguments.p": `option letters or in the option name of "-n{p}"`,
		"arguments.f": `"-n{p}…"`}}, // p = "e" makes {f} the script
	{"sed -n{p} {s} {f}", nil, map[string]string{"arguments.p": "option letters", "arguments.s": "sed's script"}},
	{"sed -{o} {s} {f}", map[string]string{"o": "enum:n|s"}, refused("s", `with {o} as "n", it is (part of) sed's script`)},
	{"sed -{o} {s} {f}", map[string]string{"o": "enum:n|e", "s": "enum:1p|2p"}, nil},
	// sed: enums are checked value by value with SedScript.
	{"sed -n {s} {f}", map[string]string{"s": "enum:1p|2p|s/a/b/gp"}, nil},
	{"sed -n {s} {f}", map[string]string{"s": "enum:1p|1eid"}, refused("s", `with {s} as "1eid" the script is "1eid", which is refused: the e command`)},
	{"sed -n {s} {f}", map[string]string{"s": "enum:s/x/y/e"}, refused("s", "e flag of s")},
	{"sed -n {s} {f}", map[string]string{"s": "enum:s/x/y/w"}, refused("s", "w flag of s")},
	{"sed -n {s} {f}", map[string]string{"s": "enum:1r/etc/passwd"}, refused("s", "the r command")},
	{"sed -e {s} {f}", map[string]string{"s": "enum:1W/tmp/x"}, refused("s", "the W command")},
	{"sed -n {a},{b}p {f}", map[string]string{"a": "enum:1|2", "b": "enum:3|4"}, nil},
	{"sed -n {a},3{b} {f}", map[string]string{"a": "enum:1|2", "b": "enum:p|e"}, refused("a", `{a} as "1" and {b} as "e" the script is "1,3e"`)},
	// sed: patterns without letters pass; letters by any route do not.
	{"sed -n {r}p {f}", map[string]string{"r": "pattern:^[0-9]+(,[0-9]+)?$"}, nil},
	{"sed -n {r}p {f}", map[string]string{"r": `pattern:\d+(,\d+)?`}, nil},
	{"sed -n {r}p {f}", map[string]string{"r": "int"}, nil},
	{"sed -n {r}p {f}", map[string]string{"r": "pattern:(?i)^[0-9k]+$"}, refused("r", "sed's script")},
	{"sed -n {r}p {f}", map[string]string{"r": `pattern:(?i)^[0-9\x{212A}]+$`}, refused("r", "sed's script")},
	{"sed -n {r}p {f}", map[string]string{"r": `pattern:^\pL+$`}, refused("r", "sed's script")},
	{"sed -n {r}p {f}", map[string]string{"r": "pattern:^.+$"}, refused("r", "sed's script")},
	{"sed -n {r}p {f}", map[string]string{"r": "pattern:^[^0-9]+$"}, refused("r", "sed's script")},
	{"sed -n {r}p {f}", map[string]string{"r": `pattern:^\w+$`}, refused("r", "sed's script")},
	{"sed -n {r}p {f}", map[string]string{"r": `pattern:^[[:alpha:]]+$`}, refused("r", "sed's script")},
	{"sed -n {r}p {f}", map[string]string{"r": `pattern:^\Qe`}, refused("r", "sed's script")},
	// a letter-free value next to the script's own e, w or r: s/{r}/e with
	// r = "/" would be s///e, which runs each line … refused; x is no
	// command that runs or writes anything.
	{"sed -n s/{r}/e {f}", map[string]string{"r": "pattern:^[0-9/]+$"}, refused("r", `holds "e"`)},
	{"sed -n s/{r}/x/ {f}", map[string]string{"r": "pattern:^[0-9/]+$"}, nil},
	{"sed -n {r}w {f}", map[string]string{"r": "pattern:^[0-9,/]+$"}, refused("r", `holds "w"`)},
	{"sed -n s,{r},x,e {f}", map[string]string{"r": "pattern:^[0-9,]+$"}, refused("r", `holds "e"`)},
	// sed: the template's own script is judged too.
	{"sed e {f}", nil, refused("command", `sed's script (its first operand, as no -e or -f is given) "e" is refused`)},
	{"sed -n -e 1p -e s/x/y/w {f}", nil, refused("command", "w flag of s")},
	{"sed -n 1,5p {f}", nil, nil},
	{"sed -n -e p -- {f}", nil, nil},
	{"sed {f} -e p", nil, nil},
	{"sed -e p {f}", nil, nil},
	{"sed -n -e 1p --expression=2p {f}", nil, nil},
	// An optional slot without a default drops its word when unset, and the
	// next word moves into its place.
	{"sed -l {n} {s} {f}", map[string]string{"n": "opt", "s": "enum:1p|2p"}, refused("f", "with {n} unset (its word dropped), it is (part of) sed's script")},
	{"sed -e {s} {f}", map[string]string{"s": "opt enum:1p|2p"}, refused("f", "with {s} unset (its word dropped), it is (part of) sed's script (the value of -e)")},
	{"sed -n {r}p {f}", map[string]string{"r": "opt pattern:^[0-9]+$"}, refused("f", "with {r} unset")},
	{"sed -n {r}p {f}", map[string]string{"r": "opt pattern:^[0-9]+$", "f": "enum:a.txt|b.txt"}, nil},
	{"sort -o {o} --compress-program gzip {f}", map[string]string{"o": "opt"}, nil},
	{"sort -T {o} --compress-program {p} {f}", map[string]string{"o": "opt", "p": "enum:gzip"}, nil},
	{"git -C {d} log {x}", map[string]string{"d": "opt"}, refused("x", "with {d} unset (its word dropped), it is git's subcommand")},
	{"git -C {d} log {x}", map[string]string{"d": "default:."}, nil},
	// tar reads a first argument without a dash as option letters.
	{"tar xIf {p} {f}", nil, refused("p", `tar's -I (in xIf)`)},
	{"tar cfI {f} {p} {g}", nil, refused("p", `tar's -I (in cfI)`)},
	{"tar xf {f}", nil, nil},
	{"tar x{m} {f}", nil, map[string]string{"arguments.m": `option letters or in the option name of "x{m}"`, "arguments.f": `"x{m}…"`}},
	{"tar {m}f {f}", map[string]string{"m": "enum:x|t"}, nil},
	{"tar {m}f {f} {p}", map[string]string{"m": "enum:x|xI"}, refused("f", `with {m} as "xI", it is the value of tar's -I (in xIf)`)}, // I takes the first word
	// find: the command -exec and its kin run.
	{"find {p} -exec {c} +", nil, refused("c", "the program find's -exec runs")},
	{"find . -execdir {c} {x} +", nil, refused("c", "find's -execdir")},
	{"find . -ok {c} +", nil, refused("c", "find's -ok")},
	{"find . -okdir /usr/bin/{c} +", nil, refused("c", "find's -okdir")},
	{"bfs . -exec {c} +", nil, refused("c", "bfs's -exec")},
	{"find . -exec {c} +", map[string]string{"c": "enum:grep|wc"}, nil},
	{"find . -exec ls {x} +", nil, nil},
	{"find . -exec sed -n {s} {x} +", nil, refused("s", "sed's script")},
	{"find . -exec sort --compress-program={p} {x} +", nil, refused("p", "sort's --compress-program")},
	// … and the program it runs obeys the binary's rules.
	{"find . -exec sh -c {x} +", nil, refused("command", `find's -exec runs "sh", which is on the deny list (entry "sh")`)},
	{"find . -execdir /usr/bin/python3 -c {x} +", nil, refused("command", `find's -execdir runs "/usr/bin/python3", which is on the deny list`)},
	{"find . -exec ./evil.sh {x} +", nil, refused("command", `find's -exec runs "./evil.sh": binary "./evil.sh" is a relative path`)},
	{"fd {p} -x env {x}", nil, refused("command", `fd's -x runs "env", which is on the deny list`)},
	{"find . -{t} rm {x} +", map[string]string{"t": "enum:name|exec"}, refused("command", `find's -exec runs "rm"`)},
	{"find {p} -name {n}", nil, nil},
	{"find {p} -{t} {n}", map[string]string{"t": "enum:name|iname"}, nil},
	{"find {p} -{t} {n}", map[string]string{"t": "enum:name|exec"}, refused("n", `with {t} as "exec", it is the program find's -exec runs`)},
	// fd: -x/--exec, -X/--exec-batch.
	{"fd {p} -x {c}", nil, refused("c", "fd's -x")},
	{"fd {p} -X {c}", nil, refused("c", "fd's -X")},
	{"fd {p} -x{c}", nil, refused("c", "fd's -x")},
	{"fd {p} --exec {c}", nil, refused("c", "fd's --exec")},
	{"fd {p} --exec={c}", nil, refused("c", "fd's --exec")},
	{"fd {p} --exec-batch {c}", nil, refused("c", "fd's --exec-batch")},
	{"fd {p} -x wc -l {x}", nil, nil},
	// fd (clap) takes an attached command as one word: the words after it
	// are fd's own options; -x=CMD runs CMD.
	{"fd -X0 -0{a}", nil, map[string]string{"arguments.a": `option letters or in the option name of "-0{a}"`}},
	{"fd -x=sh", nil, refused("command", `fd's -x runs "sh", which is on the deny list`)},
	{"fd -X=bash {p}", nil, refused("command", `fd's -X runs "bash", which is on the deny list`)},
	{"fd -x={c}", nil, refused("c", "fd's -x")},
	{"fd -Xsed -n {s}", nil, refused("s", "sed's script")},
	// The command runs to ";" (fd) or to a "+" right after "{}" (find): a
	// "+" elsewhere is the command's argument, and what follows it too.
	{"fd -X sed -n + -e {s}", nil, refused("s", "sed's script (the value of -e)")},
	{"find . -exec sed -n + -e {s} {} +", nil, refused("s", "sed's script (the value of -e)")},
	{"find . -exec echo + -exec {c} {} +", nil, nil},
	{"find . -exec ls {} + -exec {c} {} +", nil, refused("c", "find's -exec")},
	// After git's subcommand a letter takes a value only where SubArgs say.
	{"git grep -nO{a} x", nil, refused("a", "git's -O")},
	{"git grep -n -O{a} x", nil, refused("a", "git's -O")},
	{"git grep -AO{a} x", nil, nil}, // -A's value is "O…"
	{"git grep -A{a} x", map[string]string{"a": "int"}, nil},
	{"git grep -n{a} x", nil, map[string]string{"arguments.a": `option letters or in the option name of "-n{a}"`}},
	{"git log -n{a} x", nil, nil}, // no letter of git log's runs code
	{"git clone -pu {a} x", nil, refused("a", "git's -u")},
	// sort --compress-program, every spelling.
	{"sort --compress-program={p} {f}", nil, refused("p", "sort's --compress-program, which names the program")},
	{"sort --compress-program {p} {f}", nil, refused("p", "sort's --compress-program")},
	{"sort --compress-prog={p} {f}", nil, refused("p", "sort's --compress-prog (--compress-program)")},
	{"sort --c {p} {f}", nil, refused("p", "sort's --c (--compress-program)")},
	{"sort --compress-program=gz{p} {f}", nil, refused("p", "sort's --compress-program")},
	{"sort --compress-program={p}x {f}", nil, refused("p", "sort's --compress-program")},
	{"gsort --compress-program={p} {f}", nil, refused("p", "gsort's --compress-program")},
	{"sort --compress-program={p} {f}", map[string]string{"p": "enum:gzip|zstd"}, nil},
	{"sort -- --compress-program {p}", nil, nil},                                             // after --, both are files
	{"sort --foo -- --compress-program {p}", nil, refused("p", "sort's --compress-program")}, // "--" may be --foo's value
	{"sort -Q -- --compress-program {p}", nil, refused("p", "sort's --compress-program")},
	{"fd -0 -- -0{a}", nil, nil}, // -0 takes no value: "--" ends fd's options
	{"fd -Q -- -0{a}", nil, map[string]string{"arguments.a": `option letters or in the option name of "-0{a}"`}},
	{"sort -k {k} {f}", nil, nil},
	{"sort --{o}={v} {f}", map[string]string{"o": "enum:key|reverse"}, nil},
	{"sort --{o}={v} {f}", map[string]string{"o": "enum:key|compress-program"}, refused("v", `with {o} as "compress-program", it is the value of sort's --compress-program`)},
	{"sort --c{o} {v} {f}", nil, map[string]string{"arguments.o": "option name", "arguments.v": `"--c…"`}}, // o = "ompress-program"
	{"find . -{o} {v} +", nil, map[string]string{"arguments.o": "right after its dashes", "arguments.v": `"-{o}…"`}},
	{"find . -exe{o} {v} +", nil, map[string]string{"arguments.o": `option name of "-exe{o}"`, "arguments.v": `"-exe{o}…"`}},
	// tar.
	{"tar -I {p} -xf {f}", nil, refused("p", "tar's -I, which names the program tar runs as the compressor")},
	{"tar -xI{p} -f {f}", nil, refused("p", "tar's -I")},
	{"tar -xI {p} -f {f}", nil, refused("p", "tar's -I")},
	{"tar --use-compress-program={p} -xf {f}", nil, refused("p", "tar's --use-compress-program")},
	{"tar --use-comp={p} -xf {f}", nil, refused("p", "tar's --use-comp (--use-compress-program)")},
	{"tar --use-compress-program {p} -xf {f}", nil, refused("p", "tar's --use-compress-program")},
	{"tar --to-command={p} -xf {f}", nil, refused("p", "tar's --to-command")},
	{"tar --checkpoint-action=exec={p} -xf {f}", nil, refused("p", "tar's --checkpoint-action")},
	{"tar -F {p} -xf {f}", nil, refused("p", "tar's -F")},
	{"tar --info-script={p} -xf {f}", nil, refused("p", "tar's --info-script")},
	{"tar --new-volume-script {p} -xf {f}", nil, refused("p", "tar's --new-volume-script")},
	{"tar --rsh-command={p} -xf {f}", nil, refused("p", "tar's --rsh-command")},
	{"tar --rmt-command={p} -xf {f}", nil, refused("p", "tar's --rmt-command")},
	{"tar --checkpoint={n} -xf {f}", map[string]string{"n": "int"}, nil}, // exact beats the abbreviation
	{"tar -xfI {f}", nil, nil}, // -f's value is "I"
	{"tar -C {d} -xf {f}", nil, nil},
	// rsync.
	{"rsync -e {p} {f} x", nil, refused("p", "rsync's -e")},
	{"rsync -e{p} {f} x", nil, refused("p", "rsync's -e")},
	{"rsync -ae {p} {f} x", nil, refused("p", "rsync's -e")},
	{"rsync --rsh={p} {f} x", nil, refused("p", "rsync's --rsh")},
	{"rsync -avz --rsh {p} {f} x", nil, refused("p", "rsync's --rsh")},
	{"rsync --rsync-path={p} {f} x", nil, refused("p", "rsync's --rsync-path")},
	{"rsync --rsync-p {p} {f} x", nil, refused("p", "rsync's --rsync-p (--rsync-path)")},
	{"rsync -a {f} {g}", nil, nil},
	// zip.
	{"zip -TT {p} a.zip {f}", nil, refused("p", "zip's -TT")},
	{"zip -TT={p} a.zip {f}", nil, refused("p", "zip's -TT")},
	{"zip --unzip-command={p} a.zip {f}", nil, refused("p", "zip's --unzip-command")},
	{"zip --unz {p} a.zip {f}", nil, refused("p", "zip's --unz (--unzip-command)")},
	{"zip -qTT {p} a.zip {f}", nil, refused("p", "zip's -TT")},
	{"zip -qTT{p} a.zip {f}", nil, refused("p", "zip's -TT")},
	{"zip -T a.zip {f}", nil, nil},
	// ssh, scp, sftp, man, tcpdump, nc.
	{"ssh -o {o} host uptime", nil, refused("o", "ssh's -o, which sets an ssh option")},
	{"ssh -o{o} host uptime", nil, refused("o", "ssh's -o")},
	{"ssh -F {c} host uptime", map[string]string{"c": "enum:a.conf"}, refused("c", "an enum does not help: write what the file would hold out in the template instead")},
	{"ssh -p {n} host uptime", map[string]string{"n": "int"}, nil},
	{"scp -S {p} a host:b", nil, refused("p", "scp's -S")},
	{"sftp -D {p} host", nil, refused("p", "sftp's -D")},
	{"man -P {p} ls", nil, refused("p", "man's -P")},
	{"man --pag={p} ls", nil, refused("p", "man's --pag (--pager)")},
	{"man -H{p} ls", nil, refused("p", "man's -H")},
	{"man -H {p}", nil, nil}, // -H's browser is attached only: {p} is the page
	{"man {s} {p}", nil, nil},
	{"tcpdump -w x.pcap -z {p}", nil, refused("p", "tcpdump's -z")},
	// Operands that are a command: git bisect run, git submodule foreach,
	// ssh's remote command; a slot that may spell the leading word counts.
	{"git bisect run {p}", nil, refused("p", "the program of the command of git bisect run")},
	{"git bisect run grep -q {p} f.txt", nil, refused("p", "in the arguments of the command of git bisect run")},
	{"git bisect {v} {p}", map[string]string{"v": "enum:start|run"}, refused("p", "the command of git bisect run")},
	{"git bisect run sh", nil, refused("command", `git's bisect run runs "sh", which is on the deny list`)},
	{"git -C {d} bisect run {p}", map[string]string{"d": "path"}, refused("p", "the program of the command of git bisect run")},
	{"git bisect run {p}", map[string]string{"p": "enum:true|false"}, nil},
	{"git bisect start {p}", nil, nil},
	{"git bisect good {p}", nil, nil},
	{"git submodule foreach {p}", nil, refused("p", "the command of git submodule foreach, which git runs through the shell")},
	{"git submodule foreach git log {p}", nil, refused("p", "in the arguments of the command of git submodule foreach")},
	{"git submodule status {p}", nil, nil},
	{"ssh {h} {c}", nil, refused("c", "the program of the remote command of ssh")},
	{"ssh {h} ls {d}", nil, refused("d", "in the arguments of the remote command of ssh")},
	{"ssh -p {port} {h} uptime", map[string]string{"port": "int"}, nil},
	{"ssh {h} uptime", nil, nil},
	// git subcommand options that run a command or choose a tool.
	{"git difftool --tool={t}", nil, refused("t", "git's --tool, which chooses the diff or merge tool")},
	{"git mergetool -t {t}", nil, refused("t", "git's -t")},
	{"git difftool --tool={t}", map[string]string{"t": "enum:meld"}, nil},
	{"git filter-branch --tree-filter {x} HEAD", nil, refused("x", "git's --tree-filter, which is a shell command")},
	{"git filter-branch --msg-filter={x} HEAD", nil, refused("x", "git's --msg-filter")},
	{"git send-email --smtp-server={s} f.patch", nil, refused("s", "git's --smtp-server")},
	{"git log --tool={t}", nil, nil},
	// nc is denied by default; the rows hold for a narrowed deny list.
	{"ncat --sh-exec {p} -l 9999", nil, map[string]string{"command": "deny list", "arguments.p": "ncat's --sh-exec"}},
	{"nc -e {p} host 80", nil, map[string]string{"command": "deny list", "arguments.p": "nc's -e"}},
	{"nc -lc {p} 80", nil, map[string]string{"command": "deny list", "arguments.p": "nc's -c"}},
	// git: the top-level options (the rule's first row) …
	{"git -c {p} status", nil, refused("p", "it is the value of git's -c, which sets configuration for the run")},
	{"git -c core.pager={p} log", nil, refused("p", "git's -c")},
	{"git --config-env={p} log", nil, refused("p", "git's --config-env")},
	{"git --config-env {p} log", nil, refused("p", "git's --config-env")},
	{"git --exec-path={p} log", nil, refused("p", "git's --exec-path")},
	{"git -c {p} status", map[string]string{"p": "enum:color.ui=never"}, nil},
	{"git -C {d} log", nil, nil},
	// … the subcommand …
	{"git {sub} {x}", nil, refused("sub", "it is git's subcommand")},
	{"git --exec-path {sub} {x}", nil, refused("sub", "it is git's subcommand")},
	{"git -C {d} {sub} {x}", nil, refused("sub", "it is git's subcommand")},
	{"git {sub} {x}", map[string]string{"sub": "enum:log|status"}, nil},
	{"git {sub} -u {p} {x}", map[string]string{"sub": "enum:log|clone"}, refused("p", `with {sub} as "clone", it is the value of git's -u`)},
	{"git {sub} -u {p} {x}", map[string]string{"sub": "enum:log|fetch"}, nil}, // fetch -u is --update-head-ok
	// … and the subcommands' options, abbreviated as parse-options allows.
	{"git clone --upload-pack={p} {u}", nil, refused("p", "git's --upload-pack")},
	{"git clone -u {p} {u}", nil, refused("p", "git's -u")},
	{"git clone -qu{p} {u}", nil, refused("p", "git's -u")},
	{"git ls-remote -u {p} {u}", nil, refused("p", "git's -u")},
	{"git fetch --upload-pack {p} {u}", nil, refused("p", "git's --upload-pack")},
	{"git fetch --upl={p} {u}", nil, refused("p", "git's --upl (--upload-pack)")},
	{"git pull --upload-pack={p} {u}", nil, refused("p", "git's --upload-pack")},
	{"git push --receive-pack={p} {u}", nil, refused("p", "git's --receive-pack")},
	{"git push --exec={p} {u}", nil, refused("p", "git's --exec")},
	{"git send-pack --receive-pack {p} {u}", nil, refused("p", "git's --receive-pack")},
	{"git archive --exec={p} --remote={u} HEAD", nil, refused("p", "git's --exec")},
	{"git clone -c {p} {u}", nil, refused("p", "git's -c")},
	{"git grep -O{p} x", nil, refused("p", "git's -O")},
	{"git grep --open-files-in-pager={p} x", nil, refused("p", "git's --open-files-in-pager")},
	{"git grep --open={p} x", nil, refused("p", "git's --open (--open-files-in-pager)")},
	{"git rebase -x {p} main", nil, refused("p", "git's -x")},
	{"git rebase --exec {p} main", nil, refused("p", "git's --exec")},
	{"git difftool -x {p}", nil, refused("p", "git's -x")},
	{"git -c color.ui=never grep -O {p}", nil, nil},                  // -O takes an attached value only: {p} is the pattern
	{"git fetch -u {u}", nil, nil},                                   // fetch -u is --update-head-ok
	{"git log -c -n {n} -- {p}", map[string]string{"n": "int"}, nil}, // log -c is the combined diff
	{"git log -{n} -e{re}", map[string]string{"n": "int"}, nil},
	{"git grep -e {re} -- {p}", nil, nil},
	// rg, wget, split.
	{"rg --pre {p} x", nil, refused("p", "rg's --pre")},
	{"rg --pre={p} x", nil, refused("p", "rg's --pre")},
	{"rg --hostname-bin={p} x", nil, refused("p", "rg's --hostname-bin")},
	{"rg -e {p} x", nil, nil},
	{"wget -e {p} {u}", nil, refused("p", "wget's -e")},
	{"wget --execute={p} {u}", nil, refused("p", "wget's --execute")},
	{"wget --exec {p} {u}", nil, refused("p", "wget's --exec (--execute)")},
	{"wget --use-askpass={p} {u}", nil, refused("p", "wget's --use-askpass")},
	{"wget --config={p} {u}", map[string]string{"p": "enum:a.rc"}, refused("p", "an enum does not help")},
	{"wget -O {o} {u}", nil, nil},
	{"split --filter={p} {f}", nil, refused("p", "split's --filter")},
	{"split --fil {p} {f}", nil, refused("p", "split's --fil (--filter)")},
	// programs without code options are not touched.
	{"grep -e {p} -- {f}", nil, nil},
	{"head -n{n} {f}", nil, nil},
}

// TestCodePositions attacks the code-position rule: every row of codeTable
// in its spellings, and the places it must leave alone.
func TestCodePositions(t *testing.T) {
	for _, c := range codeCases {
		name := c.cmd
		for k, v := range c.decl {
			name += " " + k + "=" + v
		}
		t.Run(name, func(t *testing.T) {
			got := codeRefusals(t, codeSpec(c.cmd, c.decl))
			if c.refused == nil {
				assert.Empty(t, got, "want the spec accepted")
				return
			}
			for field, msg := range c.refused {
				require.Contains(t, got, field, "want a 613 on %s; got %v", field, got)
				assert.Contains(t, got[field], msg)
			}
			for field := range got {
				assert.Contains(t, c.refused, field, "unexpected 613 on %s: %s", field, got[field])
			}
		})
	}
}

// TestCodePositionMessages pins whole messages: the git one is the rule's
// original wording, and the others say what, why and how to fix.
func TestCodePositionMessages(t *testing.T) {
	for cmd, want := range map[string]string{
		"git -c {p} status": `slot "p": it is the value of git's -c, which sets configuration for the run, and git settings can run ` +
			`programs (core.fsmonitor, diff.external, alias.x=!cmd); the model must not choose it: write the value out in the ` +
			`template, or give the slot an enum of the allowed values`,
		"sort --compress-prog={p} {f}": `slot "p": it is the value of sort's --compress-prog (--compress-program), which names ` +
			`the program sort runs to compress temporary files; the model must not choose it: write the value out in the ` +
			`template, or give the slot an enum of the allowed values`,
		"find {f} -exec {p} +": `slot "p": it is the program find's -exec runs, which runs the command for each file found; ` +
			`the model must not choose code: write the program out in the template, or give the slot an enum of the allowed programs`,
		"sed -n {p} {f}": `slot "p": it is (part of) sed's script (its first operand, as no -e or -f is given), and a sed script ` +
			`is code: GNU sed's e command and the e flag of s run shell commands, and r, R, w, W and the w flag of s read and ` +
			`write files; the model must not choose code: write the script out in the template, give the slot an enum of the ` +
			`allowed scripts, or a pattern that admits no letter (^[0-9]+(,[0-9]+)?$ for a line range)`,
	} {
		got := codeRefusals(t, codeSpec(cmd, nil))
		assert.Equal(t, want+"\n", got["arguments.p"], cmd)
	}
}

// TestCodeVariantsBounded: enum slots in option names multiply readings;
// past maxCodeVariants the rule refuses instead of reading them all.
func TestCodeVariantsBounded(t *testing.T) {
	var vals []string
	for i := range 20 {
		vals = append(vals, "k"+strings.Repeat("x", i))
	}
	e := "enum:" + strings.Join(vals, "|")
	got := codeRefusals(t, codeSpec("sort --{a}=1 --{b}=2 --{c}=3 {f}", map[string]string{"a": e, "b": e, "c": e}))
	assert.Contains(t, got["arguments.a"]+got["arguments.b"]+got["arguments.c"], "too many readings")
}

// FuzzCodeScan runs the code rule on any template of a program with a row,
// slots declared every way (free, enum, letter-free pattern, integer,
// optional): it must not panic, and a template it accepts must stay
// accepted when every enum is cut to its first value (fewer readings can
// only find less).
func FuzzCodeScan(f *testing.F) {
	for _, c := range codeCases {
		f.Add(c.cmd, "enum:x|e opt")
	}
	f.Add("tar x{a}f {b} -I{c}", "opt")
	f.Add("git {a} -u{b} -- {c}", "enum:clone|log")
	f.Add("find . -exec sed -n -e{a} {b} + -exec {c} +", "pattern:^[0-9]+$")
	f.Fuzz(func(t *testing.T, cmd, decl string) {
		tpl, err := ParseTemplate(cmd)
		if err != nil || codeEntry(tpl.Binary()) == nil || len(tpl.Words) > 16 {
			return
		}
		decls := map[string]string{}
		for i, name := range tpl.Slots() {
			kinds := strings.Fields(decl)
			if len(kinds) > 0 {
				decls[name] = kinds[i%len(kinds)]
			}
		}
		s := codeSpec(cmd, decls)
		if _, err := Spec(s); err != nil {
			return
		}
		for i := range s.Args {
			if len(s.Args[i].Enum) > 1 {
				s.Args[i].Enum = s.Args[i].Enum[:1]
				s.Args[i].Default, s.Args[i].HasDefault = "", false
			}
		}
		if _, err := Spec(s); err != nil {
			t.Fatalf("Spec accepts %q with %v but not with every enum cut to one value: %v", cmd, decls, err)
		}
	})
}
