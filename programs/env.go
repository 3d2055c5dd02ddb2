package programs

import "path/filepath"

// configFile returns the file name in r's private configuration directory,
// or "" when there is none.
func configFile(r Run, name string) string {
	if r.ConfigDir == "" {
		return ""
	}
	return filepath.Join(r.ConfigDir, name)
}
