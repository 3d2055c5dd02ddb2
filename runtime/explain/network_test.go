package explain_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/exec"
	"github.com/nanogpt/toolgen/runtime/explain"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestExplainNetwork: the network line states the policy of the tool (none,
// every host, only its hosts, canonical) and what enforces it, for each
// confinement mode; ExecTool's line follows its grant.
func TestExplainNetwork(t *testing.T) {
	spec := func(network bool, hosts ...string) tool.Spec {
		return tool.Spec{Name: "fetch", Description: "fetch", Command: "curl -sS https://api.github.com/",
			Network: network, Hosts: hosts}
	}
	enforced := "NOT enforced here"
	if kernel.EgressEnforced() {
		enforced = "enforced by a network namespace whose only route out is the proxy"
	}
	cases := []struct {
		name string
		mode sandbox.Mode
		spec tool.Spec
		want []string
	}{
		{"hosts", sandbox.BestEffort, spec(false, "API.GitHub.com.:443", "*.example.org:443"),
			[]string{"network:     only api.github.com:443, *.example.org:443, through toolgen's egress proxy", enforced}},
		{"hosts strict", sandbox.Strict, spec(false, "localhost:8080"), []string{"only localhost:8080", enforced}},
		{"hosts off", sandbox.Off, spec(false, "localhost:8080"), []string{"only localhost:8080", "NOT enforced (--confine off)"}},
		{"every host", sandbox.BestEffort, spec(true), []string{`network:     every host ("network": true)`,
			`note:        "network": true lets the command reach every host, and its template names this host: "network": {"hosts": ["api.github.com:443"]}`}},
		{"none", sandbox.BestEffort, spec(false), []string{"network:     none; a network namespace of the call's own"}},
		{"none off", sandbox.Off, spec(false), []string{"network:     none declared; NOT enforced (--confine off)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k, err := kernel.New(t.TempDir(), kernel.WithConfinement(c.mode))
			if err != nil {
				t.Fatal(err)
			}
			b, err := base.New(c.spec, k)
			if err != nil {
				t.Fatal(err)
			}
			r := explain.Call(tool.Entry{Tool: b, Form: tool.FormDescriptor, Source: "test"}, k, json.RawMessage(`{}`))
			var out strings.Builder
			if err := r.Write(&out); err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, out.String())
				}
			}
			if note := strings.Contains(out.String(), "note:"); note != c.spec.Network {
				t.Errorf("a note line is there: %v, want %v (only \"network\": true gets the hosts note):\n%s", note, c.spec.Network, out.String())
			}
		})
	}
	k, err := kernel.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for hosts, want := range map[string]string{"": "network:     none;", "api.github.com:443": "network:     only api.github.com:443,"} {
		var opts []exec.Option
		if hosts != "" {
			opts = append(opts, exec.WithHosts(hosts))
		}
		et, err := exec.New(k, []string{"curl"}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		r := explain.Call(tool.Entry{Tool: et, Form: tool.FormExec, Source: "exec"}, k, json.RawMessage(`{"command":"curl -sS https://api.github.com/"}`))
		var out strings.Builder
		r.Write(&out)
		if !strings.Contains(out.String(), want) {
			t.Errorf("exec with hosts %q: report lacks %q:\n%s", hosts, want, out.String())
		}
	}
}
