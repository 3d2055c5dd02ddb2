package main

var schemaCmd = &command{
	name:    "schema",
	summary: "(being built)",
	run: func(c *command, env *cmdEnv, args []string) int {
		return c.usageErr(env, "not built yet")
	},
}
