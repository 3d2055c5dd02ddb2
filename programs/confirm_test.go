package programs_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

// needsValue matches what a program says when an option that takes a value
// is given none: getopt's "option requires an argument", curl's "requires
// parameter", git's "expects", and the like.
var needsValue = regexp.MustCompile(`(?i)requires? (an |a )?(argument|parameter|value)|expects|no \w+( \w+)? (given|specified)|` +
	`missing (argument|parameter)|argument (missing|expected|required)|needs an argument|missing value|lacks argument`)

// knownDifferences are the grammar rows an installed program does not
// confirm, with why the row stands as it is (the reading that refuses
// more, or a program whose message says nothing useful). A key is the
// program's first name, a space and the option as given ("tar -H").
var knownDifferences = map[string]string{
	"wc --total":                   "coreutils 9.2's; the wc here predates it (unknown option)",
	"git --attr-source":            "git 2.40's; the git here predates it",
	"node -p":                      "--print's script is optional; the row refuses -p itself",
	"node --print":                 "the script is optional; the row refuses --print itself",
	"node --run":                   "node 22's; the node here predates it",
	"zip --unzip-command":          "zip 3.0 aborts (buffer overflow) when a long option's value is missing; the row refuses the option itself",
	"zip --out":                    "zip 3.0 aborts (buffer overflow) when a long option's value is missing",
	"zip --split-size":             "zip 3.0 aborts (buffer overflow) when a long option's value is missing",
	"zip --logfile-path":           "zip 3.0 aborts (buffer overflow) when a long option's value is missing",
	"zip --password":               "zip 3.0 aborts (buffer overflow) when a long option's value is missing",
	"zip --unzip-c":                "zip 3.0 aborts (buffer overflow) when a long option's value is missing; the row refuses the option itself",
	"git filter-branch --env-fi":   "filter-branch is a shell script of git 2.39 that takes no abbreviations; the rows refuse the subcommand",
	"git filter-branch --tree-f":   "filter-branch takes no abbreviations; the rows refuse the subcommand",
	"git filter-branch --index-f":  "filter-branch takes no abbreviations; the rows refuse the subcommand",
	"git filter-branch --parent-":  "filter-branch takes no abbreviations; the rows refuse the subcommand",
	"git filter-branch --msg-fi":   "filter-branch takes no abbreviations; the rows refuse the subcommand",
	"git filter-branch --commit-":  "filter-branch takes no abbreviations; the rows refuse the subcommand",
	"git filter-branch --tag-name": "filter-branch takes no abbreviations; the rows refuse the subcommand",
	"git send-email --sendmai":     "send-email is a Perl script (not always installed); the rows refuse the subcommand",
	"git send-email --smtp-s":      "send-email is a Perl script (not always installed); the rows refuse the subcommand",
	"git send-email --to-c":        "send-email is a Perl script (not always installed); the rows refuse the subcommand",
	"git send-email --cc-c":        "send-email is a Perl script (not always installed); the rows refuse the subcommand",
	"git send-email --header":      "send-email is a Perl script (not always installed); the rows refuse the subcommand",
	"vi --remote":                  "vim prints its usage, naming no option; the row refuses every --remote option",
	"vi --remote-send":             "vim prints its usage, naming no option; the row refuses every --remote option",
	"vi --remote-expr":             "vim prints its usage, naming no option; the row refuses every --remote option",
	"vi --remote-tab":              "vim prints its usage, naming no option; the row refuses every --remote option",
	"vi --remote-wait":             "vim prints its usage, naming no option; the row refuses every --remote option",
	"vi --servername":              "vim prints its usage, naming no option; the row refuses it",
	"vi --listen":                  "vim prints its usage, naming no option; the row refuses it",
	"vi --server":                  "vim prints its usage, naming no option; the row refuses it",
	"git difftool --extc":          "difftool passes the options it does not know to diff, so it takes no abbreviations; the template check reads them as abbreviations, which refuses more",
	"git difftool --too":           "difftool takes no abbreviations; the template check reads them as abbreviations, which refuses more",
	"awk -E":                       "the awk here is mawk; the grammar is gawk's, which reads more letters as options",
	"awk -i":                       "mawk; the grammar is gawk's",
	"awk -l":                       "mawk; the grammar is gawk's",
	"awk -e":                       "mawk; the grammar is gawk's",
	"awk --file":                   "mawk has no long options; the grammar is gawk's",
	"awk --assign":                 "mawk has no long options; the grammar is gawk's",
	"awk --field-separator":        "mawk has no long options; the grammar is gawk's",
	"awk --exec":                   "mawk has no long options; the grammar is gawk's",
	"awk --include":                "mawk has no long options; the grammar is gawk's",
	"awk --load":                   "mawk has no long options; the grammar is gawk's",
	"awk --source":                 "mawk has no long options; the grammar is gawk's",
	"ssh-keygen -G":                "OpenSSH 9.2's ssh-keygen dropped the moduli options (-G, -J, -j, -S, -T); reading them as taking a value refuses -D after them all the same",
	"ssh-keygen -J":                "dropped by OpenSSH 9 (moduli)",
	"ssh-keygen -j":                "dropped by OpenSSH 9 (moduli)",
	"ssh-keygen -S":                "dropped by OpenSSH 9 (moduli)",
	"ssh-keygen -T":                "dropped by OpenSSH 9 (moduli)",
	"curl --engi":                  "curl names an option as it was written (\"option --engi: requires parameter\"), so the full name is not in its message; it reads --engi as --engine all the same",
	"curl --conf":                  "curl names an option as it was written (\"option --conf: requires parameter\"), so the full name is not in its message; it reads --conf as --config all the same",
}

