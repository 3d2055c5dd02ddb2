//go:build linux

package kernel

import "testing"

// TestRunUTF8Locale checks that a command's characters are UTF-8 (one
// "é" is one character, a letter) and its number format the C locale's.
func TestRunUTF8Locale(t *testing.T) {
	k := newKernel(t)
	writeFile(t, k.Workspace(), "u.txt", "é\n", 0o644)
	assertText(t, mustRun(t, k, "wc", "-m", "u.txt"), "exit: 0\noutput: 2 u.txt\n")
	assertText(t, mustRun(t, k, "grep", "-c", "^[[:alpha:]]$", "u.txt"), "exit: 0\noutput: 1\n")
	assertText(t, mustRun(t, k, "printf", "%.1f\n", "1.5"), "exit: 0\noutput: 1.5\n")
}
