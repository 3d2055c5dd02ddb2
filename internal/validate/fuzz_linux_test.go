package validate

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// kernelOpens opens path as a command will (the raw string, never cleaned)
// and returns where it landed, as the kernel says; opened is false when
// nothing is there. err is set when /proc cannot tell.
func kernelOpens(path string) (landed string, opened bool, err error) {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", false, nil
	}
	defer unix.Close(fd)
	landed, err = os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
	if err != nil {
		return "", false, err
	}
	return landed, true, nil
}
