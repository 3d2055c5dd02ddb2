package loader

// WithContentCheck adds a rule on each descriptor file's bytes, checked
// after the file is read under the loader's rules and before it is parsed:
// check gets the file's path (the directory as given, joined with the
// name), its base name and its contents, and a non-nil error (a 613
// *tool.Error naming the file) refuses the file, which then loads no tool
// (a version that loaded before is kept, as for a broken file). Package
// preset uses it for a trusted directory: only the files as the user
// trusted them load. It runs at every (re)load, under Watch too, and must
// be safe for concurrent use.
func WithContentCheck(check func(file, name string, data []byte) error) Option {
	return func(c *config) { c.content = check }
}
