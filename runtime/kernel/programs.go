package kernel

// programEnv returns the environment entries that force the configuration
// of the program at path (absolute) safe, appended to a child's
// environment; nil for a program with no entry. It is filled in by the
// program-config table.
func programEnv(path string) []string { return nil }

// programExecDirs returns the helper directories the program at path
// (absolute) legitimately executes programs from, added to its execute set;
// nil for none. It is filled in by the program-config table.
func programExecDirs(path string) []string { return nil }
