package functions

// Param is one named parameter of a function, for calls that pass
// arguments by name, f(name => value) or f(name := value).
type Param struct {
	Name string
	// Default is the SQL literal a call that leaves the parameter out
	// passes instead; "" when it must be given.
	Default string
}

// scalarParams are the parameters of the scalar functions that
// PostgreSQL declares with names, in order. A function with overloads of
// different lengths (make_timestamptz) lists its longest; a call passing
// fewer arguments is then resolved as usual.
var scalarParams = map[string][]Param{
	"make_date":      {{Name: "year"}, {Name: "month"}, {Name: "day"}},
	"make_time":      {{Name: "hour"}, {Name: "min"}, {Name: "sec"}},
	"make_timestamp": {{Name: "year"}, {Name: "month"}, {Name: "mday"}, {Name: "hour"}, {Name: "min"}, {Name: "sec"}},
	"make_timestamptz": {{Name: "year"}, {Name: "month"}, {Name: "mday"}, {Name: "hour"}, {Name: "min"}, {Name: "sec"},
		{Name: "timezone"}},
	"make_interval": {{Name: "years", Default: "0"}, {Name: "months", Default: "0"}, {Name: "weeks", Default: "0"},
		{Name: "days", Default: "0"}, {Name: "hours", Default: "0"}, {Name: "mins", Default: "0"}, {Name: "secs", Default: "0.0"}},
}
