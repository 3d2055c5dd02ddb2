package programs

// Compiler drivers and the LLVM tools. deny.go denies the drivers (gcc,
// clang, cc …) and the LLVM tools that load plugins (opt, llc, bugpoint);
// what is here is what a deny list narrowed to allow them still refuses,
// and what the LLVM tools that stay allowed (llvm-nm, llvm-objdump …)
// share: every one expands "@FILE" into the words of FILE.
// testdata/options.md records how these were found.

// The GCC drivers and tools built with libiberty: -fplugin loads a shared
// library into the compiler, -wrapper runs a program around each
// subprocess, -B names the directory the driver runs cc1, as and ld from,
// and a specs file can run anything.
var _ = register(&Program{
	Names: []string{"gcc*", "g++*", "cc", "c++", "cpp*", "c89*", "c99*", "gcov*", "lto-dump*", "gfortran*", "gccgo*",
		"x86_64-linux-gnu-gcc*", "x86_64-linux-gnu-g++*", "x86_64-linux-gnu-cpp*", "x86_64-linux-gnu-gcov*",
		"x86_64-linux-gnu-lto-dump*", "x86_64-linux-gnu-gfortran*", "aarch64-linux-gnu-gcc*", "aarch64-linux-gnu-g++*",
		"aarch64-linux-gnu-cpp*"},
	ResponseFiles: respLibiberty,
	Code: []CodeOption{
		{Words: []string{"-fplugin"}, Kind: CodeScriptFile,
			Why: "names a compiler plugin, a shared library the compiler loads, whose code runs inside it", ExecWhy: "it loads the named shared library as a compiler plugin"},
		{Words: []string{"-wrapper"}, Kind: CodeRuns,
			Why: "names the program the driver runs every subprocess under", ExecWhy: "it runs the named program around every subprocess"},
		{Short: "B", Kind: CodeScriptFile,
			Why: "names the directory the driver runs its compiler, assembler and linker from", ExecWhy: "it runs the compiler, assembler and linker of the named directory"},
		{Words: []string{"-specs"}, Long: []string{"specs"}, Kind: CodeScriptFile,
			Why: "names a specs file, whose rules choose the programs the driver runs", ExecWhy: "it reads a specs file, whose rules choose the programs the driver runs"},
	},
})

// llvmPlugin is the code option of the LLVM tools that load a plugin: -load
// (cl::opt, one or two dashes, "=value" or the next word) and the new pass
// manager's -load-pass-plugin. The longer word comes first: "-load" would
// read "-load-pass-plugin" as -load with the attached value "-pass-plugin".
var llvmPlugin = CodeOption{Words: []string{"-load-pass-plugin", "-load"}, Long: []string{"load-pass-plugin", "load"}, Kind: CodeScriptFile,
	Why: "names a plugin, a shared library the tool loads, whose code runs inside it", ExecWhy: "it loads the named shared library as a plugin"}

// clang: as gcc, plus -fpass-plugin and -Xclang -load.
var _ = register(&Program{
	Names:         []string{"clang*", "x86_64-linux-gnu-clang*"},
	ResponseFiles: respLLVM,
	Code: []CodeOption{
		{Words: []string{"-fplugin", "-fpass-plugin"}, Kind: CodeScriptFile,
			Why: "names a compiler plugin, a shared library clang loads, whose code runs inside it", ExecWhy: "it loads the named shared library as a compiler plugin"},
		{Words: []string{"-Xclang"}, Kind: CodeRuns,
			Why: "passes an option to the compiler proper, where -load names a plugin it loads", ExecWhy: "it passes options to the compiler proper, where -load loads a plugin"},
		{Short: "B", Kind: CodeScriptFile,
			Why: "names the directory the driver runs its tools from", ExecWhy: "it runs the tools of the named directory"},
	},
})

// The LLVM tools parse their command line with LLVM's cl library, which
// expands response files. The versioned names Debian installs (llvm-nm-14,
// opt-14) are matched as versions of these names.
var _ = register(&Program{
	Names: []string{"llvm-*", "lli", "FileCheck", "dsymutil", "sancov", "sanstats", "obj2yaml", "yaml2obj",
		"verify-uselistorder", "split-file", "yaml-bench", "ld.lld*", "lld*", "wasm-ld*"},
	ResponseFiles: respLLVM,
})

// opt, llc and bugpoint load a plugin with -load (and opt with
// -load-pass-plugin); deny.go denies them.
var _ = register(&Program{
	Names:         []string{"opt", "llc", "bugpoint"},
	ResponseFiles: respLLVM,
	Code:          []CodeOption{llvmPlugin},
})

// The JDK's launcher and tools read @argfiles (java @opts, javac @files);
// deny.go denies them all, since -J options reach their JVM.
var _ = register(&Program{
	Names:         []string{"java", "javac", "javadoc", "jar", "jlink", "jmod", "jpackage", "jimage"},
	ResponseFiles: respJDK,
})
