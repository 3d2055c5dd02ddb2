// Package descriptors holds toolgen's own declarative tools, *.tool.json
// files, compiled into typed Go tools in tools_gen.go:
//
//	search_text   grep -rn {pattern} {path}
//	find_by_name  find {path} -name {pattern}
//	print_lines   sed -n {range}p {path}
//	git_log       git log ... --max-count={count} -- {path}
//	list_dir      ls -lA {path}
//	count_lines   wc -l {path}
//
// The first three are the built-ins' equivalents under other names (the
// built-ins own grep_text, find_files and sed_print). They are the
// repository's catalogue and the input of make demo (toolgen ... --tools
// descriptors), not part of the toolgen binary: a Go program registers them
// as the generated form with preset.WithCommandTools(..., Tools).
// tools_gen_test.go proves each descriptor's examples.
//
// After editing a descriptor, run go generate (CI runs toolgen generate
// -check and fails on a stale file). toolgen does not import this package, so
// a broken generated file can always be regenerated.
package descriptors

//go:generate go run ../cmd/toolgen generate
