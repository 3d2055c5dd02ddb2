package loader

import "testing"

// TestTrustedOwner: a file is trusted when the user running the loader owns
// it, or root does; any other owner is refused, root's running user
// included (root trusts only root's files).
func TestTrustedOwner(t *testing.T) {
	for _, c := range []struct {
		owner, euid int
		want        bool
	}{
		{0, 0, true},
		{0, 1000, true},
		{1000, 1000, true},
		{1001, 1000, false},
		{1000, 0, false},
		{65534, 1000, false}, // nobody
		{1000, 65534, false},
	} {
		if got := trustedOwner(c.owner, c.euid); got != c.want {
			t.Errorf("trustedOwner(owner %d, euid %d) = %v, want %v", c.owner, c.euid, got, c.want)
		}
	}
}
