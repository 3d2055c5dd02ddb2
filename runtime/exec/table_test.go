package exec

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// exemplarSub is a subcommand that no row refuses, per binary with
// subcommands, for the rows that apply after any subcommand.
var exemplarSub = map[string]string{"git": "log", "go": "build", "deno": "run", "bun": "build"}

// exemplar returns a concrete binary name for an entry.

func exemplar(r *programs.Program) string { return strings.TrimSuffix(r.Names[0], "*") }

// flagTable lists the programs of package programs the ExecTool refuses
// something of: defence 4's table.
func flagTable() []*programs.Program {
	var out []*programs.Program
	for _, p := range programs.All() {
		if p.ExecRefuses() {
			out = append(out, p)
		}
	}
	return out
}

// tableEnv is a stub PATH holding every entry's exemplar, an empty deny list
// (defence 2 is not under test) and a tool granting all that may be granted.
func tableEnv(t *testing.T) (*Tool, *stubEnv) {
	e := newStubEnv(t)
	var names []string
	for _, r := range flagTable() {
		n := exemplar(r)
		if n != "git" { // newStubEnv's git answers --list-cmds=builtins
			stub(t, e.bin, n)
		}
		if r.Refuse == "" {
			names = append(names, n)
		}
	}
	tl, err := New(e.k, names, WithDenyList(programs.DenyList{}))
	if err != nil {
		t.Fatal(err)
	}
	return tl, e
}

// attacks returns command lines that use the row's spellings, every way the
// binary accepts them.
func attacks(r *programs.Program, row *programs.Row) []string {
	bin := exemplar(r)
	prefix := bin
	if r.Grammar.Subcommands && row.Sub != "" {
		sub := exemplarSub[bin]
		if row.Sub != "*" {
			sub = strings.Fields(row.Sub)[0]
		}
		prefix += " " + sub
	}
	if row.WholeSub() {
		return []string{prefix, prefix + " x"}
	}
	var out []string
	for _, x := range row.Short {
		if r.Grammar.Style == programs.GoFlag {
			out = append(out, fmt.Sprintf("%s -%c v", prefix, x), fmt.Sprintf("%s --%c v", prefix, x), fmt.Sprintf("%s -%c=v", prefix, x))
			continue
		}
		out = append(out, fmt.Sprintf("%s -%c v", prefix, x), fmt.Sprintf("%s -%cv", prefix, x))
		if other := harmlessLetter(r, row); other != 0 {
			out = append(out, fmt.Sprintf("%s -%c%c v", prefix, other, x))
		}
	}
	for _, l := range row.Long {
		if stem, ok := strings.CutSuffix(l, "*"); ok {
			out = append(out, fmt.Sprintf("%s --%s v", prefix, stem), fmt.Sprintf("%s --%s-x=v", prefix, stem))
			continue
		}
		if r.Grammar.Style == programs.GoFlag {
			out = append(out, fmt.Sprintf("%s -%s v", prefix, l), fmt.Sprintf("%s --%s=v", prefix, l))
			continue
		}
		out = append(out, fmt.Sprintf("%s --%s", prefix, l), fmt.Sprintf("%s --%s=v", prefix, l), fmt.Sprintf("%s --%s v", prefix, l))
		// Abbreviations where the binary takes them: not before a
		// subcommand (git's top level takes none).
		abbrev := r.Grammar.Abbrev && (row.Sub != "" || !r.Grammar.Subcommands)
		if abbr := l[:len(l)-1]; abbrev && len(l) > 3 && !contains(r.LongNames(), abbr) {
			out = append(out, fmt.Sprintf("%s --%s=v", prefix, abbr))
		}
	}
	for _, w := range row.Words {
		if stem, ok := strings.CutSuffix(w, "*"); ok {
			out = append(out, fmt.Sprintf("%s %s", prefix, stem), fmt.Sprintf("%s %sv", prefix, stem))
			continue
		}
		out = append(out, fmt.Sprintf("%s . %s v", prefix, w))
	}
	for _, c := range row.Confine {
		sep := " "
		if strings.HasPrefix(c, "--") {
			sep = "="
		}
		out = append(out, prefix+" "+c+sep+"/tmp", prefix+" "+c+sep+"..", prefix+" "+c+sep+"out")
	}
	return out
}

