package validate

import "github.com/nanogpt/toolgen/programs"

// The deny list and program names live with everything else toolgen knows
// about programs (package programs), programs.DenyList the one type of it.

// BinaryName normalises a command's first word to the name the deny list
// is matched against (programs.BinaryName).
func BinaryName(binary string) string { return programs.BinaryName(binary) }

// ProgramName normalises a binary's name to the program it is
// (programs.ProgramName).
func ProgramName(binary string) string { return programs.ProgramName(binary) }

// DeniedProgram reports whether the program file at resolvedPath is denied
// by the default deny list (programs.DeniedProgram).
func DeniedProgram(resolvedPath string) (reason string, denied bool) {
	return programs.DeniedProgram(resolvedPath)
}
