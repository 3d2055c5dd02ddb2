module github.com/nanogpt/toolgen/adapters/openaitool

go 1.26.8

require (
	github.com/nanogpt/toolgen v0.0.0
	github.com/openai/openai-go/v3 v3.102.0
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/landlock-lsm/go-landlock v0.11.2 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.44.0 // indirect
	kernel.org/pub/linux/libs/security/libcap/psx v1.2.78 // indirect
)

// Developed with the toolgen of this repository; a release pins a version.
replace github.com/nanogpt/toolgen => ../..
