package programs

// CodeRefusals reads words (words[0] is the binary) the way the ExecTool
// does and returns every refusal it makes for a code reason: each token a
// row made from one of p's code options (Code with an ExecWhy) refuses,
// and, for a program with a script language, what its Check says of a
// script. FuzzTemplateCode compares them with the template check.
func (p *Program) CodeRefusals(words []string) []Refusal {
	r := p.rules()
	if r == nil {
		return nil
	}
	n := 0
	for _, o := range p.Code {
		if o.ExecWhy != "" {
			n++
		}
	}
	code := *r
	code.Rows, code.Refuse, code.Check = r.Rows[:n], "", nil
	c := &Command{name: words[0], rules: &code}
	for _, w := range words {
		c.words = append(c.words, word{text: w})
	}
	c.read()
	var out []Refusal
	for ti := range c.tokens {
		for ri := range code.Rows {
			row := &code.Rows[ri]
			if row.wholeSub() || !row.appliesTo(c, &c.tokens[ti]) {
				continue
			}
			if f := c.checkToken(row, &c.tokens[ti]); f != nil {
				out = append(out, *f)
			}
		}
	}
	if p.Script != nil && r.Check != nil {
		if f := r.Check(c); f != nil {
			out = append(out, *f)
		}
	}
	return out
}
