package tool

import "time"

// ArgType is the type of a slot. It is the whole type system: there are no
// nested or conditional types.
type ArgType string

// The slot types a Spec may declare.
const (
	// String is any single word that passes the slot-value rules.
	String ArgType = "string"
	// Integer is a non-negative decimal integer (^[0-9]+$).
	Integer ArgType = "integer"
	// Number is a non-negative decimal number (^[0-9]+(\.[0-9]+)?$).
	Number ArgType = "number"
	// Path is a string that must resolve inside the workspace.
	Path ArgType = "path"
	// Text is a String that may also hold U+0020 spaces (and no other
	// white space). It may not stand where the program runs or splits the
	// word (a code position: package validate refuses it there).
	Text ArgType = "text"
	// Boolean is a JSON true or false. Its slot is a whole template word
	// that becomes the Arg's Flag when true and is dropped when false or
	// absent.
	Boolean ArgType = "boolean"
)

// ArgTypes lists the slot types in the order messages and documents give
// them.
func ArgTypes() []ArgType { return []ArgType{String, Text, Integer, Number, Path, Boolean} }

// Valid reports whether t is one of the slot types.
func (t ArgType) Valid() bool {
	switch t {
	case String, Text, Integer, Number, Path, Boolean:
		return true
	}
	return false
}

// Numeric reports whether t's values are JSON numbers (Integer, Number).
func (t ArgType) Numeric() bool { return t == Integer || t == Number }

// Spec is a command tool's descriptor: what a *.tool.json file decodes into,
// what a code-form tool declares as a Go literal and what toolgen emits.
// A Spec is plain data; package validate decides whether it is acceptable.
type Spec struct {
	// Name is the tool's name as the model sees it (^[a-z][a-z0-9_]*$).
	Name string
	// Description tells the model what the tool does. Required.
	Description string
	// Command is the template: whitespace-separated words, {slot} placeholders
	// standing for whole words or parts of words. Its first word is the binary.
	Command string
	// Args are the slots in declared order; the order is that of the JSON
	// Schema's properties and of a generated args struct's fields.
	Args []Arg
	// Writes declares that the command writes inside the workspace. The zero
	// value means it only reads; confinement (where available) enforces it.
	Writes bool
	// RunsCode declares that the command runs the repository's own code:
	// build files, tests, scripts, what it compiles (the descriptor's
	// "runs_code": true). Only then may its program be a build or test
	// runner of the deny list's build-tools group (go, make, cargo, npm,
	// node --test, python3 -m pytest …, each with a toolchain profile in
	// package programs); the call then keeps every confinement but the
	// execute set and the noexec workspace, and gets a build cache of its
	// workspace's own and a scratch directory. The zero value means it runs
	// no code of the repository.
	RunsCode bool
	// Network declares that the command needs network access to every host
	// (the descriptor's "network": true). The zero value means none;
	// confinement (where available) enforces it. Prefer Hosts.
	Network bool
	// Hosts, when not empty, is the only network the command gets: the
	// host:port entries it may reach ("network": {"hosts": [...]}), through
	// an egress proxy that resolves names itself (package egress: entries
	// are api.github.com:443, *.example.org:443, 10.0.0.5:443, [::1]:80,
	// localhost:8080). It excludes Network (613 when both are set). The
	// zero value means none.
	Hosts []string
	// Title is a short human-readable name for the tool, for user interfaces
	// (MCP's tool title); "" for none. It never reaches the command.
	Title string
	// Destructive says whether a tool that writes may delete or overwrite
	// what is already there (true) or only adds (false). Nil means not
	// declared: a tool that writes is then taken to be destructive (MCP's
	// default). It may be set only together with Writes. It is a hint for
	// clients (MCP's destructiveHint); confinement does not enforce it.
	Destructive *bool
	// OutputLimit is how many bytes of the command's output the model sees
	// at most (head and tail kept, the middle dropped), between 1 and
	// MaxOutputLimit. The zero value means the kernel's limit: the run's
	// --output-limit, or kernel.DefaultOutputLimit (2,048).
	OutputLimit int
	// Timeout is how long one call of the command may run before its
	// process group is killed, between 1ns and MaxTimeout. The zero value
	// means the run's timeout (--timeout, or kernel.DefaultTimeout, 30s).
	// Whatever it says, a call runs at most the run's maximum
	// (--max-timeout, kernel.DefaultMaxTimeout: 10m): a longer Timeout is
	// capped there (see kernel.(*Kernel).WithTimeoutOf).
	Timeout time.Duration
	// Stderr says what becomes of the command's standard error: merged
	// with standard output in the order written (StderrMerged, or the zero
	// value), or kept apart (StderrSeparate), so that a program's stdout
	// (go test -json, a JSON report) reaches the model unmixed.
	Stderr StderrMode
	// Examples are calls with their expected outcome, checked by toolgen check
	// and compiled into tests by toolgen generate. Optional.
	Examples []Example
}

