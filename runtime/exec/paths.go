package exec

import (
	"strings"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/programs"
)

// Defence 5, the part before the kernel: arguments that name a place outside
// the workspace are refused, unless WithOutsidePathsAllowed. ExecTool cannot
// know which arguments a binary takes as paths, so every argument is looked
// at as if it were one, in the places a path hides in a word:
//
//   - the word itself ("/etc/passwd", "../x", "link-out/x");
//   - the value after the first '=' ("--output=/tmp/x", "if=/dev/sda");
//   - the value of a short option written together with it: exactly, where
//     the flag table knows the binary's options ("tar -xf/tmp/a.tar"), and
//     for every binary each rest after a run of option letters ("-o/tmp/x",
//     "-C../x", date's "-uf/outside/secret", "-uflink/secret" and "-uflink"
//     where link leads out);
//   - after a leading '@' or '<' (curl -d @/etc/passwd), after "file:"
//     (file:///etc/passwd) and after a ':' that a '/' follows
//     (host:/etc/passwd).
//
// A place is outside when it is absolute, when it holds a ".." element at
// all (lexically harmless ".." can still climb through a symlink, so none is
// let through), or, for the word itself, the value after '=' and a known
// option's value, when resolving its symlinks leads out (validate.Path).
// Words that are not paths but look like one (a grep pattern "/api") are
// refused too: the refusal says how to write them.

// pathCandidate is a part of a word that may be a path.
type pathCandidate struct {
	text    string
	resolve bool // follow symlinks (validate.Path), not only look at the text
}

// pathCandidates returns the parts of w that may name a place.
func pathCandidates(w string, attached []string) []pathCandidate {
	var out []pathCandidate
	add := func(s string, resolve bool) {
		if s == "" || s == "-" {
			return
		}
		out = append(out, pathCandidate{s, resolve})
		if s[0] == '@' || s[0] == '<' {
			out = append(out, pathCandidate{s[1:], false})
		}
		if len(s) >= 5 && strings.EqualFold(s[:5], "file:") {
			out = append(out, pathCandidate{s[5:], false})
		}
		if i := strings.Index(s, ":/"); i >= 0 && !strings.HasPrefix(s[i:], "://") {
			out = append(out, pathCandidate{s[i+1:], false})
		}
	}
	switch {
	case w == "--" || w == "-":
	case strings.HasPrefix(w, "-"):
		if _, v, ok := strings.Cut(w, "="); ok {
			add(v, true)
		}
		if !strings.HasPrefix(w, "--") {
			// Short options combine, and a value may be attached after any
			// of the letters (date -uf/outside/secret): every suffix that
			// starts after the run of option letters may be a path.
			for j := 2; j < len(w); j++ {
				rest := w[j:]
				// Resolved even without a '/': "-uflink" where link is a
				// symlink straight to a file outside. A single name longer
				// than NAME_MAX cannot exist, so it is not looked up (a long
				// attached grep pattern is no path).
				add(rest, strings.Contains(rest, "/") || len(rest) <= nameMax)
				if !optionLetter(w[j]) {
					break
				}
			}
		}
	default:
		add(w, true)
		if _, v, ok := strings.Cut(w, "="); ok {
			add(v, true)
		}
	}
	for _, a := range attached {
		add(a, true)
	}
	return out
}

// nameMax is Linux's NAME_MAX, the longest name of one directory entry.
const nameMax = 255

// optionLetter reports whether b can be a short option's letter.
func optionLetter(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// outside returns why candidate p names a place outside the workspace ws,
// or "".
func outside(p pathCandidate, ws string) string {
	if strings.HasPrefix(p.text, "/") {
		return "it is an absolute path; ExecTool runs in the workspace: give a path relative to it (the workspace itself is .)"
	}
	for _, elem := range strings.Split(p.text, "/") {
		if elem == ".." {
			return "it holds '..'; paths must stay inside the workspace: give the path from the workspace without .."
		}
	}
	if p.resolve {
		text := p.text
		if strings.HasPrefix(text, `\`) {
			// validate.Path reads a leading backslash as a Windows root; on
			// Unix it is an ordinary character ("\bfoo" is a grep pattern).
			text = "./" + text
		}
		if _, err := validate.Path(Slot, text, ws); err != nil {
			return err.Msg
		}
	}
	return ""
}

// checkPaths applies the argument check of defence 5 to words[1:]; c, when
// not nil, supplies the option values the flag table found attached to their
// option.
func checkPaths(words []word, c *programs.Command, ws string) ([]int, *refusal) {
	attached := map[int][]string{}
	files := map[int][]string{} // the files the program opens, named in option values (curl --data-urlencode a@FILE)
	if c != nil {
		attached = c.Attached()
		for _, ref := range c.FileRefs() {
			files[ref.Word] = append(files[ref.Word], ref.File)
		}
	}
	var checked []int
	for i := 1; i < len(words); i++ {
		if c != nil && c.Script(i) {
			continue
		}
		w := words[i].text
		cands := pathCandidates(w, attached[i])
		for _, f := range files[i] {
			cands = append(cands, pathCandidate{f, true})
		}
		for _, p := range cands {
			if reason := outside(p, ws); reason != "" {
				if p.text != w {
					return checked, refuse(i, "the path %q in argument %q is refused: %s", p.text, w, reason)
				}
				return checked, refuse(i, "argument %q is refused: %s", w, reason)
			}
		}
		if len(cands) > 0 {
			checked = append(checked, i)
		}
	}
	return checked, nil
}
