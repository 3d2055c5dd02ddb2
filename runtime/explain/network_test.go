package explain_test

import (
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/exec"
	"github.com/nanogpt/toolgen/runtime/explain"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/sandbox"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// noProxy stands for an egress proxy: explain never starts one.
func noProxy(net.Listener, []string, func(string)) error { return nil }

// TestExplainNetworkHosts: explain judges a call with the network its tool
// declares — a Spec's hosts, ExecTool's granted hosts — not with none.
func TestExplainNetworkHosts(t *testing.T) {
	only := "network:     only api.github.com:443, *.example.org:443: through the kernel's egress proxy"
	if !kernel.EgressEnforced() {
		only = "network:     no TCP where Landlock denies it"
	}
	cases := []struct {
		name    string
		mode    sandbox.Mode
		network bool
		hosts   []string
		want    string
	}{
		{"hosts", sandbox.BestEffort, false, []string{"api.github.com:443", "*.example.org:443"}, only},
		{"hosts off", sandbox.Off, false, []string{"localhost:8080"}, "network:     open: confinement is off, so the hosts localhost:8080 are not enforced"},
		{"every host", sandbox.BestEffort, true, nil, "network:     open: every host"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k, err := kernel.New(t.TempDir(), kernel.WithConfinement(c.mode), kernel.WithEgress(noProxy))
			if err != nil {
				t.Fatal(err)
			}
			spec := tool.Spec{Name: "fetch", Description: "fetch", Command: "curl -sS https://api.github.com/",
				Network: c.network, Hosts: c.hosts}
			b, err := base.New(spec, k)
			if err != nil {
				t.Fatal(err)
			}
			r := explain.Call(tool.Entry{Tool: b, Form: tool.FormDescriptor, Source: "test"}, k, json.RawMessage(`{}`))
			var out strings.Builder
			if err := r.Write(&out); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), c.want) {
				t.Errorf("report lacks %q:\n%s", c.want, out.String())
			}
		})
	}
	k, err := kernel.New(t.TempDir(), kernel.WithEgress(noProxy))
	if err != nil {
		t.Fatal(err)
	}
	execOnly, none := "network:     only api.github.com:443: through the kernel's egress proxy", "network:     none: "
	if !kernel.EgressEnforced() { // no network namespace here: Landlock alone
		execOnly = "network:     no TCP where Landlock denies it"
		none = execOnly
	}
	for hosts, want := range map[string]string{"": none, "api.github.com:443": execOnly} {
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
