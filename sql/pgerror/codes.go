package pgerror

// SQLSTATE codes used by SQE, named as PostgreSQL's errcodes.txt names them.
const (
	SuccessfulCompletion = "00000"
	Warning              = "01000"

	// Class 08: connection exception.
	ConnectionException                     = "08000"
	SQLClientUnableToEstablishSQLConnection = "08001"
	ConnectionFailure                       = "08006"
	ProtocolViolation                       = "08P01"

	// Class 0A: feature not supported.
	FeatureNotSupported = "0A000"

	// Class 0L: invalid grantor.
	InvalidGrantOperation = "0LP01"

	// Class 21: cardinality violation.
	CardinalityViolation = "21000"

	// Class 22: data exception.
	DataException                       = "22000"
	StringDataRightTruncation           = "22001"
	NumericValueOutOfRange              = "22003"
	NullValueNotAllowed                 = "22004"
	InvalidDatetimeFormat               = "22007"
	DatetimeFieldOverflow               = "22008"
	IntervalFieldOverflow               = "22015"
	InvalidParameterValue               = "22023"
	DivisionByZero                      = "22012"
	InvalidRegularExpression            = "2201B"
	InvalidEscapeSequence               = "22025"
	SubstringError                      = "22011"
	ArraySubscriptError                 = "2202E"
	InvalidArgumentForLogarithm         = "2201E"
	InvalidArgumentForPowerFunction     = "2201F"
	InvalidArgumentForWidthBucket       = "2201G"
	InvalidRowCountInLimitClause        = "2201W"
	InvalidRowCountInResultOffsetClause = "2201X"
	CharacterNotInRepertoire            = "22021"
	InvalidTextRepresentation           = "22P02"
	InvalidTablesampleRepeat            = "2202G"
	InvalidTablesampleArgument          = "2202H"
	InvalidBinaryRepresentation         = "22P03"

	// Class 23: integrity constraint violation.
	NotNullViolation = "23502"

	// Class 25: invalid transaction state.
	ActiveSQLTransaction   = "25001"
	NoActiveSQLTransaction = "25P01"
	InFailedSQLTransaction = "25P02"
	// IdleInTransactionSessionTimeout ends a session left idle inside a
	// transaction block.
	IdleInTransactionSessionTimeout = "25P03"

	// Class 26: invalid SQL statement name.
	InvalidSQLStatementName = "26000"

	// Class 28: invalid authorization specification.
	InvalidAuthorizationSpecification = "28000"
	InvalidPassword                   = "28P01"

	// Class 2B: dependent privilege descriptors still exist.
	DependentObjectsStillExist = "2BP01"

	// Class 34: invalid cursor name.
	InvalidCursorName = "34000"

	// Class 3B: savepoint exception.
	InvalidSavepointSpecification = "3B001"

	// Class 3D / 3F: invalid catalog / schema name.
	InvalidCatalogName = "3D000"
	InvalidSchemaName  = "3F000"
	UndefinedSchema    = "3F000"

	// Class 40: transaction rollback.
	SerializationFailure = "40001"

	// Class 42: syntax error or access rule violation.
	SyntaxErrorOrAccessRuleViolation = "42000"
	SyntaxError                      = "42601"
	InsufficientPrivilege            = "42501"
	GroupingError                    = "42803"
	DatatypeMismatch                 = "42804"
	WrongObjectType                  = "42809"
	UndefinedColumn                  = "42703"
	UndefinedFunction                = "42883"
	UndefinedTable                   = "42P01"
	UndefinedParameter               = "42P02"
	UndefinedObject                  = "42704"
	DuplicateColumn                  = "42701"
	DuplicateObject                  = "42710"
	DuplicateTable                   = "42P07"
	DuplicateCursor                  = "42P03"
	DuplicateSchema                  = "42P06"
	AmbiguousColumn                  = "42702"
	AmbiguousFunction                = "42725"
	InvalidColumnReference           = "42P10"
	InvalidRecursion                 = "42P19"
	InvalidName                      = "42602"
	InvalidParameterValueSyntax      = "42P18"
	IndeterminateDatatype            = "42P18"
	DuplicatePreparedStatement       = "42P05"

	// Class 53: insufficient resources.
	InsufficientResources      = "53000"
	DiskFull                   = "53100"
	OutOfMemory                = "53200"
	TooManyConnections         = "53300"
	ConfigurationLimitExceeded = "53400"

	// Class 54: program limit exceeded.
	ProgramLimitExceeded = "54000"
	StatementTooComplex  = "54001"

	// Class 55: object not in prerequisite state.
	ObjectNotInPrerequisiteState = "55000"
	CantChangeRuntimeParam       = "55P02"

	// Class 57: operator intervention.
	QueryCanceled      = "57014"
	AdminShutdown      = "57P01"
	IdleSessionTimeout = "57P05"

	// Class 58: system error (errors external to the server).
	SystemError = "58000"
	IOError     = "58030"

	// Class XX: internal error.
	InternalError = "XX000"
	DataCorrupted = "XX001"
)
