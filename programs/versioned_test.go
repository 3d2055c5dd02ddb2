package programs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/programs"
	toolexec "github.com/nanogpt/toolgen/runtime/exec"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// versioned splits a binary's name into the program and a version suffix
// as distributions add them: llvm-reduce-14, gcc-12, python3.11,
// perl5.36.0, tclsh8.6; ok is false for a name without one.
var versioned = regexp.MustCompile(`^(.*[^0-9.-])(-[0-9][0-9.]*|[0-9]+(\.[0-9]+)+)$`)

// versionedBinaries returns the executables of dirs whose name carries a
// version suffix, with the program name without it.
func versionedBinaries(t *testing.T, dirs []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range dirs {
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, de := range ents {
			m := versioned.FindStringSubmatch(de.Name())
			if m == nil {
				continue
			}
			if info, err := os.Stat(filepath.Join(dir, de.Name())); err != nil || info.IsDir() || info.Mode()&0o111 == 0 {
				continue
			}
			out[de.Name()] = m[1]
		}
	}
	return out
}

// TestVersionedNamesRefused: every installed binary of a denied program
// under a versioned name (every directory of PATH, /usr/bin and /usr/sbin,
// plus a directory of this test holding copies under the versioned names
// the runner scan once missed) is denied too: a 613 in a template and
// refused by the ExecTool's grant; and a versioned name of a program that
// reads response files reads them too (its '@' words are refused).
func TestVersionedNamesRefused(t *testing.T) {
	fake := t.TempDir()
	src, err := filepath.EvalSymlinks("/usr/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"llvm-reduce-99", "not-99", "python3.99", "gcc-99", "llvm-nm-99", "opt-99", "perl5.99.1", "tclsh9.9"} {
		if err := os.WriteFile(filepath.Join(fake, n), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dirs := append([]string{fake, "/usr/bin", "/usr/sbin"}, filepath.SplitList(os.Getenv("PATH"))...)
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	k, err := kernel.New(t.TempDir(), kernel.WithPrograms(programs.Hook{}), kernel.WithPath(strings.Join(dirs, string(filepath.ListSeparator))))
	if err != nil {
		t.Fatal(err)
	}
	d := programs.DefaultDenyList()
	denied, resp := 0, 0
	for name, base := range versionedBinaries(t, dirs) {
		if _, ok := d.Match(base); ok {
			denied++
			if entry, ok := d.Match(name); !ok {
				t.Errorf("%s: %s is denied, but its versioned name is not", name, base)
			} else if testing.Verbose() {
				t.Logf("%s: denied (entry %q)", name, entry)
			}
			s := tool.Spec{Name: "t", Description: "a versioned name", Command: name + " {x}",
				Args: []tool.Arg{{Name: "x", Type: tool.String, Description: "a value", Required: true}}}
			_, err := validate.Spec(&s)
			want613(t, "template "+s.Command, err)
			_, err = toolexec.New(k, []string{name})
			want613(t, "ExecTool granted "+name, err)
		}
		if p := programs.Lookup(base); p != nil && p.ResponseFiles != "" {
			resp++
			if validate.ResponseFiles(name) == "" {
				t.Errorf("%s reads response files, but %s does not, for toolgen", base, name)
			}
		}
	}
	if denied < 6 || resp < 2 {
		t.Errorf("found %d versioned names of denied programs and %d of response-file readers: the test's own copies alone make 6 and 2", denied, resp)
	}
	t.Logf("%d versioned names of denied programs, %d of programs that read response files", denied, resp)
}

// TestVersionedSplit pins how a name splits into program and version.
func TestVersionedSplit(t *testing.T) {
	for name, want := range map[string]string{
		"llvm-reduce-14": "llvm-reduce", "gcc-12": "gcc", "python3.11": "python", "perl5.36.0": "perl",
		"x86_64-linux-gnu-gcc-12": "x86_64-linux-gnu-gcc", "not-14": "not", "pip3.11": "pip", "tclsh8.6": "tclsh",
		"sha256sum": "", "python3": "", "x86_64": "", "ld.so": "", "base64": "",
	} {
		m := versioned.FindStringSubmatch(name)
		got := ""
		if m != nil {
			got = m[1]
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
}
