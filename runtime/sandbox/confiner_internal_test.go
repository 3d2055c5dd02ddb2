package sandbox

import (
	"slices"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/kernel"
)

// withABI makes probeABI report a for the rest of the test.
func withABI(t *testing.T, a abiInfo) {
	saved := probeABI
	probeABI = func() abiInfo { return a }
	t.Cleanup(func() { probeABI = saved })
}

func newConfiner(t *testing.T, mode Mode, opts ...Option) *Confiner {
	t.Helper()
	c, err := New(mode, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var grep = []string{"/usr/bin/grep", "-rn", "x", "."}

func TestConfineDecisions(t *testing.T) {
	none := abiInfo{reason: "Landlock is Linux-only, this is plan9"}
	tests := []struct {
		name       string
		mode       Mode
		abi        abiInfo
		access     kernel.Access
		trampoline bool   // the result runs through the trampoline
		note, err  string // substrings; "" means none
	}{
		{"full", BestEffort, abiInfo{version: 7}, kernel.Access{}, true, "", ""},
		{"full strict", Strict, abiInfo{version: 4}, kernel.Access{}, true, "", ""},
		{"files only, network allowed", Strict, abiInfo{version: 3}, kernel.Access{Network: true}, true, "", ""},
		{"strict, no network rules", Strict, abiInfo{version: 3}, kernel.Access{}, false, "",
			"sandbox: not running /usr/bin/grep: strict confinement needs Landlock ABI 4, but this kernel has ABI 3"},
		{"strict, no Landlock", Strict, none, kernel.Access{Write: true}, false, "",
			"needs Landlock ABI 4, but Landlock is unavailable here (Landlock is Linux-only, this is plan9)"},
		{"best effort, no Landlock", BestEffort, none, kernel.Access{}, false,
			"warning: not confined: Landlock is unavailable here (Landlock is Linux-only, this is plan9); " +
				"the command ran with all of the agent's access to files and network", ""},
		{"best effort, partial", BestEffort, abiInfo{version: 2}, kernel.Access{}, true,
			"warning: partly confined: this kernel's Landlock (ABI 2) does not restrict truncating files (needs ABI 3) " +
				"nor network connections (needs ABI 4)", ""},
		{"best effort, partial, network allowed", BestEffort, abiInfo{version: 1}, kernel.Access{Network: true}, true,
			"warning: partly confined: this kernel's Landlock (ABI 1) does not restrict truncating files (needs ABI 3)", ""},
		{"off", Off, none, kernel.Access{}, false, "", ""},
	}
	initCalled.Store(true)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			withABI(t, tc.abi)
			got, note, err := newConfiner(t, tc.mode).Confine(slices.Clone(grep), "/ws", tc.access)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.note == "" && note != "" || !strings.Contains(note, tc.note) {
				t.Errorf("note = %q, want %q", note, tc.note)
			}
			if through := len(got) > 1 && got[1] == marker; through != tc.trampoline {
				t.Errorf("argv = %q, trampoline %v, want %v", got, through, tc.trampoline)
			}
			if !slices.Equal(got[len(got)-len(grep):], grep) {
				t.Errorf("argv = %q does not end in the command", got)
			}
		})
	}
}

func TestConfineWithoutInit(t *testing.T) {
	withABI(t, abiInfo{version: 7})
	initCalled.Store(false)
	defer initCalled.Store(true)
	for _, m := range []Mode{BestEffort, Strict} {
		if _, _, err := newConfiner(t, m).Confine(slices.Clone(grep), "/ws", kernel.Access{}); err != errNoInit {
			t.Errorf("%v: err = %v, want errNoInit", m, err)
		}
	}
	// Another program as the trampoline, or mode off: no Init needed here.
	got, _, err := newConfiner(t, Strict, WithTrampoline("/usr/local/bin/toolgen")).Confine(slices.Clone(grep), "/ws", kernel.Access{})
	if err != nil || got[0] != "/usr/local/bin/toolgen" {
		t.Errorf("WithTrampoline: %q, %v", got, err)
	}
	if _, _, err := newConfiner(t, Off).Confine(slices.Clone(grep), "/ws", kernel.Access{}); err != nil {
		t.Errorf("Off: %v", err)
	}
}

