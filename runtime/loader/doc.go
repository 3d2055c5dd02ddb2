// Package loader is the DescriptorToolLoader: it turns the *.tool.json files
// of one directory into command tools at run time, so a tool is one JSON
// file dropped into tools/, with no code and no regeneration.
//
// Every file goes through the one path of DESIGN.md §3: tool.DecodeSpec
// (strict JSON, positions), then base.New, which validates with package
// validate — the same validator, deny list included, as code-form and
// generated tools. A problem is a 613 *tool.Error naming the file and, where
// it sits somewhere in the file, its line and column:
//
//	tools/search.tool.json:7:16: error 613: slot "path": unknown type "pth" (want string, integer, number or path)
//
// One bad file never stops the others: LoadAll returns the tools that load
// and the problems. Two files defining the same tool name, or a file
// defining a name already taken by a built-in or generated tool (WithKnown),
// is a 613 naming both places; the file that held the name first keeps it.
// A descriptor identical to a generated tool (same name, same tool.Digest)
// is skipped silently, and one that changed since generation is a 613 that
// says to run go generate.
//
// Reading is defensive, under the one rule gen.ReadDir (toolgen generate)
// reads by too (package internal/descdir): only regular files named
// *.tool.json directly in the directory are read (hidden files, such as
// editor lock files, are ignored), opened without blocking (a FIFO is
// refused at once); a symlink is followed only when it stays inside the
// directory, and the open goes through an os.Root, so a link swapped in
// meanwhile cannot lead out; a file over 1 MiB is refused from its size and never read whole, and the
// files of a directory load up to 64 MiB in all (WithMaxTotalSize; a file
// past it is refused unread, in name order), so memory stays bounded
// whatever the directory holds.
//
// Watch keeps the tools current with fsnotify: a file added, changed,
// renamed or removed is reflected within about 200 ms, only the changed
// files are read again, a broken file keeps its last good version while its
// 613 is reported, and the new state is handed over as one Snapshot, never
// half-applied.
//
// The scan / validate / register skeleton is generic over the kind of file
// (see fileKind in fileset.go), so a second kind — the seed reserves
// skills/*.skill.json — would reuse it without a second copy. No skill
// behaviour exists yet.
package loader
