// Package validate is THE validator of toolgen: every form of command tool
// (code-form, declarative, generated, ExecTool) is checked here and nowhere
// else, so there is one security path.
//
// It owns four things:
//
//   - the descriptor rules (Spec): name, description, template, slots; a
//     violation is a *tool.Error with code 613;
//   - template parsing (ParseTemplate): whitespace-separated words with
//     {slot} placeholders, the first word being the binary;
//   - the deny list (DenyList): binaries no tool may run, matched on the base
//     name, case-insensitively, with .exe, paths and ../ normalised away;
//   - the slot-value rules of DESIGN.md §5.1 (Value, Path): a violation is a
//     *tool.Error with code 614 that names the slot, the reason and, for a
//     character, its code point and Unicode name.
package validate
