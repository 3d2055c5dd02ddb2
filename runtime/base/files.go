package base

import (
	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// checkFiles confines the files the call's command line names through its
// program's file options (programs.Program.FileRefs: curl -d @FILE, -T
// FILE, wget --post-file FILE) to the workspace, as a path slot's value
// is: the program opens them itself, whatever the slot's type, so a
// string slot's "@/etc/passwd" would otherwise send a file from outside
// the workspace (or, for -o, write one). from holds the template word of
// each argv word; a file named by the template's literal text alone is
// the author's and is not judged.
func (b *CommandToolBase) checkFiles(argv []string, from []validate.Word) error {
	if b.files == nil {
		return nil
	}
	root := b.kernel.Workspace()
	for _, ref := range b.files.FileRefs(argv) {
		slot := slotOf(from, ref.Word)
		if slot == "" {
			continue
		}
		if _, err := validate.Path(slot, ref.File, root); err != nil {
			return tool.ValueErrorf(slot, "%s opens the file %q named in %s %q, and it must be inside the workspace: %s",
				validate.BinaryName(argv[0]), ref.File, ref.Option, argv[ref.Word], err.Msg)
		}
	}
	return nil
}

// slotOf returns the first slot of the template word argv word i came
// from, or "" when that word is literal text.
func slotOf(from []validate.Word, i int) string {
	if i >= len(from) {
		return ""
	}
	for _, p := range from[i] {
		if p.Slot != "" {
			return p.Slot
		}
	}
	return ""
}
