package gen

import (
	"github.com/dave/jennifer/jen"
)

// emitTemporal adds the Temporal workflow stubs of the tools, in name
// order: per tool one function over temporaltool.Execute, with the tool's
// Spec and typed arguments. The behaviour (activity options, retries,
// errors) is the adapter's; the file only names the tools.
func emitTemporal(f *jen.File, tools []*genTool) {
	for _, t := range tools {
		emitStub(f, t)
	}
}

// emitStub adds ExecuteX, the workflow stub of one tool.
func emitStub(f *jen.File, t *genTool) {
	id := t.id
	retry := "It is retried when its worker is lost or the command cannot start (up to 5 attempts; never after a 613 or 614): the tool only reads."
	switch {
	case t.spec.Writes:
		retry = "It is never retried: the tool writes, and a lost worker may have done part of its work."
	case t.spec.RunsCode:
		retry = "It is never retried: the tool runs the repository's code, and a lost worker may have done part of its work."
	}
	f.Add(doc("%s runs %s as a Temporal activity from a workflow, with args and the options of temporaltool.Options(ctx, %s()): the timeouts ctx leaves unset and the retry policy come from the descriptor, the task queue from ctx. %s A command that exits non-zero is a Result; a rejected argument is an error for which temporaltool.Code returns 614.",
		id.Execute, t.spec.Name, id.Spec, retry))
	f.Func().Id(id.Execute).Params(
		jen.Id("ctx").Qual(pkgWorkflow, "Context"), jen.Id("args").Id(id.Args),
	).Params(jen.Qual(pkgTemporalTool, "Result"), jen.Error()).Block(
		jen.Return(jen.Qual(pkgTemporalTool, "Execute").Call(jen.Id("ctx"), jen.Id(id.Spec).Call(), jen.Id("args"))),
	)
}