// Arg is one slot of a Spec.
type Arg struct {
	// Name is the slot's name, as used in {name} in the template.
	Name string
	// Type is one of String, Text, Integer, Number, Path or Boolean.
	Type ArgType
	// Description tells the model what to put in the slot.
	Description string
	// Required means the model must supply a value.
	Required bool
	// Default is the value used when the model supplies none; it is only
	// meaningful when HasDefault is true. Numbers are kept in their decimal
	// text form.
	Default string
	// HasDefault reports whether Default is set.
	HasDefault bool
	// Enum, when not empty, lists the only values accepted.
	Enum []string
	// Pattern, when not empty, is an RE2 expression the whole value must match.
	Pattern string
	// Flag is what a Boolean slot's word becomes when the value is true: one
	// option literal such as "-i" or "--ignore-case", checked like template
	// text. Only a Boolean slot has one (and must). Boolean defaults are
	// kept as "true" or "false".
	Flag string
}

// MaxOutputLimit bounds a Spec's OutputLimit: 1 MiB, about 250,000 tokens,
// which is already more than most models' whole context; the kernel keeps
// at most this much of a call's output in memory.
const MaxOutputLimit = 1 << 20

// MaxTimeout bounds a Spec's Timeout: one day. A run's own maximum
// (--max-timeout, 10 minutes by default) usually caps it lower.
const MaxTimeout = 24 * time.Hour

// StderrMode says what becomes of a command's standard error.
type StderrMode string

// The values of a Spec's Stderr (a descriptor's "stderr").
const (
	// StderrMerged interleaves stderr with stdout in the order they were
	// written, in one output bounded by the output limit: the default.
	StderrMerged StderrMode = "merged"
	// StderrSeparate keeps stdout and stderr apart: each is bounded by the
	// output limit on its own, and the model's text shows them under
	// "stdout:" and "stderr:".
	StderrSeparate StderrMode = "separate"
)

// Separate reports whether m keeps stderr apart from stdout.
func (m StderrMode) Separate() bool { return m == StderrSeparate }

// Valid reports whether m is "" (the default), StderrMerged or
// StderrSeparate.
func (m StderrMode) Valid() bool { return m == "" || m == StderrMerged || m == StderrSeparate }

// Example is one documented call of a tool: Args in, and either the exact
// argv the call assembles or a substring of the 614 message that rejects it.
type Example struct {
	// Args is the model's JSON arguments, as raw JSON text.
	Args string
	// Argv is the expected argv when the call is accepted.
	Argv []string
	// Rejects, when not empty, means the call must fail with 614 and a message
	// containing this text.
	Rejects string
}

// Arg returns the slot named name and whether it exists.
func (s *Spec) Arg(name string) (Arg, bool) {
	for _, a := range s.Args {
		if a.Name == name {
			return a, true
		}
	}
	return Arg{}, false
}
