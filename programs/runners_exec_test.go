package programs_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/programs"
	toolexec "github.com/nanogpt/toolgen/runtime/exec"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// runnerNames are the names to try for the runner entries: each entry (a
// prefix entry as its prefix and one name of the family), and every
// executable of /usr/bin and /usr/sbin that one of them matches.
func runnerNames(t *testing.T) []string {
	t.Helper()
	runners := programs.NewDenyList(programs.RunnerEntries()...)
	var names []string
	for _, e := range programs.RunnerEntries() {
		if p, ok := strings.CutSuffix(e, "*"); ok {
			names = append(names, p, p+"x")
			continue
		}
		names = append(names, e)
	}
	installed := 0
	for _, dir := range []string{"/usr/bin", "/usr/sbin"} {
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, de := range ents {
			if _, ok := runners.Match(de.Name()); ok {
				names = append(names, de.Name())
				installed++
			}
		}
	}
	t.Logf("%d entries, %d installed programs they match", len(programs.RunnerEntries()), installed)
	return names
}

// want613 fails unless err is a 613 that names the deny list.
func want613(t *testing.T, what string, err error) {
	t.Helper()
	var te *tool.Error
	switch {
	case err == nil:
		t.Errorf("%s: accepted", what)
	case !errors.As(err, &te) || te.Code != tool.CodeSpec:
		t.Errorf("%s: want a 613, got %v", what, err)
	case !strings.Contains(err.Error(), "deny list"):
		t.Errorf("%s: the 613 does not name the deny list: %v", what, err)
	}
}

// Every runner is denied in a template (613, whatever the slot) and the
// ExecTool refuses to grant it (613), under the default deny list.
func TestRunnersRefused(t *testing.T) {
	k, err := kernel.New(t.TempDir(), kernel.WithPrograms(programs.Hook{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range runnerNames(t) {
		for _, cmd := range []string{name + " {x}", name + " -- {x}", "/usr/bin/" + name + " {x}"} {
			s := tool.Spec{Name: "t", Description: "a template that runs a runner", Command: cmd,
				Args: []tool.Arg{{Name: "x", Type: tool.String, Description: "a value", Required: true}}}
			_, err := validate.Spec(&s)
			want613(t, "template "+cmd, err)
		}
		_, err := toolexec.New(k, []string{name})
		want613(t, "ExecTool granted "+name, err)
	}
}

// A runner reached under another name is refused all the same: a symlink
// of an innocent name to an installed runner, and a script whose #! line
// names one, both on the kernel's PATH.
func TestRunnersUnderOtherNames(t *testing.T) {
	var target string
	for _, n := range []string{"entr", "tini", "chronic", "sv", "pidstat", "gio"} {
		if p, err := filepath.EvalSymlinks(filepath.Join("/usr/bin", n)); err == nil {
			target = p
			break
		}
	}
	if target == "" {
		// None of them is installed: the test makes one, a copy of a
		// harmless program under a runner's name.
		src, err := filepath.EvalSymlinks("/usr/bin/true")
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		target = filepath.Join(t.TempDir(), "entr")
		if err := os.WriteFile(target, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := t.TempDir()
	if err := os.Symlink(target, filepath.Join(bin, "lister")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "report"), []byte("#!"+target+" -c\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	k, err := kernel.New(t.TempDir(), kernel.WithPrograms(programs.Hook{}), kernel.WithPath(bin))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"lister", "report"} {
		_, err := toolexec.New(k, []string{name})
		want613(t, "ExecTool granted "+name+" ("+target+")", err)
		if why, denied := programs.DefaultDenyList().Program(filepath.Join(bin, name)); !denied {
			t.Errorf("DenyList.Program(%s) allows it (%s)", name, why)
		}
	}
}
