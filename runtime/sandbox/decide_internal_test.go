package sandbox

import (
	"strings"
	"testing"
)

// withABI makes probeABI report a for the rest of the test.
func withABI(t *testing.T, a abiInfo) {
	saved := probeABI
	probeABI = func() abiInfo { return a }
	t.Cleanup(func() { probeABI = saved })
}

func TestDecide(t *testing.T) {
	none := abiInfo{reason: "Landlock is Linux-only, this is plan9"}
	ro, net := Policy{Workspace: "/ws"}, Policy{Workspace: "/ws", Network: true}
	tests := []struct {
		name      string
		mode      Mode
		abi       abiInfo
		p         Policy
		apply     bool
		note, err string // substrings; "" means none
	}{
		{"full", BestEffort, abiInfo{version: 7}, ro, true, "", ""},
		{"full strict", Strict, abiInfo{version: 4}, ro, true, "", ""},
		{"files only, network allowed", Strict, abiInfo{version: 3}, net, true, "", ""},
		{"strict, no network rules", Strict, abiInfo{version: 3}, ro, false, "",
			"sandbox: strict confinement needs Landlock ABI 4, but this kernel has ABI 3"},
		{"strict, no Landlock", Strict, none, Policy{Workspace: "/ws", Write: true}, false, "",
			"needs Landlock ABI 4, but Landlock is unavailable here (Landlock is Linux-only, this is plan9)"},
		{"best effort, no Landlock", BestEffort, none, ro, false,
			"warning: not confined: Landlock is unavailable here (Landlock is Linux-only, this is plan9); " +
				"the command ran with all of the agent's access to files and network", ""},
		{"best effort, partial", BestEffort, abiInfo{version: 2}, ro, true,
			"warning: partly confined: this kernel's Landlock (ABI 2) does not restrict truncating files (needs ABI 3) " +
				"nor network connections (needs ABI 4)", ""},
		{"best effort, partial, network allowed", BestEffort, abiInfo{version: 1}, net, true,
			"warning: partly confined: this kernel's Landlock (ABI 1) does not restrict truncating files (needs ABI 3)", ""},
		{"off", Off, abiInfo{version: 7}, ro, false, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			withABI(t, tc.abi)
			d := Decide(tc.p, tc.mode)
			if tc.err != "" {
				if d.Err == nil || !strings.Contains(d.Err.Error(), tc.err) || d.Apply {
					t.Fatalf("Decide = %+v, want error %q", d, tc.err)
				}
				return
			}
			if d.Err != nil || d.Apply != tc.apply || (tc.note == "") != (d.Note == "") || !strings.Contains(d.Note, tc.note) {
				t.Errorf("Decide = %+v, want apply %v, note %q", d, tc.apply, tc.note)
			}
		})
	}
}

func TestRestrictThreadRejectsRelativePaths(t *testing.T) {
	withABI(t, abiInfo{version: 7})
	for _, p := range []Policy{{Workspace: "ws"}, {Workspace: "/ws", Exec: []string{"bin/x"}}, {Workspace: "/ws", Home: "h"}} {
		if err := RestrictThread(p, Decision{Apply: true}); err == nil || !strings.Contains(err.Error(), "not absolute") {
			t.Errorf("%+v: %v", p, err)
		}
	}
	if err := RestrictThread(Policy{Workspace: "ws"}, Decision{}); err != nil {
		t.Errorf("nothing to apply: %v", err)
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
		{}: "read: workspace, system; write: nowhere; network: denied; execute: nothing",
		{Write: true, Network: true, Read: []string{"/opt/go"}, Exec: []string{"/usr/bin/git", "/usr/lib/git-core"}}: "read: workspace, system, network, /opt/go; " +
			"write: workspace; network: allowed; execute: /usr/bin/git, /usr/lib/git-core",
	} {
		if got := p.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}
