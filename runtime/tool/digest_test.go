package tool_test

import (
	"testing"
	"time"

	"github.com/nanogpt/toolgen/runtime/tool"
)

func digestSpec() tool.Spec {
	return tool.Spec{
		Name:        "search_text",
		Description: "Search text in workspace files",
		Command:     "grep -rn {pattern} {path}",
		Args: []tool.Arg{
			{Name: "pattern", Type: tool.String, Description: "Text pattern to search", Required: true},
			{Name: "path", Type: tool.Path, Description: "Directory or file to search", Default: ".", HasDefault: true},
		},
	}
}

func TestDigestStable(t *testing.T) {
	// Pinned: generated code embeds this value, so a change here means every
	// generated tool must be regenerated. Change it only on purpose.
	const want = "sha256:21fb03d60cca55a2a96d2938a41fae0c92121949dc460a6226738beeec3bd938"
	if got := tool.Digest(digestSpec()); got != want {
		t.Errorf("Digest = %s, want %s", got, want)
	}
	s := digestSpec()
	s.Examples = []tool.Example{{Args: `{"pattern":"x"}`, Argv: []string{"grep", "-rn", "x", "."}}}
	if tool.Digest(s) != want {
		t.Error("examples changed the digest")
	}
	s.Args[0].Enum = []string{}
	if tool.Digest(s) != want {
		t.Error("an empty enum and no enum differ")
	}
	s.Hosts = []string{} // no hosts: the digest of before hosts existed
	if tool.Digest(s) != want {
		t.Error("an empty host list changed the digest")
	}
	s.Stderr = tool.StderrMerged // the default, written out
	if tool.Digest(s) != want {
		t.Error(`stderr "merged" changed the digest`)
	}
}

// TestDigestTimeoutByValue: a timeout is one duration however it is
// written ("90s" and "1m30s").
func TestDigestTimeoutByValue(t *testing.T) {
	var digests []string
	for _, v := range []string{"90s", "1m30s", "90000ms"} {
		data := []byte(`{"name": "search_text", "description": "Search text in workspace files", "command": "grep -rn x .", "timeout": "` + v + `"}`)
		s, _, err := tool.DecodeSpec("s.tool.json", data)
		if err != nil {
			t.Fatal(err)
		}
		if s.Timeout != 90*time.Second {
			t.Fatalf("timeout %q decoded as %v", v, s.Timeout)
		}
		digests = append(digests, tool.Digest(s))
	}
	if digests[0] != digests[1] || digests[1] != digests[2] {
		t.Errorf("one timeout written three ways has digests %v", digests)
	}
}

func TestDigestDecodedMatchesLiteral(t *testing.T) {
	// The digest depends on content, not layout: a descriptor file and the
	// Go literal of the same Spec agree.
	data := []byte(`{"arguments": {
	  "pattern": {"required": true, "description": "Text pattern to search", "type": "string"},
	  "path": {"type": "path", "default": ".", "description": "Directory or file to search"}},
	 "command": "grep -rn {pattern} {path}", "description": "Search text in workspace files", "name": "search_text"}`)
	s, _, err := tool.DecodeSpec("s.tool.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if tool.Digest(s) != tool.Digest(digestSpec()) {
		t.Error("decoded descriptor and literal have different digests")
	}
}

func TestDigestChangesWithEveryField(t *testing.T) {
	base := tool.Digest(digestSpec())
	changes := map[string]func(*tool.Spec){
		"name":               func(s *tool.Spec) { s.Name = "search_text2" },
		"description":        func(s *tool.Spec) { s.Description += "." },
		"command":            func(s *tool.Spec) { s.Command = "grep -rni {pattern} {path}" },
		"writes":             func(s *tool.Spec) { s.Writes = true },
		"network":            func(s *tool.Spec) { s.Network = true },
		"runs_code":          func(s *tool.Spec) { s.RunsCode = true },
		"hosts":              func(s *tool.Spec) { s.Hosts = []string{"api.github.com:443"} },
		"hosts more":         func(s *tool.Spec) { s.Hosts = []string{"api.github.com:443", "github.com:443"} },
		"hosts order":        func(s *tool.Spec) { s.Hosts = []string{"github.com:443", "api.github.com:443"} },
		"argument order":     func(s *tool.Spec) { s.Args[0], s.Args[1] = s.Args[1], s.Args[0] },
		"argument removed":   func(s *tool.Spec) { s.Args = s.Args[:1] },
		"argument name":      func(s *tool.Spec) { s.Args[0].Name = "pat" },
		"argument type":      func(s *tool.Spec) { s.Args[1].Type = tool.String },
		"argument desc":      func(s *tool.Spec) { s.Args[0].Description = "x" },
		"argument required":  func(s *tool.Spec) { s.Args[0].Required = false },
		"argument default":   func(s *tool.Spec) { s.Args[1].Default = "src" },
		"default removed":    func(s *tool.Spec) { s.Args[1].HasDefault = false },
		"empty default":      func(s *tool.Spec) { s.Args[0].HasDefault = true },
		"argument enum":      func(s *tool.Spec) { s.Args[0].Enum = []string{"a"} },
		"argument enum more": func(s *tool.Spec) { s.Args[0].Enum = []string{"a", "b"} },
		"argument pattern":   func(s *tool.Spec) { s.Args[0].Pattern = "[a-z]+" },
		"field boundary":     func(s *tool.Spec) { s.Name, s.Description = "search_textS", "earch text in workspace files" },
		"timeout":            func(s *tool.Spec) { s.Timeout = 5 * time.Minute },
		"timeout longer":     func(s *tool.Spec) { s.Timeout = 5*time.Minute + time.Nanosecond },
		"stderr separate":    func(s *tool.Spec) { s.Stderr = tool.StderrSeparate },
	}
	seen := map[string]string{base: "unchanged"}
	for what, change := range changes {
		s := digestSpec()
		change(&s)
		d := tool.Digest(s)
		if prev, ok := seen[d]; ok {
			t.Errorf("%s: digest equals that of %s", what, prev)
		}
		seen[d] = what
	}
}
