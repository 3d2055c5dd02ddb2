//go:build linux && amd64

package sandbox

import "golang.org/x/sys/unix"

// nativeSeccompArch is amd64's numbering; x32 calls share its
// architecture value and are told by bit 30 of the number.
func nativeSeccompArch() seccompArch {
	return seccompArch{audit: unix.AUDIT_ARCH_X86_64, x32: true}
}