func TestNewRejects(t *testing.T) {
	for name, tc := range map[string]struct {
		mode Mode
		opts []Option
	}{
		"mode":       {Mode(9), nil},
		"trampoline": {Strict, []Option{WithTrampoline("toolgen")}},
		"readable":   {BestEffort, []Option{WithReadable("/opt/go", "opt/x")}},
	} {
		if _, err := New(tc.mode, tc.opts...); err == nil || !strings.HasPrefix(err.Error(), "sandbox: ") {
			t.Errorf("%s: err = %v, want a sandbox error", name, err)
		}
	}
}

func TestTrampolineArgvRoundTrip(t *testing.T) {
	for _, p := range []Policy{
		{Workspace: "/w s"},
		{Workspace: "/ws", Write: true, Network: true, Read: []string{"/opt/go", "/a=b"}},
	} {
		for _, strict := range []bool{false, true} {
			argv := p.trampolineArgv("/proc/self/exe", strict, []string{"/bin/echo", "--", "mode=off"})
			if argv[0] != "/proc/self/exe" || argv[1] != marker {
				t.Fatalf("argv = %q", argv)
			}
			gp, gs, gargv, err := parseTrampoline(argv[2:])
			if err != nil || gs != strict || !slices.Equal(gargv, []string{"/bin/echo", "--", "mode=off"}) ||
				gp.Workspace != p.Workspace || gp.Write != p.Write || gp.Network != p.Network || !slices.Equal(gp.Read, p.Read) {
				t.Errorf("round trip of %+v strict=%v: %+v %v %q %v", p, strict, gp, gs, gargv, err)
			}
		}
	}
}

func TestParseTrampolineRejects(t *testing.T) {
	ok := []string{"mode=strict", "write=0", "network=0", "workspace=/ws", "--", "/bin/true"}
	for name, args := range map[string][]string{
		"no command":        ok[:5],
		"relative command":  append(slices.Clone(ok[:5]), "true"),
		"mode off":          {"mode=off", "write=0", "network=0", "workspace=/ws", "--", "/bin/true"},
		"bad mode":          {"mode=lax", "write=0", "network=0", "workspace=/ws", "--", "/bin/true"},
		"missing workspace": {"mode=strict", "write=0", "network=0", "--", "/bin/true"},
		"relative ws":       {"mode=strict", "write=0", "network=0", "workspace=ws", "--", "/bin/true"},
		"twice":             {"mode=strict", "write=0", "write=1", "network=0", "workspace=/ws", "--", "/bin/true"},
		"bad bit":           {"mode=strict", "write=yes", "network=0", "workspace=/ws", "--", "/bin/true"},
		"unknown":           {"mode=strict", "write=0", "network=0", "workspace=/ws", "exec=1", "--", "/bin/true"},
		"no equals":         {"mode=strict", "write", "network=0", "workspace=/ws", "--", "/bin/true"},
		"no marker end":     {"mode=strict", "write=0", "network=0", "workspace=/ws", "/bin/true"},
	} {
		if _, _, _, err := parseTrampoline(args); err == nil {
			t.Errorf("%s: %q accepted", name, args)
		}
	}
	if _, _, _, err := parseTrampoline(ok); err != nil {
		t.Errorf("%q: %v", ok, err)
	}
}

func TestModeFlag(t *testing.T) {
	for _, m := range []Mode{BestEffort, Strict, Off} {
		var got Mode = 99
		if err := got.Set(m.String()); err != nil || got != m {
			t.Errorf("Set(%q) = %v, %v", m.String(), got, err)
		}
	}
	var m Mode
	if m != DefaultMode || m.String() != "best-effort" {
		t.Errorf("zero Mode = %v, want the default, best-effort", m)
	}
	if err := m.Set("loose"); err == nil || m != BestEffort {
		t.Errorf("Set(loose) = %v, mode %v", err, m)
	}
}

func TestPolicyString(t *testing.T) {
	for p, want := range map[*Policy]string{
		{}: "read: workspace, system; write: nowhere; network: denied",
		{Write: true, Network: true, Read: []string{"/opt/go"}}: "read: workspace, system, /opt/go; write: workspace; network: allowed",
	} {
		if got := p.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}
