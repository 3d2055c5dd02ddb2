package programs

// WhyResponseFile says why a word starting with '@' is refused for a
// program that reads response files, given how it reads them
// (Program.ResponseFiles).
func WhyResponseFile(how string) string {
	return "the program reads a word that starts with '@' as the name of a file whose words are more arguments (" + how +
		"), so the file would give options no one checked (a plugin to load, a file outside the workspace to read)"
}

// How the program families read response files (Program.ResponseFiles).
const (
	// respLibiberty: binutils and the GCC drivers expand every argument
	// "@FILE" with libiberty's expandargv, recursively, before reading
	// options; a FILE that cannot be read stays a literal argument.
	respLibiberty = "@FILE, libiberty's expandargv"
	// respLLVM: LLVM's tools expand "@FILE" (cl::ExpandResponseFiles) in
	// their command-line parser.
	respLLVM = "@FILE, LLVM's response files"
	// respJDK: the JDK's launchers and tools read "@argfiles".
	respJDK = "@argfiles of the JDK"
)
