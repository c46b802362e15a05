module github.com/shrinkrun/shrinkrun

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/creack/pty v1.1.24
	github.com/spf13/pflag v1.1.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/dlclark/regexp2/v2 v2.5.1
	github.com/rogpeppe/go-internal v1.16.0
	github.com/tiktoken-go/tokenizer v0.10.0
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
)
