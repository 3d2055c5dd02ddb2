package validate

import (
	"slices"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/internal/hostentry"
	"github.com/nanogpt/toolgen/runtime/tool"
)

func TestTemplateHosts(t *testing.T) {
	cases := map[string][]string{
		"curl -sS https://api.github.com/repos/{repo}/issues/{n}":           {"api.github.com:443"},
		"curl HTTPS://API.GitHub.com":                                       {"api.github.com:443"},
		"curl http://example.org:8080/x https://example.org/y":              {"example.org:8080", "example.org:443"},
		"curl --url=https://a.example/ --referer=https://a.example/z":       {"a.example:443"},
		"curl https://{host}/x":                                             nil,
		"curl https://api.{domain}.com/x":                                   nil,
		"curl https://a.example:{port}/x":                                   nil,
		"curl https://{host}.example.org/ https://fixed.example/":           {"fixed.example:443"},
		"wget ftp://ftp.example.org/ git://x.example/":                      nil,
		"curl https://user@api.github.com/":                                 nil,
		"curl https://a.example/?next=http://b.example/":                    {"a.example:443", "b.example:80"},
		"curl https://127.0.0.1:8443/ http://[::1]:9/":                      {"127.0.0.1:8443", "[::1]:9"},
		"grep -rn {pattern} {path}":                                         nil,
		"curl xhttps://a.example/":                                          {"a.example:443"},
		"curl https://0x7f.1/ https://bücher.example/ https:// https://:80": nil,
	}
	for command, want := range cases {
		tpl, err := ParseTemplate(command)
		if err != nil {
			t.Fatalf("ParseTemplate(%q): %v", command, err)
		}
		if got := TemplateHosts(tpl); !slices.Equal(got, want) {
			t.Errorf("TemplateHosts(%q) = %q, want %q", command, got, want)
		}
	}
}

func TestNotes(t *testing.T) {
	s := &tool.Spec{Name: "issues", Description: "d", Network: true,
		Command: "curl -sS https://api.github.com/repos/{repo}/issues https://uploads.github.com/x",
		Args:    []tool.Arg{{Name: "repo", Type: tool.String, Description: "d", Required: true}}}
	notes := Notes(s)
	if len(notes) != 1 || notes[0].Field != "network" ||
		!strings.Contains(notes[0].Msg, `"network": {"hosts": ["api.github.com:443", "uploads.github.com:443"]}`) {
		t.Fatalf("Notes = %+v, want one network note naming both hosts", notes)
	}
	for _, s := range []*tool.Spec{
		{Name: "a", Description: "d", Command: "curl https://api.github.com/"},                                                       // no network at all
		{Name: "b", Description: "d", Command: "curl https://api.github.com/", Network: true, Hosts: []string{"api.github.com:443"}}, // hosts already
		{Name: "c", Description: "d", Command: "git fetch", Network: true},                                                           // no URL
	} {
		if n := Notes(s); len(n) != 0 {
			t.Errorf("Notes(%q) = %+v, want none", s.Name, n)
		}
	}
}

// FuzzTemplateHosts: every host TemplateHosts finds is an allow-list entry
// in canonical form, found once, and a template whose every URL holds a
// slot in its authority names none.
func FuzzTemplateHosts(f *testing.F) {
	for _, s := range []string{"curl https://api.github.com/{x}", "curl http://a.example:8080/ https://{h}/",
		"curl --url=https://a.example/?u=http://b.example/", "curl https://q.example/a HTTPS://Q.EXAMPLE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		tpl, err := ParseTemplate(command)
		if err != nil {
			return
		}
		hosts := TemplateHosts(tpl)
		for i, h := range hosts {
			e, err := hostentry.Parse(h)
			if err != nil || e.String() != h {
				t.Fatalf("TemplateHosts(%q) gave %q, not a canonical entry: %v", command, h, err)
			}
			if slices.Contains(hosts[:i], h) {
				t.Fatalf("TemplateHosts(%q) gave %q twice", command, h)
			}
		}
		if !strings.Contains(strings.ToLower(command), "://") && len(hosts) > 0 {
			t.Fatalf("TemplateHosts(%q) = %q with no URL in the template", command, hosts)
		}
	})
}
