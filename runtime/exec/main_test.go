package exec

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestMain lets this test binary serve as a program that runs long and
// prints as it goes, chosen by argv[1] (the kernel scrubs the environment,
// so argv is the only channel):
//
//	helper-ticker N   print "tick I" N times, 200ms apart
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "helper-ticker" {
		n, _ := strconv.Atoi(os.Args[2])
		for i := 1; i <= n; i++ {
			fmt.Printf("tick %d\n", i)
			if i < n {
				time.Sleep(200 * time.Millisecond)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
