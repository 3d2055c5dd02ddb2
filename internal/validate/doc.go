// Package validate is THE validator of toolgen: every form of command tool
// (code-form, declarative, generated, ExecTool) is checked here and nowhere
// else, so there is one security path.
//
// It owns six things:
//
//   - the descriptor rules (Spec): name, description, template, slots, a
//     binary that is a bare name or an absolute path; a violation is a
//     *tool.Error with code 613;
//   - template parsing (ParseTemplate): whitespace-separated words with
//     {slot} placeholders, the first word being the binary;
//   - the code-position rule (codepos.go): a slot where the template's
//     program reads code — an option naming a program or command
//     (sort --compress-program, tar -I, git -c, git clone --upload-pack …),
//     find's -exec command, git's subcommand, sed's script — is a 613 unless
//     an enum (or, for a script, a pattern without letters:
//     PatternAdmitsLetter) makes it safe. What is code for which program,
//     and how each reads its options, is package programs' data (one file
//     per program); validate reads it and names no program;
//   - the deny list (DenyList, package programs' with its matching and the
//     judging of the file a path resolves to — symlinks, hard links, #!
//     interpreters: Program, DeniedProgram), applied to every template;
//   - where a template's binary resolves (CheckBinary): never inside the
//     workspace, never a denied program under another name (613);
//   - the slot-value rules of DESIGN.md §5.1 (Value, Path): a violation is a
//     *tool.Error with code 614 that names the slot, the reason and, for a
//     character, its code point and Unicode name. Path resolves a value as
//     the kernel will (link/.. is the parent of the link's target).
package validate
