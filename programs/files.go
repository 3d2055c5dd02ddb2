package programs

import "strings"

// FileForm is how an option's value names a file the program reads or
// writes (FileOption).
type FileForm int

const (
	// FileIs: the value is a file name (curl -T FILE, --cacert FILE).
	FileIs FileForm = iota + 1
	// FileAt: a value that begins with '@' names the file after it (curl
	// -d @FILE, -H @FILE); any other value is data.
	FileAt
	// FileNameAt: "@FILE", or "NAME@FILE" where no '=' comes before the
	// '@' (curl --data-urlencode, --variable, --url-query); "NAME=DATA" is
	// data.
	FileNameAt
	// FileFormPart: a form part, "NAME=@FILE" or "NAME=<FILE" with
	// ";type=…", ";headers=@FILE" and more after it (curl -F); every
	// "=@" and "=<" in the value names a file, up to the next ';' or ','.
	FileFormPart
	// FileUnlessEq: a value without '=' is a file name (curl -b FILE), one
	// with '=' is data (-b "NAME=VALUE").
	FileUnlessEq
)

// FileOption is an option whose value names a file, and how.
type FileOption struct {
	Short string   // option letters
	Long  []string // long options, without "--"
	Form  FileForm
}

// FileRef is a file a command line names through a FileOption: the word it
// is in (argv's index: the option's own word when the value is attached,
// the next otherwise), the option ("-d", "--form"), and the file as
// written. "-" (standard input or output) is never a FileRef.
type FileRef struct {
	Word   int
	Option string
	File   string
}

// FileRefs returns the files argv (argv[0] the program) names through p's
// FileOptions, read with p's grammar, in order; nil when p has none. A
// caller confines each to the workspace as it does a path slot's value:
// the program opens them itself, so no slot rule else sees them.
func (p *Program) FileRefs(argv []string) []FileRef {
	if len(p.Files) == 0 || len(argv) < 2 {
		return nil
	}
	rules := p.rules() // the ExecTool's, or the reading alone for a program it refuses nothing of
	if rules == nil {
		rules = readingOf(p)
	}
	c := &Command{name: p.Name(), rules: rules}
	for _, w := range argv {
		c.words = append(c.words, word{text: w})
	}
	c.read()
	return c.fileRefs(p.Files)
}

// fileRefs returns the files c names through files.
func (c *Command) fileRefs(files []FileOption) []FileRef {
	var out []FileRef
	for _, fo := range files {
		for _, t := range c.options(fo.Short, fo.Long...) {
			if !t.hasValue {
				continue
			}
			w := t.word
			if !t.inWord {
				w++
			}
			for _, f := range filesIn(fo.Form, t.value) {
				if f != "" && f != "-" {
					out = append(out, FileRef{Word: w, Option: t.written, File: f})
				}
			}
		}
	}
	return out
}

// FileRefs returns the files c names through its program's file options
// (Program.Files), for the ExecTool's workspace check (defence 5).
func (c *Command) FileRefs() []FileRef { return c.fileRefs(c.rules.Files) }

// filesIn returns the files a value of the given form names.
func filesIn(form FileForm, v string) []string {
	switch form {
	case FileIs:
		return []string{v}
	case FileAt:
		if f, ok := strings.CutPrefix(v, "@"); ok {
			return []string{f}
		}
	case FileNameAt:
		at, eq := strings.IndexByte(v, '@'), strings.IndexByte(v, '=')
		if at >= 0 && (eq < 0 || at < eq) {
			return []string{v[at+1:]}
		}
	case FileFormPart:
		var out []string
		for _, mark := range []string{"=@", "=<"} {
			for rest := v; ; {
				i := strings.Index(rest, mark)
				if i < 0 {
					break
				}
				rest = rest[i+2:]
				f := rest
				if k := strings.IndexAny(f, ";,"); k >= 0 {
					f = f[:k]
				}
				out = append(out, strings.Trim(f, `"`))
			}
		}
		return out
	case FileUnlessEq:
		if !strings.Contains(v, "=") {
			return []string{v}
		}
	}
	return nil
}
