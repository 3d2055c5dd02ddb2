// Package trust remembers which tools directories the user trusts, as direnv
// allow and mise trust do: a record of a directory holds the digest of each
// of its descriptor files at the time the user trusted it, in a store in
// the user's config directory (DefaultPath), outside every workspace.
//
// A tools directory inside the workspace loads nothing by default (a cloned
// repository could grant itself any command; see package preset). A
// trusted one loads while every descriptor file matches its record: a file
// added since, or changed, is refused with a 613 naming toolgen trust, so
// no descriptor can be swapped under a trusted name (the "rug pull"). The
// user reviews the change and trusts the directory again.
//
// The store is one JSON file, written atomically with mode 0600 in a
// directory of mode 0700. A store that others can write is not used: it
// would let them trust directories in the user's name.
package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nanogpt/toolgen/internal/descdir"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// FileName is the store's file name inside the config directory.
const FileName = "trust.json"

// MaxStoreSize bounds the store file read: 4 MiB, tens of thousands of
// records.
const MaxStoreSize = 4 << 20

// DefaultPath returns the store of the user running toolgen:
// os.UserConfigDir()/toolgen/trust.json ($XDG_CONFIG_HOME/toolgen/trust.json,
// or ~/.config/toolgen/trust.json, on Linux).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("trust: no config directory for the trust store: %w", err)
	}
	return filepath.Join(dir, "toolgen", FileName), nil
}

// Record is what the store holds for one trusted directory.
type Record struct {
	// Dir is the directory, absolute, symlinks resolved.
	Dir string `json:"dir"`
	// Files maps each descriptor file's base name to Digest of its bytes.
	Files map[string]string `json:"files"`
	// Trusted is when the user trusted the directory, in UTC.
	Trusted time.Time `json:"trusted"`
}

// Check returns nil when data, the contents of the descriptor file named
// name in the record's directory, is what the user trusted, and otherwise a
// 613 naming file (the path to show), saying whether it was added or
// changed since, and what to run.
func (r Record) Check(file, name string, data []byte) error {
	want, ok := r.Files[name]
	switch {
	case !ok:
		return notTrusted(file, r.Dir, "was added")
	case want != Digest(data):
		return notTrusted(file, r.Dir, "changed")
	}
	return nil
}

func notTrusted(file, dir, what string) error {
	return &tool.Error{Code: tool.CodeSpec, File: file, Msg: fmt.Sprintf(
		"not loaded: this descriptor %s after the tools directory was trusted, and a trusted directory loads only the files "+
			"as they were then (nothing may be swapped in under a trusted name); review it, then run: toolgen trust %s", what, dir)}
}

// Digest returns "sha256:" and the lower-case hex SHA-256 of data.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Store is the trust store at one path. Each method reads the file again,
// so a directory trusted by another process counts at once.
type Store struct {
	path string
}

// Open returns the store at path; nothing is read until it is used.
func Open(path string) *Store { return &Store{path: filepath.Clean(path)} }

// Path returns the store's path.
func (s *Store) Path() string { return s.path }

// document is the store file.
type document struct {
	Version int      `json:"version"`
	Dirs    []Record `json:"dirs"`
}

// load returns the store's records (none when the file does not exist).
func (s *Store) load() ([]Record, error) {
	f, err := os.Open(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	if err := checkPrivate(s.path, info); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxStoreSize+1))
	if err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	if len(data) > MaxStoreSize {
		return nil, fmt.Errorf("trust: store %s is larger than %d bytes", s.path, MaxStoreSize)
	}
	var doc document
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("trust: store %s is not a trust store (%v); remove it and trust the directories again", s.path, err)
	}
	if doc.Version != 1 {
		return nil, fmt.Errorf("trust: store %s has version %d, want 1", s.path, doc.Version)
	}
	return doc.Dirs, nil
}

// checkPrivate refuses a store that is not a regular file of the user's,
// or that group or others may write.
func checkPrivate(path string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("trust: store %s is not a regular file", path)
	}
	if info.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("trust: store %s is writable by group or others (mode %s), so it is not used: run chmod 600 %s", path, info.Mode().Perm(), path)
	}
	return checkOwner(path, info)
}

// save writes the records atomically, mode 0600, creating the directory
// with mode 0700.
func (s *Store) save(recs []Record) error {
	slices.SortFunc(recs, func(a, b Record) int { return strings.Compare(a.Dir, b.Dir) })
	data, err := json.MarshalIndent(document{Version: 1, Dirs: recs}, "", "  ")
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	return writeAtomic(s.path, append(data, '\n'))
}

// writeAtomic writes data to path through a temporary file of mode 0600 in
// the same directory, renamed over path: a reader sees the old store or the
// new one, never half of one.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+FileName+".*")
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename, nothing is there
	err = f.Chmod(0o600)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	return nil
}

// Resolve returns dir as the store keys it: absolute, symlinks resolved.
func Resolve(dir string) (string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return "", fmt.Errorf("trust: %w", err)
	}
	return real, nil
}

