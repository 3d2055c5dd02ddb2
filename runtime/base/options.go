package base

import "github.com/nanogpt/toolgen/internal/validate"

// DenyList is a set of binaries no command tool may run. It is the public
// face of the validator's deny list (one implementation, in toolgen's
// internal validate package): a binary is matched on its normalised name
// (the last path element, lower-cased, a Windows executable suffix and
// trailing dots removed), so "/bin/rm", "RM" and `C:\bin\Rm.EXE` are all
// "rm". A plain entry ("perl") matches the name and the name followed by a
// version suffix of digits, '.', '-' and '_' ("perl5.36"), but not
// "perldoc"; an entry ending in '*' ("python*") matches every name with
// that prefix.
//
// The zero value denies nothing; start from DefaultDenyList. A DenyList is
// immutable: With and Without return copies, so one may be shared freely.
type DenyList validate.DenyList

// DefaultDenyList returns the deny list every entry point uses unless told
// otherwise: destructive and privileged commands (rm, dd, sudo, chmod, kill,
// …), every shell, exec-wrappers that run their arguments as a command (env,
// xargs, timeout, nice, …), the dynamic loader, and interpreters that run
// code from their arguments (python*, perl, node, awk, …).
func DefaultDenyList() DenyList { return DenyList(validate.DefaultDenyList()) }

// NewDenyList returns a deny list of exactly entries (normalised like binary
// names, a trailing '*' kept).
func NewDenyList(entries ...string) DenyList { return DenyList(validate.NewDenyList(entries...)) }

// With returns a copy of d that also denies entries.
func (d DenyList) With(entries ...string) DenyList {
	return DenyList(validate.DenyList(d).With(entries...))
}

// Without returns a copy of d that no longer denies entries, each written as
// in the list ("python*" removes "python*"; "python3" removes nothing). It is
// the explicit way to let a tool run a binary the default denies.
func (d DenyList) Without(entries ...string) DenyList {
	return DenyList(validate.DenyList(d).Without(entries...))
}

// Entries returns the entries, sorted.
func (d DenyList) Entries() []string { return validate.DenyList(d).Entries() }

// Match reports whether binary (a bare name or a path) is denied, and by
// which entry.
func (d DenyList) Match(binary string) (entry string, denied bool) {
	return validate.DenyList(d).Match(binary)
}

// Option configures New, NewTyped and NewGenerated (and the constructors of
// built-in and generated tools, which pass their options on). A nil Option
// is ignored.
type Option func(*config)

// config is what the options set.
type config struct {
	deny    DenyList
	hasDeny bool
}

// WithDenyList validates the tool's binary against d instead of
// DefaultDenyList. Pass DefaultDenyList().With(…) to extend the default or
// .Without(…) to narrow it.
func WithDenyList(d DenyList) Option {
	return func(c *config) { c.deny, c.hasDeny = d, true }
}

// validateOptions turns opts into the validator's options.
func validateOptions(opts []Option) []validate.Option {
	var c config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if !c.hasDeny {
		return nil
	}
	return []validate.Option{validate.WithDenyList(validate.DenyList(c.deny))}
}
