package main

var checkCmd = &command{
	name:    "check",
	summary: "(being built)",
	run: func(c *command, env *cmdEnv, args []string) int {
		return c.usageErr(env, "not built yet")
	},
}
