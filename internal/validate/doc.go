// Package validate is THE validator of toolgen: every form of command tool
// (code-form, declarative, generated, ExecTool) is checked here and nowhere
// else, so there is one security path.
//
// It owns five things:
//
//   - the descriptor rules (Spec): name, description, template, slots, a
//     binary that is a bare name or an absolute path; a violation is a
//     *tool.Error with code 613;
//   - template parsing (ParseTemplate): whitespace-separated words with
//     {slot} placeholders, the first word being the binary;
//   - the deny list (DenyList): binaries no tool may run, matched on the base
//     name, case-insensitively, with .exe, paths, ../ and Debian multiarch
//     triplets normalised away (Match), and judged by the file a path
//     resolves to — symlinks, hard links, #! interpreters (Program,
//     DeniedProgram);
//   - where a template's binary resolves (CheckBinary): never inside the
//     workspace, never a denied program under another name (613);
//   - the slot-value rules of DESIGN.md §5.1 (Value, Path): a violation is a
//     *tool.Error with code 614 that names the slot, the reason and, for a
//     character, its code point and Unicode name. Path resolves a value as
//     the kernel will (link/.. is the parent of the link's target).
package validate
