package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"list", "list", 0},
		{"lsit", "list", 1}, // a transposition is one edit
		{"tool", "tools", 1},
		{"workspce", "workspace", 1},
		{"fromat", "format", 1},
		{"serv", "serve", 1},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
	} {
		assert.Equal(t, tc.want, Distance(tc.a, tc.b), "%q %q", tc.a, tc.b)
		assert.Equal(t, tc.want, Distance(tc.b, tc.a), "%q %q", tc.b, tc.a)
	}
}
