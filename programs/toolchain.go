package programs

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// A tool that runs the repository's own code declares it ("runs_code":
// true, tool.Spec.RunsCode). Only such a tool may run a build or test
// runner of the deny list's build-tools group, and only one a Toolchain
// profile covers: the profile lifts those deny-list entries for its
// programs, says which templates of them it accepts (Form), and what a
// call needs to work — the directories it reads (installation, module and
// package caches), the build caches it writes, its forced environment (no
// toolchain download, no package fetch unless the tool names hosts) and
// its memory cap. One file per toolchain: toolchain_go.go,
// toolchain_node.go, toolchain_python.go, toolchain_rust.go,
// toolchain_c.go, each with testdata/toolchain_NAME.txtar.

// Toolchain is a profile of one toolchain for tools that run the
// repository's code. The zero value of a field means "nothing": no form
// rule, no extra read, no cache, nothing forced.
type Toolchain struct {
	// Name names the toolchain in messages and in explain ("go").
	Name string
	// Programs are the template binaries the profile covers, matched like
	// deny-list entries ("go", "gofmt"; "python*" covers python3.11).
	Programs []string
	// Lifts are the deny-list entries a runs_code tool running one of
	// Programs passes: its own names, and those the file it resolves to is
	// judged by (npm is a script run by node; cargo is rustup's proxy).
	Lifts []string
	// Form says why a template of the toolchain is refused, "" when it is
	// accepted: prog is the template's program (as BinaryName gives it),
	// words its words after the binary.
	Form func(prog string, words []TemplateWord) string
	// Install returns the directories where the toolchain's programs are
	// installed outside the kernel's PATH (/usr/local/go/bin,
	// ~/.cargo/bin), given the host's environment lookup: a runs_code tool
	// finds its program there after PATH, and its call's PATH starts with
	// the directory its program was found in. Only directories outside
	// every workspace are ever used (the kernel checks).
	Install func(env func(string) string) []string
	// Reads returns the directories the toolchain reads besides the system
	// and build bundles (its installation, its module and package caches),
	// for the program at path (absolute, resolved); env is the host's
	// environment lookup (GOMODCACHE, CARGO_HOME …).
	Reads func(path string, env func(string) string) []string
	// Caches are the directories below the workspace's build cache the
	// toolchain writes ("go-build"), made before a call.
	Caches []string
	// Env returns the entries forced on the call's environment.
	Env func(b Build) []string
	// Memory is the cap of each process's data (RLIMIT_DATA: what it
	// allocates, not what it reserves) in bytes; 0 for DefaultBuildMemory.
	Memory int64
}

// DefaultBuildMemory is the data cap (RLIMIT_DATA) of each process of a
// call that runs code, unless its profile sets another: 4 GiB, enough for
// the Go compiler, rustc or a C++ translation unit of a large package.
// The address space (RLIMIT_AS) is not capped for such calls: a compiler
// reserves far more than it touches.
const DefaultBuildMemory int64 = 4 << 30

// Build is one call of a runs_code tool, as a profile's Env sees it.
type Build struct {
	Path      string   // the program, absolute, resolved
	Args      []string // argv[1:]
	Workspace string   // the workspace, absolute, symlinks resolved
	Cache     string   // the workspace's build cache: one directory per workspace, the user's, outside every workspace
	Scratch   string   // the call's scratch directory (TMPDIR), removed after the call
	Online    bool     // the tool names hosts: package fetches may go through the egress proxy
	// Env looks a variable up in the host's environment ("" when unset):
	// where the user keeps a toolchain's module cache.
	Env func(string) string
}

// TemplateWord is one word of a template after its binary, as a Form sees
// it.
type TemplateWord struct {
	// Text is the word with each slot written {name}.
	Text string
	// Slots are the slots standing in the word, in order.
	Slots []TemplateSlot
}

// TemplateSlot is one slot of a template word.
type TemplateSlot struct {
	Name string
	// Path reports a path slot: its value resolves inside the workspace.
	Path bool
	// Flag is a boolean slot's option ("" for other slots): the word is
	// that option or nothing.
	Flag string
	// Enum are the only values of the slot (nil: not an enum).
	Enum []string
	// Admits reports whether a value of the slot may hold r (its enum,
	// pattern and type decide).
	Admits func(r rune) bool
}

