module github.com/nanogpt/toolgen

go 1.26.8

require golang.org/x/text v0.44.0

require (
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
