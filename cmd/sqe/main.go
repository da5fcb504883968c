// Command sqe is the SQE server and its helpers:
//
//	sqe serve [--config sqe.toml] [--data-dir D] [--listen ADDR] [--demo]
//	sqe token --user U [--role R]... [--group G]... [--ttl 1h] [--data-dir D]
//	sqe version
//
// It only loads configuration and wires the packages together.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	// Time zone names (AT TIME ZONE 'Europe/Paris') resolve the same on a
	// machine without the system's zoneinfo.
	_ "time/tzdata"
)

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = runServe(os.Args[2:])
	case "token":
		err = runToken(os.Args[2:], os.Stdout)
	case "version":
		fmt.Println(versionString())
	case "help", "-h", "--help":
		usage()
	default:
		fmt.Fprintf(os.Stderr, "sqe: unknown command %q\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "sqe %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprint(os.Stderr, `usage:
  sqe serve [--config sqe.toml] [--data-dir ./sqe-data] [--listen 127.0.0.1:5433] [--demo]
  sqe token --user NAME [--role R]... [--group G]... [--ttl 1h] [--data-dir ./sqe-data]
  sqe version
`)
}

// versionString reports the module version and VCS revision the binary
// was built from.
func versionString() string {
	v, rev := "devel", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = " " + s.Value[:12]
			}
		}
	}
	return fmt.Sprintf("sqe %s%s (PostgreSQL %s protocol)", v, rev, serverVersion)
}

// serverVersion is the PostgreSQL release whose grammar SQE parses
// (pg_query_go v5 is PostgreSQL 16's parser; SQE presents 15 to clients,
// whose captured behaviour it reproduces).
const serverVersion = "15.18"
