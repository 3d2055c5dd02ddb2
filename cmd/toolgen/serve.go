package main

var serveCmd = &command{
	name:    "serve",
	summary: "(being built)",
	run: func(c *command, env *cmdEnv, args []string) int {
		return c.usageErr(env, "not built yet")
	},
}
