package sedscript

import (
	"context"
	"errors"
	osexec "os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/internal/guarantee"
)

var sedAccepted = []string{
	"p", "1p", "$p", "1,3p", "1~2p", "0~3d", "2,+3p", "2,~4p", "$!N", "/re/p", "/re/Ip", "/a/,/b/d",
	`\%x%p`, `\,a,d`, "s/a/b/", "s/a/b/g", "s/a/b/gp", "s/a/b/2", "s/a/b/I", "s/a/b/M", "s|a|b|g",
	`s/a\/b/c/`, "s|[/]|x|g", "s/[]|]/x/", "s/[^]|]/x/", "s/[[:alpha:]]/x/g", "s/[[:alpha:]|]/x/",
	"s/x/[/", "y/abc/xyz/", "y/a\\/b/x\\/y/", "1!G;h;$!d", ":a;N;$!ba;s/\\n/ /g", "b end", "t", "T x",
	"=", "l", "l 5", "q", "q 3", "Q", "z", "F", "x", "h;H;g;G", "{p}", "1{p;p}", "1{\np\n}", "a foo",
	"a\\ foo; w x", "i bar", "c baz", "# e id", "p # w x", "p;;p", "  p  ", "v", "v 4.2", "n;d", "D", "P",
	"s/e/w/", "/e/p", "/w/,/r/d", "s/a/b/ ; p", "-", // "-" is read as an unknown command below
}

var sedRefused = map[string]string{
	"e":                  "the e command",
	"e id":               "the e command",
	"1e id":              "the e command",
	"$!e":                "the e command",
	"/x/e id":            "the e command",
	"1!e id":             "the e command",
	"p;e id":             "the e command",
	"{e id}":             "the e command",
	"s/x/y/e":            "e flag of s",
	"s/x/y/ge":           "e flag of s",
	"s/x/y/3e":           "e flag of s",
	"s|x|y|e":            "e flag of s",
	"s/[/]/y/e":          "e flag of s",
	"s/x/[/e":            "e flag of s",
	"s/x/y/w out":        "w flag of s",
	"s/x/y/pw out":       "w flag of s",
	"w out":              "the w command",
	"1w out":             "the w command",
	"W out":              "the W command",
	"r /etc/passwd":      "the r command",
	"R x":                "the R command",
	"1{r x}":             "the r command",
	"zz":                 "unexpected",
	"pw":                 "unexpected",
	"s/x/y/q":            "unexpected",
	"s/x/y":              "not terminated",
	"s/x":                "not terminated",
	"/x":                 "not terminated",
	"y/ab/c":             "not terminated",
	"s/[x/y/":            "not terminated",
	"s/[[:al/]/x/":       "not terminated",
	"1,":                 "second address",
	"1":                  "without a command",
	"k":                  "not a sed command",
	"s/[/]/x/;e":         "the e command",
	"s/[/]/x/\ne":        "the e command",
	`s/a/b\/e`:           "not terminated",
	"1~":                 "without a command",
	"!":                  "without a command",
	"/[/]/p":             "bracket expression holds the delimiter",
	"s/a/b/;s/[/]/e/w x": "w flag of s",
}

func TestJudge(t *testing.T) {
	for _, s := range sedAccepted {
		if s == "-" {
			continue
		}
		if reason := Judge(s); reason != "" {
			t.Errorf("Judge(%q) = %q, want it accepted", s, reason)
		}
	}
	for s, want := range sedRefused {
		if reason := Judge(s); !strings.Contains(reason, want) {
			t.Errorf("Judge(%q) = %q, want a refusal containing %q", s, reason, want)
		}
	}
}

// TestJudgeAgainstSandbox checks the parser against GNU sed itself:
// whatever sedScript accepts must compile under sed --sandbox, which
// refuses the e, r, R, w and W commands and the e and w flags of s.
func TestJudgeAgainstSandbox(t *testing.T) {
	for _, s := range append(sedAccepted, mapKeys(sedRefused)...) {
		sandboxAgrees(t, s)
	}
}

func mapKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// sandboxAgrees fails when sedScript accepts s but GNU sed --sandbox finds
// a command that runs or touches files.
func sandboxAgrees(t testing.TB, s string) {
	t.Helper()
	if Judge(s) != "" {
		return
	}
	sed, err := gnuSed()
	if err != nil {
		guarantee.Missing(t, "%v", err)
	}
	// GNU sed refuses a script in sandbox mode while parsing it, before it
	// reads input; a script it accepts may loop forever (":a;ba"), so the
	// run is bounded and killed: only the refusal matters.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	cmd := osexec.CommandContext(ctx, sed, "--sandbox", "-n", "-e", s)
	cmd.Stdin = strings.NewReader("x\n")
	cmd.WaitDelay = time.Second
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "sandbox") {
		t.Errorf("Judge(%q) accepts a script GNU sed refuses in sandbox mode: %s", s, out)
	}
}

// gnuSed is the path of GNU sed, looked up once, or why it cannot be used.
var gnuSed = sync.OnceValues(func() (string, error) {
	sed, err := osexec.LookPath("sed")
	if err != nil {
		return "", errors.New("no sed")
	}
	if v, _ := osexec.Command(sed, "--version").Output(); !strings.Contains(string(v), "GNU sed") {
		return "", errors.New("not GNU sed")
	}
	return sed, nil
})

func FuzzSedScript(f *testing.F) {
	for _, s := range sedAccepted {
		f.Add(s)
	}
	for s := range sedRefused {
		f.Add(s)
	}
	f.Add(":a;ba") // accepted, and loops forever: the oracle's run must end (it once left sed running)
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\x00\n") {
			return
		}
		sandboxAgrees(t, s)
	})
}
