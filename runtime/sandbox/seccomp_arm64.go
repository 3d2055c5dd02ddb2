//go:build linux && arm64

package sandbox

import "golang.org/x/sys/unix"

// nativeSeccompArch is arm64's numbering.
func nativeSeccompArch() seccompArch {
	return seccompArch{audit: unix.AUDIT_ARCH_AARCH64}
}