// TestConfirm replays each program's grammar against the program installed
// here, the way mvdan/sh confirms its parser against bash: every option the
// grammar says takes a value (ArgShort, ArgLong, the top level's for a
// program with subcommands) is given as the last word, and the program
// must say that it wants a value; every long code option abbreviated to a
// unique prefix, where the grammar says the program takes abbreviations,
// must be read as that option (its full name in the message). Programs not
// installed are skipped; so is the whole test under -short (make test-all
// runs it).
func TestConfirm(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the installed programs: make test-all")
	}
	k, err := kernel.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	confirmed := 0
	for _, p := range programs.All() {
		g := p.Grammar
		if g.Style != programs.Getopt || g.WordsOnly {
			continue
		}
		path := installed(k, p)
		if path == "" {
			continue
		}
		t.Run(p.Name(), func(t *testing.T) {
			check := func(opt, want string) {
				key := p.Name() + " " + opt
				var out string
				ok := false
				for _, args := range tries(opt) { // the first sub that confirms it
					out = runAlone(t, path, args...)
					if ok = needsValue.MatchString(out) && strings.Contains(out, want); ok {
						break
					}
				}
				why, known := knownDifferences[key]
				switch {
				case ok && known:
					t.Errorf("%s: confirmed now; drop its known difference (%s)", key, why)
				case !ok && !known:
					t.Errorf("%s: the grammar says it takes a value (%s); the program says:\n%s", key, want, out)
				}
				confirmed++
			}
			for _, c := range g.ArgShort {
				check("-"+string(c), "")
			}
			for _, l := range g.ArgLong {
				check("--"+l, "")
			}
			if len(g.Pattern) > 0 {
				confirmed += confirmNoValue(t, path, g)
			}
			if !g.Abbrev {
				return
			}
			for _, o := range p.Code {
				for _, l := range o.Long {
					// git's top level takes no abbreviations.
					if g.Subcommands && o.Sub == "" {
						continue
					}
					if abbr := uniquePrefix(g, l); abbr != "" && !o.Optional {
						check(strings.TrimSpace(subOf(o.Sub)+" --"+abbr), l)
					}
				}
			}
		})
	}
	t.Logf("%d grammar rows confirmed against the installed programs", confirmed)
}

// installed returns the path of the first of p's names (without a '*')
// found on the kernel's PATH, or "".
func installed(k *kernel.Kernel, p *programs.Program) string {
	for _, n := range p.Names {
		if strings.HasSuffix(n, "*") {
			continue
		}
		if path, err := k.LookPath(n); err == nil {
			return path
		}
	}
	return ""
}

