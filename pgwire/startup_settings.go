package pgwire

import (
	"sort"
	"strings"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// startupSettings turns a StartupMessage's parameters into the run-time
// settings the session starts with, in PostgreSQL's order: first the
// switches in options (-c name=value, --name=value), then every other
// parameter, so a parameter of its own overrides the same one in options.
// user, database and replication describe the connection, not settings;
// _pq_.* are protocol options. Each setting is checked by the session; the
// syntax of options is checked here.
func startupSettings(params map[string]string) ([]sql.StartupSetting, error) {
	var out []sql.StartupSetting
	if opts, ok := params["options"]; ok {
		var err error
		if out, err = parseOptionSwitches(splitOptions(opts)); err != nil {
			return nil, err
		}
	}
	// A map has lost the packet's order; the order matters only between
	// spellings of one name ("DateStyle", "datestyle"), so sorting keeps
	// the outcome the same from one connection to the next.
	names := make([]string, 0, len(params))
	for name := range params {
		switch {
		case name == "user", name == "database", name == "replication", name == "options":
		case strings.HasPrefix(name, "_pq_."):
		default:
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		out = append(out, sql.StartupSetting{Name: name, Value: params[name]})
	}
	return out, nil
}

// splitOptions splits the options parameter into arguments at unescaped
// whitespace; a backslash makes the next character literal, which is how
// a value holds a space ("-c application_name=my\ app"). This is
// PostgreSQL's pg_split_opts.
func splitOptions(opts string) []string {
	var args []string
	i := 0
	for {
		for i < len(opts) && isOptionSpace(opts[i]) {
			i++
		}
		if i == len(opts) {
			return args
		}
		var b strings.Builder
		escaped := false
		for ; i < len(opts); i++ {
			c := opts[i]
			if isOptionSpace(c) && !escaped {
				break
			}
			if !escaped && c == '\\' {
				escaped = true
				continue
			}
			escaped = false
			b.WriteByte(c)
		}
		args = append(args, b.String())
	}
}

func isOptionSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// serverSwitches are the other switches of the postgres command line
// that PostgreSQL accepts in options (B:bc:C:D:d:EeFf:h:ijk:lN:nOPp:r:S:sTt:v:W:).
// They set server-wide or debugging parameters SQE does not have, so they
// are refused by name rather than ignored.
var serverSwitches = map[byte]bool{
	'B': true, 'b': true, 'C': true, 'D': true, 'd': true, 'E': true, 'e': true, 'F': true,
	'f': true, 'h': true, 'i': true, 'j': true, 'k': true, 'l': true, 'N': true, 'n': true,
	'O': true, 'P': true, 'p': true, 'r': true, 'S': true, 's': true, 'T': true, 't': true,
	'v': true, 'W': true,
}

// parseOptionSwitches reads the arguments of options as PostgreSQL's
// process_postgres_switches does for a client: -c name=value (or
// -cname=value) and --name=value set a parameter, a dash in the name
// standing for an underscore.
func parseOptionSwitches(args []string) ([]sql.StartupSetting, error) {
	var out []sql.StartupSetting
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "--":
			// The end of the switches: anything after it is an argument
			// the server does not take.
			if i+1 < len(args) {
				return nil, invalidOptionArgument(args[i+1])
			}
			return out, nil
		case strings.HasPrefix(arg, "--"):
			s, err := optionSetting("--", arg[2:])
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		case strings.HasPrefix(arg, "-c"):
			v := arg[2:]
			if v == "" {
				if i+1 == len(args) {
					return nil, invalidOptionArgument(arg)
				}
				i++
				v = args[i]
			}
			s, err := optionSetting("-c ", v)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		case len(arg) >= 2 && arg[0] == '-':
			if !serverSwitches[arg[1]] {
				return nil, invalidOptionArgument(arg)
			}
			return nil, pgerror.New(pgerror.FeatureNotSupported,
				"the server switch -%c is not supported in options", arg[1]).
				WithHint("Set run-time parameters with -c name=value.")
		default:
			return nil, invalidOptionArgument(arg)
		}
	}
	return out, nil
}

// optionSetting splits name=value as PostgreSQL's ParseLongOption does.
func optionSetting(flag, arg string) (sql.StartupSetting, error) {
	name, value, ok := strings.Cut(arg, "=")
	if !ok {
		return sql.StartupSetting{}, pgerror.New(pgerror.SyntaxError, "%s%s requires a value", flag, arg)
	}
	return sql.StartupSetting{Name: strings.ReplaceAll(name, "-", "_"), Value: value}, nil
}

func invalidOptionArgument(arg string) *pgerror.Error {
	return pgerror.New(pgerror.SyntaxError, "invalid command-line argument for server process: %s", arg).
		WithHint("Try \"postgres --help\" for more information.")
}
