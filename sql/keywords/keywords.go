package keywords

// Category is how PostgreSQL's grammar lets a keyword be used.
type Category uint8

// The categories, as kwlist.h names them.
const (
	// None is a word that is no keyword.
	None Category = iota
	// Unreserved keywords may be used as any identifier.
	Unreserved
	// ColName keywords may be column names but not function or type
	// names.
	ColName
	// TypeFuncName keywords may be function or type names but not column
	// names.
	TypeFuncName
	// Reserved keywords may be used as no identifier.
	Reserved
)

// Of is word's category; word is compared as given (keywords are lower
// case).
func Of(word string) Category { return list[word] }
