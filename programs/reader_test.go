package programs_test

import (
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/programs"
)

// argsOfLine splits line into words; "{name}" in a word is a hole.
func argsOfLine(line string) []programs.Arg {
	var out []programs.Arg
	for _, w := range strings.Fields(line) {
		var a programs.Arg
		for w != "" {
			open := strings.IndexByte(w, '{')
			end := strings.IndexByte(w, '}')
			if open < 0 || end < open+2 {
				a = append(a, programs.Piece{Lit: w})
				break
			}
			if open > 0 {
				a = append(a, programs.Piece{Lit: w[:open]})
			}
			a = append(a, programs.Piece{Hole: w[open+1 : end]})
			w = w[end+1:]
		}
		if len(a) == 0 {
			a = programs.Arg{{}}
		}
		out = append(out, a)
	}
	return out
}

// checkLine checks what must hold of any reading of args.
func checkLine(t *testing.T, args []programs.Arg, line *programs.Line) {
	t.Helper()
	n := len(args)
	for k, tok := range line.Tokens {
		if tok.Word < 1 || tok.Word >= n {
			t.Fatalf("token %d (%v) is word %d of %d", k, tok.Kind, tok.Word, n)
		}
		if tok.Kind == programs.TokValue && (k == 0 || line.Tokens[k-1].Kind != programs.TokOption ||
			!line.Tokens[k-1].HasValue || line.Tokens[k-1].InWord || line.Tokens[k-1].Word >= tok.Word) {
			t.Fatalf("value token %d (word %d) does not follow an option that takes it", k, tok.Word)
		}
		if tok.CmdEnd > n || tok.Later >= n || tok.Upto > len(args[tok.Word]) {
			t.Fatalf("token %d points past the line: end %d, later %d, upto %d of %d words", k, tok.CmdEnd, tok.Later, tok.Upto, n)
		}
		if tok.Kind == programs.TokNames && len(tok.Holes) == 0 {
			t.Fatalf("token %d says holes spell option names, and names none", k)
		}
	}
	if line.Sub != "" && (line.SubAt < 1 || line.SubAt >= n) {
		t.Fatalf("subcommand %q at word %d of %d", line.Sub, line.SubAt, n)
	}
}

// TestReadLine pins readings the consumers rely on.
func TestReadLine(t *testing.T) {
	read := func(line string) *programs.Line {
		args := argsOfLine(line)
		l := programs.Lookup(args[0][0].Lit).ReadLine(args, func(string) programs.HoleKind { return 0 })
		checkLine(t, args, l)
		return l
	}
	l := read("find . -name x -exec grep -n y {} + -print")
	kinds := []programs.TokKind{}
	for _, tok := range l.Tokens {
		kinds = append(kinds, tok.Kind)
	}
	if got := len(kinds); got != 9 || kinds[3] != programs.TokOption || kinds[8] != programs.TokOption || l.Tokens[3].Code == nil || l.Tokens[3].CmdEnd != 9 {
		t.Errorf("find -exec: %+v", l.Tokens)
	}
	l = read("tar xIf {p} a.tar")
	if tok := l.Tokens[1]; tok.Name != "-I" || tok.Code == nil || tok.Value.Text() != "{p}" {
		t.Errorf("tar xIf: the value of -I is %+v", tok)
	}
	l = read("git grep -nO{x} y")
	if l.Sub != "grep" || l.Tokens[2].Name != "-O" || l.Tokens[2].Value.Text() != "{x}" {
		t.Errorf("git grep -nO{x}: %+v", l.Tokens)
	}
	l = read("sed -n{x} p")
	if tok := l.Tokens[1]; tok.Kind != programs.TokNames || tok.Holes[0] != "x" || tok.Later != 2 {
		t.Errorf("sed -n{x}: %+v", l.Tokens)
	}
	l = read("fd -x=sh -0")
	if tok := l.Tokens[0]; tok.Value.Text() != "sh" || !tok.InWord {
		t.Errorf("fd -x=sh: %+v", tok)
	}
}

// FuzzReadLine reads any line with every program's grammar: no reading
// panics, every token points inside the line and in order, and a hole
// whose values are a known list stops the reading only where it would
// choose options or the subcommand (then the same line with the hole free
// reports it as such).
func FuzzReadLine(f *testing.F) {
	for _, s := range []string{"find . -exec {a} {} +", "tar x{a}f {b} c", "git -c {a} log", "sed -n{a} {b}",
		"fd -X0 -0{a}", "zip -qTT{a} x", "git grep -O{a}", "sort --comp={a}", "go test -run {a} ./...", "git {a} x",
		"curl -d @{a} -F x=@{b} -- {c}", "make -C {a} -j4 {b}", "tar --use-compress-program {a} -cf x"} {
		f.Add(s, uint8(0), uint8(0))
	}
	all := programs.All()
	f.Fuzz(func(t *testing.T, line string, prog, kinds uint8) {
		args := argsOfLine(line)
		if len(args) == 0 || len(args) > 40 {
			return
		}
		p := all[int(prog)%len(all)]
		kind := func(h string) programs.HoleKind {
			if h == "" {
				return 0
			}
			return programs.HoleKind(kinds>>(uint(h[0])%4)) & 3
		}
		l := p.ReadLine(args, kind)
		checkLine(t, args, l)
		if l.Expand != "" && kind(l.Expand)&programs.HoleChoice == 0 {
			t.Fatalf("expand %q, a hole without a list of values", l.Expand)
		}
		free := p.ReadLine(args, nil)
		checkLine(t, args, free)
		if free.Expand != "" {
			t.Fatalf("expand %q with every hole free", free.Expand)
		}
	})
}
