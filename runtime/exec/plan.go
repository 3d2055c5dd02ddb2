package exec

import (
	"fmt"
	"strconv"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Defence numbers one of the five defences the way DESIGN.md §5 and
// explain number them: 1 allowlist, 2 deny list, 3 operators, 4 flags,
// 5 workspace. Plan reads the line first (defence 3 must parse it to find
// the binary), then applies 1, 2, 4 and 5.
type Defence int

// The five defences.
const (
	// DefenceAllowlist (1): the binary is granted and resolves through PATH.
	DefenceAllowlist Defence = 1 + iota
	// DefenceDenyList (2): the binary is not on the deny list.
	DefenceDenyList
	// DefenceOperators (3): one simple command of literal words: no
	// operators, expansions or redirections.
	DefenceOperators
	// DefenceFlags (4): no argument turns the binary into "run anything" or
	// "write anywhere".
	DefenceFlags
	// DefenceWorkspace (5): no argument names a place outside the
	// workspace; the kernel runs the argv (cwd lock, timeout, output limit,
	// scrubbed environment, process-group kill).
	DefenceWorkspace
)

// String returns the defence's short name, as 614 messages show it.
func (d Defence) String() string {
	switch d {
	case DefenceAllowlist:
		return "allowlist"
	case DefenceDenyList:
		return "deny list"
	case DefenceOperators:
		return "operators"
	case DefenceFlags:
		return "flags"
	case DefenceWorkspace:
		return "workspace"
	}
	return fmt.Sprintf("defence(%d)", int(d))
}

// Verdict is one decision of one defence.
type Verdict struct {
	// Defence is the defence that decided.
	Defence Defence
	// Word is the index of the word the verdict is about (0 is the binary),
	// or -1 when it is about the whole line.
	Word int
	// Arg is that word as the program receives it; "" when Word is -1.
	Arg string
	// OK is false for the refusal that ended the plan.
	OK bool
	// Reason says what the defence found.
	Reason string
}

// String renders the verdict on one line.
func (v Verdict) String() string {
	verdict := "ok"
	if !v.OK {
		verdict = "refused"
	}
	if v.Word < 0 {
		return fmt.Sprintf("defence %d (%s): %s: %s", int(v.Defence), v.Defence, verdict, v.Reason)
	}
	return fmt.Sprintf("defence %d (%s): word %d %q: %s: %s", int(v.Defence), v.Defence, v.Word, v.Arg, verdict, v.Reason)
}

// planner collects the verdicts of one Plan.
type planner struct {
	t        *Tool
	words    []word
	verdicts []Verdict
}

func (p *planner) arg(i int) string {
	if i < 0 || i >= len(p.words) {
		return ""
	}
	return p.words[i].text
}

func (p *planner) ok(d Defence, w int, reason string) {
	p.verdicts = append(p.verdicts, Verdict{Defence: d, Word: w, Arg: p.arg(w), OK: true, Reason: reason})
}

// fail records r as defence d's refusal and returns the 614.
func (p *planner) fail(d Defence, r *refusal) error {
	p.verdicts = append(p.verdicts, Verdict{Defence: d, Word: r.word, Arg: p.arg(r.word), Reason: r.reason})
	return tool.ValueErrorf(Slot, "defence %d (%s): %s", int(d), d, r.reason)
}

// Plan applies the five defences to command without running anything. It
// returns the argv Call would run (argv[0] resolved to an absolute path) and
// the verdict of every defence, word by word where a defence looks at words.
// A refusal is a 614 *tool.Error whose message names the defence, e.g.
//
//	error 614: slot "command": defence 3 (operators): redirections (>, >>, <, 2>&1, <<, <<<) are not allowed: …
//
// and the last verdict is that refusal. The kernel part of defence 5 (cwd
// lock, timeout, output limit) is applied when Call runs the argv.
func (t *Tool) Plan(command string) (argv []string, verdicts []Verdict, err error) {
	p := &planner{t: t}
	argv, err = p.plan(command)
	return argv, p.verdicts, err
}

func (p *planner) plan(command string) ([]string, error) {
	t := p.t
	words, r := parseLine(command)
	if r != nil {
		return nil, p.fail(DefenceOperators, r)
	}
	p.words = words
	p.verdicts = make([]Verdict, 0, 4*len(words)+4)
	for i, w := range words {
		if w.plain {
			p.ok(DefenceOperators, i, "literal word (plain)")
		} else {
			p.ok(DefenceOperators, i, "literal word (quoted as "+w.src+")")
		}
	}
	bin, r := t.allowlist(words[0])
	if r != nil {
		return nil, p.fail(DefenceAllowlist, r)
	}
	p.ok(DefenceAllowlist, 0, "granted; runs "+bin.path)
	if r := t.denyList(bin); r != nil {
		return nil, p.fail(DefenceDenyList, r)
	}
	p.ok(DefenceDenyList, 0, "not on the deny list")
	c, r := p.flags(bin)
	if r != nil {
		return nil, p.fail(DefenceFlags, r)
	}
	if !t.outsidePaths {
		checked, r := checkPaths(words, c, t.kernel.Workspace())
		for _, i := range checked {
			p.ok(DefenceWorkspace, i, "names no place outside the workspace")
		}
		if r != nil {
			return nil, p.fail(DefenceWorkspace, r)
		}
	}
	p.ok(DefenceWorkspace, -1, "runs in the workspace with a "+t.kernel.Timeout().String()+" timeout, at most "+
		strconv.Itoa(t.kernel.OutputLimit())+" bytes of output, a scrubbed environment and its own process group")
	argv := make([]string, len(words))
	argv[0] = bin.path
	for i := 1; i < len(words); i++ {
		argv[i] = words[i].text
	}
	return argv, nil
}

// flags applies defence 4: a lookup in package programs of the binary's
// name and of the name of the file it resolves to; each program found
// reads the line with its grammar and refuses what its rows and its check
// refuse.
func (p *planner) flags(bin binary) (*programs.Command, *refusal) {
	var last *programs.Command
	names := []string{bin.name}
	if bin.target != "" {
		names = append(names, bin.target)
	}
	texts := make([]string, len(p.words))
	for i, w := range p.words {
		texts[i] = w.text
	}
	ws := p.t.kernel.Workspace()
	outside := func(v string) string {
		if _, err := validate.Path(Slot, v, ws); err != nil {
			return err.Msg
		}
		return ""
	}
	seen := map[*programs.Program]bool{}
	for _, name := range names {
		prog := programs.Lookup(name)
		if prog == nil || seen[prog] || !prog.ExecRefuses() {
			continue
		}
		seen[prog] = true
		c := prog.ReadCommand(texts, name, bin.path, ws, outside)
		if r := c.Refusal(); r != nil {
			return nil, &refusal{word: r.Word, reason: r.Reason}
		}
		p.tokenVerdicts(c)
		last = c
	}
	if last == nil {
		p.ok(DefenceFlags, 0, bin.name+" has no entry in the flag table; its options are passed as they are")
	}
	return last, nil
}

// tokenVerdicts records how defence 4 read each word.
func (p *planner) tokenVerdicts(c *programs.Command) {
	p.ok(DefenceFlags, 0, "read with the flag table's entry for "+c.Entry())
	for _, r := range c.Readings() {
		p.ok(DefenceFlags, r.Word, r.What+": not refused")
	}
}
