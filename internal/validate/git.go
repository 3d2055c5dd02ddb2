package validate

import "strings"

// gitRiskyOptions are git's top-level options whose value can make git run
// a program, and why: the kernel forces git's configuration safe, but a
// setting given with -c (or --config-env) comes after and wins.
var gitRiskyOptions = map[string]string{
	"-c":           "sets configuration for the run, and git settings can run programs (core.fsmonitor, diff.external, alias.x=!cmd)",
	"--config-env": "sets configuration for the run, and git settings can run programs (core.fsmonitor, diff.external, alias.x=!cmd)",
	"--exec-path":  "chooses the directory git runs its own programs from",
}

// gitOptionValue reports whether slot is (part of) the value of one of
// gitRiskyOptions in a git template, among git's top-level options (before
// the subcommand): "-c {x}", "--config-env {x}", "--config-env={x}",
// "--exec-path={x}". It returns the option.
func gitOptionValue(t *Template, slot string) (string, bool) {
	if BinaryName(t.Binary()) != "git" {
		return "", false
	}
	words := t.Words[1:]
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w[0].Slot != "" || !strings.HasPrefix(w[0].Lit, "-") || w[0].Lit == "--" {
			return "", false // the subcommand's place: git's own options end there
		}
		name, _, attached := strings.Cut(w[0].Lit, "=")
		_, risky := gitRiskyOptions[name]
		switch {
		case risky && (attached || len(w) > 1):
			if wordHasSlot(w, slot) {
				return name, true
			}
		case len(w) == 1 && GitOptionTakesValue(name): // the value is the next word
			if risky && i+1 < len(words) && wordHasSlot(words[i+1], slot) {
				return name, true
			}
			i++
		}
	}
	return "", false
}

// GitOptionTakesValue reports whether opt is one of git's top-level options
// (before the subcommand) that, written alone, take the next word as their
// value: -C, -c, --git-dir, --work-tree, --namespace, --config-env,
// --super-prefix, --attr-source.
func GitOptionTakesValue(opt string) bool {
	switch opt {
	case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix", "--attr-source":
		return true
	}
	return false
}

// wordHasSlot reports whether w holds slot.
func wordHasSlot(w Word, slot string) bool {
	for _, p := range w {
		if p.Slot == slot {
			return true
		}
	}
	return false
}
