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
//     per program), read by its one reader (Program.ReadLine); validate
//     judges what that reads and names no program;
//   - the deny list (DenyList, package programs' with its matching and the
//     judging of the file a path resolves to — symlinks, hard links, #!
//     interpreters: Program, DeniedProgram), applied to every template;
//   - where a template's binary resolves (CheckBinary): never inside the
//     workspace, never a denied program under another name (613);
//   - the slot-value rules of DESIGN.md §5.1 (Value, Path): a violation is a
//     *tool.Error with code 614 that names the slot, the reason and, for a
//     character, its code point and Unicode name. Path resolves a value as
//     the kernel will (link/.. is the parent of the link's target). A text
//     slot's value may also hold U+0020; a boolean's is true or false;
//   - the rules of the slot types (slottypes.go, codeslots.go): a boolean
//     slot is a whole word with a flag (one option literal), no enum or
//     pattern, and the code-position rule reads the template once per set
//     of booleans set (flags written in, the other words dropped); a text
//     slot is refused in every code position, enum or not; an optional
//     slot without a default shares its word only with text of its value
//     (grep -rn{x} is a 613: leaving x out would drop -rn); a Spec's
//     output limit is at most tool.MaxOutputLimit, its timeout at most
//     tool.MaxTimeout and its stderr mode one of "merged" and "separate".
package validate
