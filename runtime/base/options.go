package base

import (
	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/programs"
)

// Option configures New, NewTyped and NewGenerated (and the constructors of
// built-in and generated tools, which pass their options on). A nil Option
// is ignored.
type Option func(*config)

// config is what the options set.
type config struct {
	deny    programs.DenyList
	hasDeny bool
}

// WithDenyList validates the tool's binary against d instead of
// programs.DefaultDenyList(). Pass programs.DefaultDenyList().With(…) to
// extend the default or .Without(…) to narrow it.
func WithDenyList(d programs.DenyList) Option {
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
	return []validate.Option{validate.WithDenyList(c.deny)}
}
