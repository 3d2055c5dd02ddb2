package programs

import "testing"

// TestLongOptionRule pins the one abbreviation rule both readers follow:
// an exact name wins, a unique prefix resolves, an ambiguous or unknown
// one does not, and an unresolved prefix may stand for every option it
// begins.
func TestLongOptionRule(t *testing.T) {
	known := []string{"checkpoint", "checkpoint-action", "color", "colour", "count", "use-compress-program"}
	for _, tc := range []struct {
		written, name string
		abbrev, ok    bool
	}{
		{"checkpoint", "checkpoint", true, true},  // exact beats the longer name it begins
		{"checkpoint", "checkpoint", false, true}, // exact needs no abbreviations
		{"checkpoint-a", "checkpoint-action", true, true},
		{"checkpoint-a", "checkpoint-a", false, false},
		{"use", "use-compress-program", true, true},
		{"co", "co", true, false},   // color, colour, count: ambiguous
		{"col", "col", true, false}, // color, colour
		{"cou", "count", true, true},
		{"nosuch", "nosuch", true, false},
		{"", "", true, false},
	} {
		name, ok := ResolveLong(tc.written, known, tc.abbrev)
		if name != tc.name || ok != tc.ok {
			t.Errorf("ResolveLong(%q, abbrev %v) = %q, %v; want %q, %v", tc.written, tc.abbrev, name, ok, tc.name, tc.ok)
		}
	}
	for _, tc := range []struct {
		written, name string
		abbrev, may   bool
	}{
		{"checkpoint", "checkpoint-action", true, false}, // exactly another option
		{"checkp", "checkpoint-action", true, true},      // ambiguous: may be it
		{"checkpoint-", "checkpoint-action", true, true},
		{"checkpoint-", "checkpoint-action", false, false},
		{"cou", "color", true, false}, // resolves to count
		{"co", "color", true, true},
		{"use-compress-program", "use-compress-program", false, true},
		{"use-compress-programs", "use-compress-program", true, false},
		{"", "color", true, false},
	} {
		if got := MayStandFor(tc.written, tc.name, known, tc.abbrev); got != tc.may {
			t.Errorf("MayStandFor(%q, %q, abbrev %v) = %v, want %v", tc.written, tc.name, tc.abbrev, got, tc.may)
		}
	}
}
