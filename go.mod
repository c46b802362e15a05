module github.com/shrinkrun/shrinkrun

go 1.26

require (
	github.com/creack/pty v1.1.24 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/spf13/pflag v1.1.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