// harmlessLetter returns a short option letter the binary reads as taking
// no value and no row refuses, to combine with a refused one; 0 if none.
func harmlessLetter(r *programs.Program, row *programs.Row) rune {
	for _, c := range r.Grammar.NoArgShort {
		refused := false
		for _, other := range r.ExecRows() {
			refused = refused || strings.ContainsRune(other.Short, c)
		}
		if !refused {
			return c
		}
	}
	return 0
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// TestFlagTableRows attacks every row of the flag table in every spelling
// its binary accepts; each must be refused by defence 4 with the row's
// reason.
func TestFlagTableRows(t *testing.T) {
	tl, _ := tableEnv(t)
	rows := 0
	for _, r := range flagTable() {
		execRows := r.ExecRows()
		for i := range execRows {
			row := &execRows[i]
			rows++
			t.Run(fmt.Sprintf("%s/%d", exemplar(r), i), func(t *testing.T) {
				lines := attacks(r, row)
				if len(lines) == 0 {
					t.Fatal("the row has no spelling")
				}
				for _, line := range lines {
					_, _, err := tl.Plan(line)
					if by := refusedBy(t, err); by != DefenceFlags {
						t.Errorf("Plan(%q): refused by defence %d, want 4 (%v)", line, by, err)
						continue
					}
					if !strings.Contains(err.Error(), row.Why) {
						t.Errorf("Plan(%q) = %q, want the row's reason %q", line, err, row.Why)
					}
				}
			})
		}
	}
	t.Logf("%d rows attacked", rows)
}

// TestFlagTableConfineInside: a confined option naming a place inside the
// workspace is accepted.
func TestFlagTableConfineInside(t *testing.T) {
	tl, _ := tableEnv(t)
	for _, line := range []string{"git -C sub status", "git -C . log", "git --git-dir=sub log", "git --work-tree sub status", "git -C in status"} {
		if _, _, err := tl.Plan(line); err != nil {
			t.Errorf("Plan(%q) = %v, want it accepted", line, err)
		}
	}
}

// TestFlagTableRefusedBinaries: an entry that refuses a binary whatever its
// arguments cannot be granted (613), and is refused at call time too.
func TestFlagTableRefusedBinaries(t *testing.T) {
	tl, e := tableEnv(t)
	for _, r := range flagTable() {
		if r.Refuse == "" {
			continue
		}
		for _, name := range r.Names {
			name = strings.TrimSuffix(name, "*")
			stub(t, e.bin, name)
			_, err := New(e.k, []string{name}, WithDenyList(programs.DenyList{}))
			var te *tool.Error
			if !errors.As(err, &te) || te.Code != tool.CodeSpec || !strings.Contains(te.Msg, r.Refuse) {
				t.Errorf("New(%q) = %v, want a 613 giving %q", name, err, r.Refuse)
			}
			forced := *tl
			forced.allow = []string{name}
			_, _, err = forced.Plan(name + " a.txt")
			if by := refusedBy(t, err); by != DefenceFlags || !strings.Contains(err.Error(), r.Refuse) {
				t.Errorf("Plan(%q a.txt) = %v, want defence 4 giving %q", name, err, r.Refuse)
			}
		}
	}
}

// TestFlagTableTargetName: the flag table applies to the name a granted
// binary resolves to, so a link named "editor" to vim is read as vim.
func TestFlagTableTargetName(t *testing.T) {
	e := newStubEnv(t)
	link := e.bin + "/editor"
	if err := symlink(e.bin+"/vim", link); err != nil {
		t.Fatal(err)
	}
	tl, err := New(e.k, []string{"editor"}, WithDenyList(narrowed())) // vim is denied by default since issue 11 §3
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = tl.Plan("editor -c '!id'")
	if by := refusedBy(t, err); by != DefenceFlags || !strings.Contains(err.Error(), "vim: option -c") {
		t.Errorf("Plan(editor -c) = %v, want vim's row", err)
	}
	if _, _, err := tl.Plan("editor a.txt"); err != nil {
		t.Errorf("Plan(editor a.txt) = %v", err)
	}
}

// TestFlagTableDoubleDash: "--" ends the options where the binary stops
// reading them, but not right after an option whose value it may be.
func TestFlagTableDoubleDash(t *testing.T) {
	tl, _ := tableEnv(t)
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{"sed -n -- p -i", true},      // after --, -i is a file name
		{"sed -n p -- -i", true},      // likewise
		{"sed -l 5 -- p -i", true},    // -l takes 5, then -- ends the options
		{"sed --debug -- p -i", true}, // --debug is known to take no value
		{"sed -X -- p -i", false},     // -X is unknown: -- may be its value
		{"sed --zz -- p -i", false},   // likewise for an unknown long option
		{"sed -e p -- -i", true},      // -e took p
		{"sed -e -- -i p", false},     // -e took --, so -i is an option
		{"rg -- --pre x", true},       // a pattern that looks like --pre
		{"find . -- -delete", false},  // find reads its expression after --
		{"tar -cf a.tar -- -I", true}, // a file named -I
		{"git log -- --upload-pack", true},
	} {
		_, _, err := tl.Plan(tc.line)
		if got := err == nil; got != tc.ok {
			t.Errorf("Plan(%q) accepted = %v, want %v (%v)", tc.line, got, tc.ok, err)
		}
	}
}

