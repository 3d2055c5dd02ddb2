package programs

import "strings"

// archNames are the architecture parts of Debian multiarch triplets and GNU
// target names (x86_64-linux-gnu, aarch64-linux-gnu, i686-pc-linux-gnu …),
// which Debian appends to or puts before a program's name
// (perl5.36-x86_64-linux-gnu, x86_64-linux-gnu-python3.11-config).
var archNames = map[string]bool{
	"x86_64": true, "amd64": true, "x32": true, "i386": true, "i486": true, "i586": true, "i686": true,
	"aarch64": true, "arm64": true, "arm": true, "armel": true, "armhf": true, "armv5tel": true,
	"armv6l": true, "armv7l": true, "armv8l": true, "mips": true, "mipsel": true, "mips64": true,
	"mips64el": true, "mipsisa32r6": true, "mipsisa32r6el": true, "mipsisa64r6": true,
	"mipsisa64r6el": true, "powerpc": true, "powerpc64": true, "powerpc64le": true, "ppc": true,
	"ppc64": true, "ppc64el": true, "ppc64le": true, "s390": true, "s390x": true, "riscv32": true,
	"riscv64": true, "loongarch64": true, "sparc": true, "sparc64": true, "alpha": true, "hppa": true,
	"m68k": true, "sh4": true, "ia64": true,
}

// tripletParts are the vendor, system and ABI parts that follow the
// architecture in a triplet.
var tripletParts = map[string]bool{
	"pc": true, "unknown": true, "linux": true, "gnu": true, "gnux32": true, "gnuabi64": true,
	"gnuabin32": true, "gnueabi": true, "gnueabihf": true, "gnuspe": true, "musl": true,
	"musleabihf": true, "android": true, "none": true, "elf": true, "eabi": true, "w64": true,
	"mingw32": true, "apple": true, "darwin": true, "freebsd": true, "kfreebsd": true, "hurd": true,
}

// ProgramName normalises a binary's name to the program it is: BinaryName
// first, then a multiarch triplet removed wherever Debian puts one — as a
// suffix from its architecture part on ("perl5.36-x86_64-linux-gnu" is
// "perl5.36", "cpan5.36-x86_64-linux-gnu" is "cpan5.36") or as a prefix
// ("x86_64-linux-gnu-python3.11-config" is "python3.11-config"). Version
// suffixes are the deny list's business (an entry "perl" matches
// "perl5.36"). A name that is nothing but an architecture ("x86_64", a
// setarch alias) is kept as it is.
func ProgramName(binary string) string {
	name := BinaryName(binary)
	parts := strings.Split(name, "-")
	if len(parts) < 2 {
		return name
	}
	// A prefix triplet: arch-(vendor/system/abi)+-program.
	if archNames[parts[0]] && tripletParts[parts[1]] {
		i := 1
		for i < len(parts) && tripletParts[parts[i]] {
			i++
		}
		if prog := strings.Join(parts[i:], "-"); strings.Trim(prog, "-") != "" {
			return prog
		}
		return name
	}
	// A suffix triplet: program-arch(-…)*.
	for i := 1; i < len(parts); i++ {
		if archNames[parts[i]] {
			if prog := strings.Join(parts[:i], "-"); strings.Trim(prog, "-") != "" {
				return prog
			}
			return name
		}
	}
	return name
}