// Fixed reports whether w holds no slot.
func (w TemplateWord) Fixed() bool { return len(w.Slots) == 0 }

// toolchains holds every profile, registered by the toolchain_*.go files.
var toolchains []*Toolchain

// registerToolchain adds t; a file's package-level var calls it.
func registerToolchain(t *Toolchain) *Toolchain {
	toolchains = append(toolchains, t)
	return t
}

// toolchainMatch holds each profile's Programs as a matcher, built once.
var toolchainMatch = sync.OnceValue(func() []DenyList {
	out := make([]DenyList, len(toolchains))
	for i, t := range toolchains {
		out[i] = NewDenyList(t.Programs...)
	}
	return out
})

// Toolchains returns every profile, in a fixed order (by name). They are
// shared: callers must not change them.
func Toolchains() []*Toolchain {
	out := slices.Clone(toolchains)
	slices.SortFunc(out, func(a, b *Toolchain) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// ToolchainOf returns the profile covering binary (a bare name or a path,
// matched like a deny-list entry), or nil when no profile does.
func ToolchainOf(binary string) *Toolchain {
	m := toolchainMatch()
	for i, t := range toolchains {
		if _, ok := m[i].Match(binary); ok {
			return t
		}
	}
	return nil
}

// RunsCodeDenyList returns d without the entries t lifts: the list a
// runs_code tool of t is checked against.
func (t *Toolchain) RunsCodeDenyList(d DenyList) DenyList { return d.Without(t.Lifts...) }

// LiftsEntry reports whether t lifts the deny-list entry e for a runs_code
// tool.
func (t *Toolchain) LiftsEntry(e string) bool { return slices.Contains(t.Lifts, normEntry(e)) }

// ToolchainNames lists the programs the profiles cover, for messages
// ("go, gofmt, make, …").
func ToolchainNames() string {
	var names []string
	for _, t := range Toolchains() {
		names = append(names, t.Programs...)
	}
	return strings.Join(names, ", ")
}

// MemoryCap returns t's data cap (Memory, or DefaultBuildMemory).
func (t *Toolchain) MemoryCap() int64 {
	if t.Memory > 0 {
		return t.Memory
	}
	return DefaultBuildMemory
}

// slotIn returns the first slot of w that admits r, or false.
func slotIn(w TemplateWord, r rune) (TemplateSlot, bool) {
	for _, s := range w.Slots {
		if s.Admits != nil && s.Admits(r) {
			return s, true
		}
	}
	return TemplateSlot{}, false
}

// withSlots returns the word with each slot replaced as fill says: the
// text a program would receive for one reading of the template.
func withSlots(w TemplateWord, fill func(TemplateSlot) string) string {
	text := w.Text
	for _, s := range w.Slots {
		text = strings.Replace(text, "{"+s.Name+"}", fill(s), 1)
	}
	return text
}

// execRowsForm is the Form of a toolchain whose program the ExecTool
// reads (go, make): the program's ExecTool refusals (Rows, then Check)
// apply to the template's words, read once with every slot a neutral
// word and once per value of each enum slot, so that no option the
// ExecTool refuses (go -toolexec, make --eval) is written in the template
// or reachable through an enum. name is the program.
func execRowsForm(name string, words []TemplateWord) string {
	p := Lookup(name)
	if p == nil {
		return ""
	}
	read := func(fill func(TemplateSlot) string) string {
		line := []string{name}
		for _, w := range words {
			line = append(line, withSlots(w, fill))
		}
		if c := p.ReadCommand(line, name, name, "", nil); c != nil {
			if r := c.Refusal(); r != nil {
				return r.Reason
			}
		}
		return ""
	}
	neutral := func(s TemplateSlot) string {
		if s.Flag != "" {
			return s.Flag
		}
		return "x"
	}
	if why := read(neutral); why != "" {
		return why
	}
	for _, w := range words {
		for _, s := range w.Slots {
			for _, v := range s.Enum {
				fill := func(o TemplateSlot) string {
					if o.Name == s.Name {
						return v
					}
					return neutral(o)
				}
				if why := read(fill); why != "" {
					return fmt.Sprintf("with {%s}=%q: %s", s.Name, v, why)
				}
			}
		}
	}
	return ""
}

// pathOptions is a Form rule: a slot in the value of one of opts
// (attached, "--file={x}" or "-f{x}", or the next word) must be a path
// slot, whose value stays inside the workspace, or an enum: the option
// names a file or directory the program reads as code or configuration
// (make -f, go -modfile).
func pathOptions(words []TemplateWord, opts ...string) string {
	for i := range words {
		for _, o := range opts {
			for _, s := range optionSlots(words, i, o) {
				if !s.Path && s.Enum == nil {
					return fmt.Sprintf("slot {%s} is the value of %s, a file the program reads as code or configuration: "+
						"make it a path slot (its value then stays inside the workspace) or give it an enum", s.Name, o)
				}
			}
		}
	}
	return ""
}

// codeOptions is a Form rule: no slot may be the value of one of opts,
// which name a program, a shell or code the program runs, unless it is an
// enum.
func codeOptions(words []TemplateWord, opts ...string) string {
	for i := range words {
		for _, o := range opts {
			for _, s := range optionSlots(words, i, o) {
				if s.Enum == nil {
					return fmt.Sprintf("slot {%s} is the value of %s, which names a program or code the program runs: "+
						"write the value in the template or give the slot an enum", s.Name, o)
				}
			}
		}
	}
	return ""
}

// optionSlots returns the slots that are the value of option o when word
// i is o: attached ("--file={x}", "-f{x}") or the next word ("-f {x}").
func optionSlots(words []TemplateWord, i int, o string) []TemplateSlot {
	w := words[i].Text
	switch {
	case w == o && i+1 < len(words):
		return words[i+1].Slots
	case strings.HasPrefix(w, o+"="):
		return words[i].Slots
	case len(o) == 2 && o[0] == '-' && o[1] != '-' && len(w) > 2 && strings.HasPrefix(w, o):
		return words[i].Slots
	}
	return nil
}

// subcommand returns the first word that holds no option (the
// subcommand of go, npm, cargo) and its index; -1 when there is none.
func subcommand(words []TemplateWord) (string, int) {
	for i, w := range words {
		if !strings.HasPrefix(w.Text, "-") {
			return w.Text, i
		}
	}
	return "", -1
}

// allowedSub is a Form rule for a program with subcommands: the
// subcommand must be written out (no slot) and be one of allowed.
func allowedSub(prog string, words []TemplateWord, allowed []string) string {
	sub, i := subcommand(words)
	switch {
	case i < 0:
		return fmt.Sprintf("%s: the template names no subcommand: write one of %s", prog, strings.Join(allowed, ", "))
	case !words[i].Fixed():
		return fmt.Sprintf("%s: the subcommand %q holds a slot: write it out, one of %s", prog, sub, strings.Join(allowed, ", "))
	case !slices.Contains(allowed, sub):
		return fmt.Sprintf("%s: subcommand %q is not one a runs_code tool may run (it installs, publishes, changes configuration "+
			"outside the workspace or runs what its arguments name): use one of %s", prog, sub, strings.Join(allowed, ", "))
	}
	return ""
}

// noSlotAdmits is a Form rule: no slot of the words from index from on
// may hold r, said why.
func noSlotAdmits(words []TemplateWord, from int, r rune, why string) string {
	for _, w := range words[max(from, 0):] {
		if s, ok := slotIn(w, r); ok {
			return fmt.Sprintf("slot {%s} may hold %q: %s; give it an enum or a pattern that excludes %q", s.Name, r, why, r)
		}
	}
	return ""
}

// firstOf returns the first non-empty string of rules, "" when all are.
func firstOf(rules ...string) string {
	for _, r := range rules {
		if r != "" {
			return r
		}
	}
	return ""
}
