package gen

import (
	"github.com/dave/jennifer/jen"
)

// hasExamples reports whether any tool's descriptor carries examples.
func hasExamples(tools []*genTool) bool {
	for _, t := range tools {
		if len(t.spec.Examples) > 0 {
			return true
		}
	}
	return false
}

// emitExamplesTest adds the test that proves every example with
// CheckExamples, one subtest per tool that has examples.
func emitExamplesTest(f *jen.File, tools []*genTool) {
	f.Add(doc("%s checks the examples of the descriptors that have them: an accepted example must assemble exactly its argv, a rejected one must fail with a 614 holding its text. Nothing runs: examples are assembled (Argv), in an empty workspace.", examplesTest))
	f.Func().Id(examplesTest).Params(jen.Id("t").Op("*").Qual(pkgTesting, "T")).BlockFunc(func(g *jen.Group) {
		g.List(jen.Id("k"), jen.Err()).Op(":=").Qual(pkgKernel, "New").Call(jen.Id("t").Dot("TempDir").Call())
		g.If(jen.Err().Op("!=").Nil()).Block(jen.Id("t").Dot("Fatal").Call(jen.Err()))
		for _, t := range tools {
			if len(t.spec.Examples) == 0 {
				continue
			}
			g.Id("t").Dot("Run").Call(jen.Lit(t.spec.Name), jen.Func().Params(jen.Id("t").Op("*").Qual(pkgTesting, "T")).Block(
				jen.List(jen.Id("x"), jen.Err()).Op(":=").Id(t.id.New).Call(jen.Id("k")),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Id("t").Dot("Fatal").Call(jen.Err())),
				jen.For(jen.List(jen.Id("_"), jen.Err()).Op(":=").Range().Id("x").Dot("CheckExamples").Call()).Block(
					jen.Id("t").Dot("Errorf").Call(jen.Lit("%s: %v"), jen.Lit(t.file), jen.Err()),
				),
			))
		}
	})
}