// Lookup returns the record of dir (resolved as Resolve does).
func (s *Store) Lookup(dir string) (Record, bool, error) {
	real, err := Resolve(dir)
	if err != nil {
		return Record{}, false, err
	}
	recs, err := s.load()
	if err != nil {
		return Record{}, false, err
	}
	for _, r := range recs {
		if r.Dir == real {
			return r, true, nil
		}
	}
	return Record{}, false, nil
}

// List returns every record, sorted by directory.
func (s *Store) List() ([]Record, error) {
	recs, err := s.load()
	slices.SortFunc(recs, func(a, b Record) int { return strings.Compare(a.Dir, b.Dir) })
	return recs, err
}

// Trust records dir's descriptor files as they are now (replacing an older
// record of dir) and returns the record. It reads the files the loader
// would load, as the loader reads them (internal/descdir): the *.tool.json
// entries of dir that do not start with a dot, following a symlink only to a
// regular file inside dir, each at most 1 MiB. A file it cannot read that
// way fails the whole call, so that nothing is trusted that the user did not
// see.
func (s *Store) Trust(dir string) (Record, error) {
	real, err := Resolve(dir)
	if err != nil {
		return Record{}, err
	}
	info, err := os.Stat(real)
	if err != nil {
		return Record{}, fmt.Errorf("trust: %w", err)
	}
	if !info.IsDir() {
		return Record{}, fmt.Errorf("trust: %s is not a directory", dir)
	}
	files, err := digests(real)
	if err != nil {
		return Record{}, err
	}
	rec := Record{Dir: real, Files: files, Trusted: time.Now().UTC().Truncate(time.Second)}
	recs, err := s.load()
	if err != nil {
		return Record{}, err
	}
	recs = slices.DeleteFunc(recs, func(r Record) bool { return r.Dir == real })
	return rec, s.save(append(recs, rec))
}

// TrustWritten records the descriptor files of dir named in written, each
// with the digest of the bytes given for it (what the caller wrote, not what
// is there now, so a file swapped in meanwhile stays untrusted), and keeps
// the files an older record of dir already trusted. Every other descriptor
// of dir stays untrusted until Trust: a caller that wrote some files of a
// directory vouches for those only. It returns the record and the names of
// dir's descriptor files the record does not hold, sorted.
func (s *Store) TrustWritten(dir string, written map[string][]byte) (Record, []string, error) {
	real, err := Resolve(dir)
	if err != nil {
		return Record{}, nil, err
	}
	present, err := descriptorNames(real)
	if err != nil {
		return Record{}, nil, err
	}
	recs, err := s.load()
	if err != nil {
		return Record{}, nil, err
	}
	rec := Record{Dir: real, Files: map[string]string{}, Trusted: time.Now().UTC().Truncate(time.Second)}
	for _, r := range recs {
		if r.Dir == real {
			maps.Copy(rec.Files, r.Files)
		}
	}
	for name, data := range written {
		if filepath.Base(name) != name || !strings.HasSuffix(name, tool.DescriptorExt) {
			return Record{}, nil, fmt.Errorf("trust: %q is not the name of a descriptor file of %s", name, dir)
		}
		rec.Files[name] = Digest(data)
	}
	var untrusted []string
	for _, name := range present {
		if _, ok := rec.Files[name]; !ok {
			untrusted = append(untrusted, name)
		}
	}
	recs = slices.DeleteFunc(recs, func(r Record) bool { return r.Dir == real })
	return rec, untrusted, s.save(append(recs, rec))
}

// descriptorNames returns the names of dir's descriptor files as the loader
// lists them (internal/descdir), sorted.
func descriptorNames(dir string) ([]string, error) {
	d, err := descdir.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	defer d.Close()
	names, err := d.Names(tool.DescriptorExt)
	if err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	slices.Sort(names)
	return names, nil
}

// Revoke removes the record of dir and reports whether there was one. A
// directory that no longer exists is matched by its path as given, made
// absolute.
func (s *Store) Revoke(dir string) (bool, error) {
	real, err := Resolve(dir)
	if err != nil {
		if real, err = filepath.Abs(dir); err != nil {
			return false, fmt.Errorf("trust: %w", err)
		}
	}
	recs, err := s.load()
	if err != nil {
		return false, err
	}
	n := len(recs)
	recs = slices.DeleteFunc(recs, func(r Record) bool { return r.Dir == real })
	if len(recs) == n {
		return false, nil
	}
	return true, s.save(recs)
}

// digests returns the digest of each descriptor file of dir (resolved),
// read by the loader's own reader (internal/descdir): the same names, the
// same symlink and file-type rules, the same size limit.
func digests(dir string) (map[string]string, error) {
	d, err := descdir.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	defer d.Close()
	names, err := d.Names(tool.DescriptorExt)
	if err != nil {
		return nil, fmt.Errorf("trust: %w", err)
	}
	out := map[string]string{}
	for _, name := range names {
		data, _, err := d.Read(name, descdir.MaxFileSize)
		if err != nil {
			return nil, fmt.Errorf("trust: not trusted, since the loader would refuse it too: %w", err)
		}
		out[name] = Digest(data)
	}
	return out, nil
}
