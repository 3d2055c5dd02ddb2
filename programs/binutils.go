package programs

// GNU binutils. Every one of them expands "@FILE" into the words of FILE
// (libiberty's expandargv) before it reads its options, and nm, ar and
// ranlib load a BFD plugin, a shared library named by --plugin: Landlock
// does not check the mapping of a readable library, so a plugin of the
// workspace runs even under --confine strict. ld (denied by deny.go) loads
// one with -plugin too. testdata/options.md records how these were found.

// binutilsNames returns names with their Debian cross-toolchain forms
// (x86_64-linux-gnu-nm …), which Lookup matches only when listed.
func binutilsNames(names ...string) []string {
	out := append([]string(nil), names...)
	for _, triplet := range []string{"x86_64-linux-gnu-", "aarch64-linux-gnu-", "i686-linux-gnu-", "arm-linux-gnueabihf-"} {
		for _, n := range names {
			out = append(out, triplet+n)
		}
	}
	return out
}

// whyPlugin is what nm's, ar's and ranlib's --plugin does.
const whyPlugin = "names a BFD plugin, a shared library the program loads, whose code runs inside it (even under --confine strict)"

// nm, ar and ranlib: --plugin loads a shared library; getopt_long takes a
// prefix (--plug).
var _ = register(&Program{
	Names:         binutilsNames("nm", "ar", "ranlib"),
	Grammar:       Grammar{Abbrev: true, ArgLong: []string{"plugin"}},
	ResponseFiles: respLibiberty,
	Code: []CodeOption{
		{Long: []string{"plugin"}, Kind: CodeScriptFile, Why: whyPlugin,
			ExecWhy: "it loads the named shared library as a plugin, whose code runs inside the program"},
	},
})

// The other binutils read response files; none loads a plugin.
var _ = register(&Program{
	Names: binutilsNames("objdump", "readelf", "strings", "size", "objcopy", "strip", "addr2line", "c++filt",
		"as", "elfedit", "gprof", "dwp", "windres", "dlltool", "dllwrap", "nlmconv", "srconv", "sysdump", "coffdump"),
	ResponseFiles: respLibiberty,
})

// ld loads a linker plugin (-plugin, --plugin) and reads linker scripts
// (-T) that can name more; it is denied by deny.go, and this is what a
// deny list narrowed to allow it still refuses.
var _ = register(&Program{
	Names:         binutilsNames("ld", "ld.bfd", "ld.gold", "gold"),
	ResponseFiles: respLibiberty,
	Code: []CodeOption{
		{Long: []string{"plugin"}, Words: []string{"-plugin"}, Kind: CodeScriptFile,
			Why: "names a linker plugin, a shared library ld loads, whose code runs inside it", ExecWhy: "it loads the named shared library as a linker plugin"},
	},
})
