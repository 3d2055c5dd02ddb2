package explain

import "testing"

// TestLimitsTextOffLinux: off Linux the kernel sets no resource limit, and
// explain's limits line says so instead of listing caps that do not hold.
func TestLimitsTextOffLinux(t *testing.T) {
	caps := "memory 1 GiB (address space per process), cpu 30s per process, 256 processes"
	for _, goos := range []string{"darwin", "windows", "freebsd"} {
		got := limitsText(goos, caps)
		if got != caps+", none of them enforced: the kernel sets resource limits on Linux only, this is "+goos {
			t.Errorf("%s: %q", goos, got)
		}
	}
	if got := limitsText("linux", caps); got != caps {
		t.Errorf("linux: %q", got)
	}
}
