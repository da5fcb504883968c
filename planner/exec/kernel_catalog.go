package exec

// catalogKernel finds the kernels of the operators and functions that
// PostgreSQL's catalog has and the files named after them hold: bitwise
// operators, degree-based trigonometry, isfinite, the numeric scale
// functions, the SHA-2 digests, the regular expression functions of
// PostgreSQL 15, the bits and bytes of bytea, bit_length, num_nulls and
// num_nonnulls, int4inc, and the text output of a boolean.
func catalogKernel(name string) (scalarKernel, bool) {
	if k, ok := bitwiseKernel(name); ok {
		return k, true
	}
	if k, ok := degreesTrigKernel(name); ok {
		return k, true
	}
	if k, ok := numericInfoKernel(name); ok {
		return k, true
	}
	if k, ok := sha2Kernel(name); ok {
		return k, true
	}
	if k, ok := regexpFamilyKernel(name); ok {
		return k, true
	}
	if k, ok := byteaBitsKernel(name); ok {
		return k, true
	}
	if k, ok := jsonbCastKernel(name); ok {
		return k, true
	}
	switch name {
	case "isfinite":
		return isfiniteKernel, true
	case "bit_length":
		return bitLengthKernel, true
	case "num_nulls":
		return nullCountKernel(true), true
	case "num_nonnulls":
		return nullCountKernel(false), true
	case "int4inc":
		return int4IncKernel, true
	case "bool_out":
		return boolOutKernel, true
	}
	return nil, false
}