// TestFlagTableNames: entries cover their family's names and nothing else.
func TestFlagTableNames(t *testing.T) {
	for name, want := range map[string]string{
		"python3": "python*", "python3.12": "python*", "pypy3": "python*", "perl5.36": "perl", "node": "node",
		"nodejs": "node", "sed": "sed", "gsed": "sed", "git": "git", "vim.basic": "vi", "nvim": "vi",
		"lua5.4": "lua*", "luajit": "lua*", "emacs-nox": "emacs*", "go": "go", "go1.22": "go",
		"ls": "ls", "lsblk": "", "cat": "", "sedx": "", "gitk": "", "goimports": "", "perlbug": "", "tarball": "",
	} {
		r := programs.Lookup(name)
		got := ""
		if r != nil && r.ExecRefuses() {
			got = r.Names[0]
		}
		if got != want {
			t.Errorf("the flag table's entry for %q = %q, want %q", name, got, want)
		}
	}
}

// TestFlagTableEntries checks the table's own consistency.
func TestFlagTableEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range flagTable() {
		if len(r.Names) == 0 {
			t.Fatal("an entry without names")
		}
		for _, n := range r.Names {
			if seen[n] {
				t.Errorf("%q is in two entries", n)
			}
			seen[n] = true
		}
		if r.Refuse == "" && len(r.ExecRows()) == 0 && r.Check == nil {
			t.Errorf("%s: the entry refuses nothing", r.Names[0])
		}
		for _, row := range r.ExecRows() {
			if row.Why == "" {
				t.Errorf("%s: a row without a reason", r.Names[0])
			}
			if row.Sub != "" && !r.Grammar.Subcommands {
				t.Errorf("%s: row for subcommand %q, but the binary has none", r.Names[0], row.Sub)
			}
		}
	}
}

// TestWorkspaceDotfilesDoNotBlock: HOME is the kernel's empty private
// directory, so a workspace holding a user's configuration files (a cloned
// repository may track .gitconfig or .curlrc) is no reason to refuse the
// binaries that read them from HOME: the kernel keeps them unread.
func TestWorkspaceDotfilesDoNotBlock(t *testing.T) {
	tl, e := tableEnv(t)
	for _, f := range []string{".gitconfig", ".config/git/config", ".curlrc", ".wgetrc", ".ssh/config", ".vimrc"} {
		writeFile(t, e.ws, f, "", 0o644)
	}
	for _, line := range []string{"git status", "git log --oneline", "curl https://example.com", "wget https://example.com"} {
		if _, _, err := tl.Plan(line); err != nil {
			t.Errorf("Plan(%q) with dotfiles in the workspace = %v", line, err)
		}
	}
}
