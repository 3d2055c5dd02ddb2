package sandbox

// SetTestSockets makes the sockets at paths daemon sockets for the rest of
// the test binary's life.
func SetTestSockets(paths ...string) { testSockets = append(testSockets, paths...) }
