package sandbox

import (
	"fmt"
	"strconv"
)

// Mode says what happens when the kernel cannot enforce a command's policy
// in full.
type Mode int

const (
	// BestEffort runs the command anyway: confined as far as the kernel's
	// Landlock allows, or not at all, with a warning as the last line of the
	// result the model sees. It is the zero value and the default.
	BestEffort Mode = iota
	// Strict refuses to run the command (exit 126, with the reason as the
	// output) unless the policy is enforced in full.
	Strict
	// Off runs every command unconfined, silently.
	Off
)

// DefaultMode is the mode toolgen uses when none is chosen: BestEffort, so
// that setups without Landlock keep working, and say so in every result.
const DefaultMode = BestEffort

// ParseMode parses "best-effort", "strict" or "off".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "best-effort":
		return BestEffort, nil
	case "strict":
		return Strict, nil
	case "off":
		return Off, nil
	}
	return 0, fmt.Errorf("sandbox: unknown confinement mode %q (want strict, best-effort or off)", s)
}

// String returns the mode's name as ParseMode reads it.
func (m Mode) String() string {
	switch m {
	case BestEffort:
		return "best-effort"
	case Strict:
		return "strict"
	case Off:
		return "off"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// Set parses s into m, so that a *Mode is a flag.Value.
func (m *Mode) Set(s string) error {
	v, err := ParseMode(s)
	if err != nil {
		return err
	}
	*m = v
	return nil
}
