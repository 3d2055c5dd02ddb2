package programs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// verdict is one row of the verdict table of testdata/runners.md.
type verdict struct {
	line          int
	name, verdict string
}

// readVerdicts parses the tables of testdata/runners.md: rows
// "| `NAME` | VERDICT | WHY |" (a header row and the "|---|" line are
// skipped).
func readVerdicts(t *testing.T) []verdict {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "runners.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []verdict
	for i, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cols := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cols) != 3 || strings.TrimSpace(cols[2]) == "" {
			t.Errorf("runners.md:%d: want | `name` | verdict | why |: %q", i+1, line)
			continue
		}
		out = append(out, verdict{line: i + 1, name: strings.Trim(cols[0], "`"), verdict: strings.TrimSpace(cols[1])})
	}
	if len(out) == 0 {
		t.Fatal("runners.md has no verdict rows")
	}
	return out
}

// The table of runners.go and the record of testdata/runners.md say the
// same: each entry of runnerGroups is a row "denied", each row "denied" is
// an entry, and no program has two rows.
func TestRunnersRecorded(t *testing.T) {
	entries := runnerEntries()
	var denied []string
	seen := map[string]int{}
	for _, v := range readVerdicts(t) {
		if prev, dup := seen[v.name]; dup {
			t.Errorf("runners.md:%d: %q has a row already (line %d)", v.line, v.name, prev)
		}
		seen[v.name] = v.line
		if v.verdict == "denied" {
			denied = append(denied, v.name)
		}
	}
	for _, e := range entries {
		if !slices.Contains(denied, e) {
			t.Errorf("runners.go denies %q, which runners.md does not record as denied", e)
		}
	}
	for _, n := range denied {
		if !slices.Contains(entries, n) {
			t.Errorf("runners.md records %q as denied, which runners.go does not deny", n)
		}
	}
}

// Every verdict of runners.md is true of the default deny list and the
// registry: "denied" rows are denied, "denied (entry E)" and "already
// denied (entry E)" rows are denied by E (an entry of runners.go, of
// deny.go), "already denied (resolves to T)" and "(#! I)" rows are denied
// by DenyList.Program where the program is installed here, "grammar" names
// are allowed and have a program (theirs, or that of the file they resolve
// to) whose grammar refuses what runs,
// "harmless" names are allowed.
func TestRunnersVerdicts(t *testing.T) {
	d := DefaultDenyList()
	runners := runnerEntries()
	for _, v := range readVerdicts(t) {
		name := strings.TrimSuffix(v.name, "*")
		_, byName := d.Match(name)
		entry, byEntry := strings.CutPrefix(v.verdict, "denied (entry ")
		if !byEntry {
			entry, byEntry = strings.CutPrefix(v.verdict, "already denied (entry ")
		}
		entry = strings.TrimSuffix(entry, ")")
		switch {
		case v.verdict == "denied":
			if !byName {
				t.Errorf("runners.md:%d: %q is denied, but the default deny list allows it", v.line, v.name)
			}
		case byEntry:
			ours := strings.HasPrefix(v.verdict, "denied")
			if _, ok := NewDenyList(entry).Match(name); !ok || !byName || !slices.Contains(d.Entries(), entry) {
				t.Errorf("runners.md:%d: %q is not denied by the default list's entry %q", v.line, v.name, entry)
			}
			if slices.Contains(runners, entry) != ours {
				t.Errorf("runners.md:%d: %q: entry %q is of runners.go: %v; the verdict says %v", v.line, v.name, entry, !ours, ours)
			}
		case strings.HasPrefix(v.verdict, "already denied (resolves to ") || strings.HasPrefix(v.verdict, "already denied (#! "):
			path := installedAt(name)
			if byName || path == "" {
				continue // denied by name since, or not installed here: nothing to resolve
			}
			if why, denied := d.Program(path); !denied {
				t.Errorf("runners.md:%d: %s is %s, but DenyList.Program allows it (%s)", v.line, path, v.verdict, why)
			}
		case v.verdict == "grammar":
			if byName {
				t.Errorf("runners.md:%d: %q is left to its grammar, but the deny list denies it", v.line, v.name)
			}
			p := Lookup(name)
			if path := installedAt(name); p == nil && path != "" {
				if real, err := filepath.EvalSymlinks(path); err == nil {
					p = Lookup(real) // pager: the Debian alternative resolves to less
				}
			}
			if p == nil || (p.Refuse == "" && len(p.Code) == 0 && len(p.Rows) == 0 && len(p.Commands) == 0 && p.Script == nil && p.Check == nil) {
				t.Errorf("runners.md:%d: %q is left to its grammar, but no program of the registry refuses anything of it", v.line, v.name)
			}
		case v.verdict == "harmless":
			if e, denied := d.Match(name); denied {
				t.Errorf("runners.md:%d: %q is harmless, but the deny list denies it (entry %q)", v.line, v.name, e)
			}
		default:
			t.Errorf("runners.md:%d: unknown verdict %q", v.line, v.verdict)
		}
	}
}

// installedAt returns the path of name in /usr/bin or /usr/sbin, or "".
func installedAt(name string) string {
	for _, dir := range []string{"/usr/bin", "/usr/sbin"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// Each group says why, its entries are written as normalised entries, and
// no entry is in two groups.
func TestRunnerGroups(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range runnerGroups {
		if len(strings.Fields(g.why)) < 5 || len(g.entries) == 0 {
			t.Errorf("group %v: a reason of a few words and one entry at least are needed (why %q)", g.entries, g.why)
		}
		for _, e := range g.entries {
			if normEntry(e) != e || e == "*" || e == "" {
				t.Errorf("entry %q is not written as DenyList keeps it (%q)", e, normEntry(e))
			}
			if seen[e] {
				t.Errorf("entry %q is in two groups", e)
			}
			seen[e] = true
		}
	}
}

// The runners are denied under their names and the names they take on a
// system: a path, an upper-case name, a version suffix, a multiarch
// triplet; prefix entries cover the family.
func TestRunnersDenied(t *testing.T) {
	d := DefaultDenyList()
	for _, e := range runnerEntries() {
		base := strings.TrimSuffix(e, "*")
		names := []string{base, "/usr/bin/" + base, strings.ToUpper(base), base + "2.1", "x86_64-linux-gnu-" + base}
		if base != e {
			names = append(names, base+"x", base+"-svscan")
		}
		for _, n := range names {
			if _, denied := d.Match(n); !denied {
				t.Errorf("entry %q: Match(%q) allows it", e, n)
			}
		}
	}
	// Neighbours of the entries that are other programs stay allowed.
	for _, n := range []string{"grep", "sed", "find", "wc", "ls", "git", "installer", "svn", "gpgv", "gpgconf",
		"diff", "cmp", "sponge", "ts", "inotifywait", "inotifywatch", "fswatch", "daemonize-config", "logger",
		"editorconfig", "iostat", "mpstat", "sar", "gprof", "kmodsign", "s6", "stapler", "deltaup"} {
		if e, denied := d.Match(n); denied {
			t.Errorf("Match(%q) denied by %q", n, e)
		}
	}
}

// RunnerEntries is runnerEntries, for the tests of package programs_test.
var RunnerEntries = runnerEntries
