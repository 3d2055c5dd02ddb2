package validate

// GitOptionTakesValue reports whether opt is one of git's top-level options
// (before the subcommand) that, written alone, take the next word as their
// value: -C, -c, --git-dir, --work-tree, --namespace, --config-env,
// --super-prefix, --attr-source.
func GitOptionTakesValue(opt string) bool {
	switch opt {
	case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix", "--attr-source":
		return true
	}
	return false
}