// subOf returns the subcommand an option of a row for sub is tried after:
// the first listed, "*" for any (see tries), none for the top level.
func subOf(sub string) string {
	first, _, _ := strings.Cut(sub, " ")
	return first
}

// tries returns the argument lists opt is tried as: "* --x" after each of
// a few subcommands (--upload-pack is fetch's, --receive-pack push's).
func tries(opt string) [][]string {
	if rest, ok := strings.CutPrefix(opt, "* "); ok {
		return [][]string{{"fetch", rest}, {"push", rest}, {"rebase", rest}}
	}
	return [][]string{strings.Fields(opt)}
}

// runAlone runs the program at path with args (the option last), with
// stdin at /dev/null in an empty directory and an empty HOME, for at most
// five seconds, and returns what it printed.
func runAlone(t *testing.T, path string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	dir := t.TempDir()
	if filepath.Base(path) == "git" { // its subcommands want a repository
		if out, err := exec.Command(path, "init", "-q", dir).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v: %s", err, out)
		}
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + kernel.DefaultPath, "HOME=" + dir, "LC_ALL=C", "GIT_CONFIG_NOSYSTEM=1"}
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// uniquePrefix returns the shortest prefix of l, longer than half of it,
// that no other long option of g begins with, or "" when there is none.
func uniquePrefix(g programs.Grammar, l string) string {
	all := append(slices.Clone(g.ArgLong), g.Long...)
	for n := len(l)/2 + 1; n < len(l); n++ {
		abbr := l[:n]
		unique := true
		for _, o := range all {
			if o != l && strings.HasPrefix(o, abbr) {
				unique = false
			}
		}
		if unique {
			return abbr
		}
	}
	return ""
}

// sameOption are long names that spell one option, which getopt_long does
// not call ambiguous.
var sameOption = map[string]string{"color": "colour"}

// ambiguous matches getopt_long's message for a prefix of two long options.
var ambiguous = regexp.MustCompile(`(?i)ambiguous`)

// confirmNoValue confirms, for a program whose pattern operand Places
// reads as data (Grammar.Pattern: grep, rg), the rest of what that reading
// trusts: every option the grammar says takes no value (NoArgShort, Long),
// given as the last word, is not asked a value; and where long options may
// be abbreviated, a prefix of two of them is refused as ambiguous (the
// rule both readers follow: a unique prefix, an exact name first). These
// programs only search, so running them with a lone option is harmless.
// It returns how many rows it confirmed.
func confirmNoValue(t *testing.T, path string, g programs.Grammar) int {
	n := 0
	var opts []string
	for _, c := range g.NoArgShort {
		opts = append(opts, "-"+string(c))
	}
	for _, l := range g.Long {
		opts = append(opts, "--"+l)
	}
	for _, opt := range opts {
		if out := runAlone(t, path, opt); needsValue.MatchString(out) {
			t.Errorf("%s %s: the grammar says it takes no value; the program says:\n%s", filepath.Base(path), opt, out)
		}
		n++
	}
	if !g.Abbrev {
		return n
	}
	all := append(slices.Clone(g.ArgLong), g.Long...)
	for _, a := range all {
		for _, b := range all {
			p := commonPrefix(a, b)
			if a >= b || len(p) < 2 || sameOption[a] == b || sameOption[b] == a {
				continue
			}
			out := runAlone(t, path, "--"+p)
			if p == a || p == b { // an exact name wins over the longer one it begins
				if ambiguous.MatchString(out) {
					t.Errorf("%s --%s: an exact name, but the program reads it as ambiguous with --%s:\n%s", filepath.Base(path), p, max(a, b), out)
				}
				n++
				continue
			}
			if !ambiguous.MatchString(out) {
				t.Errorf("%s --%s: a prefix of --%s and --%s, but the program does not say it is ambiguous:\n%s", filepath.Base(path), p, a, b, out)
			}
			n++
		}
	}
	return n
}

// commonPrefix returns the longest common prefix of a and b.
func commonPrefix(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[:i]
}
