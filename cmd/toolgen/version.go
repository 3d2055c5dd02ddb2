package main

var versionCmd = &command{
	name:    "version",
	summary: "(being built)",
	run: func(c *command, env *cmdEnv, args []string) int {
		return c.usageErr(env, "not built yet")
	},
}
