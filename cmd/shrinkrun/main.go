package main

import "os"

func main() {
	if asBash(os.Args[0]) {
		os.Exit(bashMain(os.Args, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
