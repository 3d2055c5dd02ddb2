package programs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOptionsRecorded: every verdict of testdata/options.md (the scan for
// response files and code-loading options, options-scan.sh) is true of the
// registry and the default deny list: "response files" rows name a program
// with ResponseFiles, "… code option" rows one with code options (or a
// whole refusal), "denied (entry E)" rows are denied by E, "denied (#! I)"
// and "denied (resolves to T)" rows by DenyList.Program where installed,
// and "harmless" rows are neither denied by name nor read response files.
func TestOptionsRecorded(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "options.md"))
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultDenyList()
	rows, seen := 0, map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cols := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cols) != 3 || strings.TrimSpace(cols[2]) == "" {
			t.Errorf("options.md:%d: want | `name` | verdict | why |: %q", i+1, line)
			continue
		}
		rows++
		name, verdict := strings.Trim(cols[0], "`"), cols[1]
		if prev, dup := seen[name]; dup {
			t.Errorf("options.md:%d: %q has a row already (line %d)", i+1, name, prev)
		}
		seen[name] = i + 1
		p := Lookup(name)
		entry, byName := d.Match(name)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Errorf("options.md:%d: %s (%s): "+format, append([]any{i + 1, name, verdict}, args...)...)
		}
		switch {
		case strings.HasPrefix(verdict, "response files"):
			if p == nil || p.ResponseFiles == "" {
				fail("no program of the registry reads response files under this name")
			}
			if strings.HasSuffix(verdict, ", code option") && (p == nil || len(p.Code) == 0) {
				fail("its program has no code option")
			}
		case verdict == "code option":
			if p == nil || len(p.Code) == 0 && p.Refuse == "" && len(p.Rows) == 0 {
				fail("its program refuses nothing")
			}
		case strings.HasPrefix(verdict, "denied (entry "):
			if want := strings.TrimSuffix(strings.TrimPrefix(verdict, "denied (entry "), ")"); !byName || entry != want {
				fail("the deny list's entry is %q (denied: %v)", entry, byName)
			}
		case strings.HasPrefix(verdict, "denied (#! ") || strings.HasPrefix(verdict, "denied (resolves to "):
			if path := installedAt(name); path != "" && !byName {
				if why, denied := d.Program(path); !denied {
					fail("DenyList.Program allows %s (%s)", path, why)
				}
			}
		case verdict == "harmless":
			if byName {
				fail("the deny list denies it (entry %q)", entry)
			}
			if p != nil && p.ResponseFiles != "" {
				fail("its program reads response files")
			}
		default:
			fail("unknown verdict")
		}
	}
	if rows < 100 {
		t.Errorf("options.md has %d verdict rows; the scan matched about 200 programs", rows)
	}
}
