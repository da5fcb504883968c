package masks

// maskType is one mask type of Ranger's hive service definition
// (dataMaskDef.maskTypes) and its transformer: the expression that
// replaces the column, written {col}. MASK_NULL, MASK_NONE and CUSTOM
// have none; Expression writes them itself.
type maskType struct {
	name, transformer string
}

// hiveMaskTypes are the hive service definition's mask types, in its
// order. A test holds them to the reference copy of the definition.
func hiveMaskTypes() []maskType {
	return []maskType{
		{"MASK", "mask({col})"},
		{"MASK_SHOW_LAST_4", "mask_show_last_n({col}, 4, 'x', 'x', 'x', -1, '1')"},
		{"MASK_SHOW_FIRST_4", "mask_show_first_n({col}, 4, 'x', 'x', 'x', -1, '1')"},
		{"MASK_HASH", "mask_hash({col})"},
		{"MASK_NULL", ""},
		{"MASK_NONE", ""},
		{"MASK_DATE_SHOW_YEAR", "mask({col}, 'x', 'x', 'x', -1, '1', 1, 0, -1)"},
		{"CUSTOM", ""},
	}
}

// transformer returns the transformer of the built-in mask type name.
func transformer(name string) (string, bool) {
	for _, t := range hiveMaskTypes() {
		if t.name == name && t.transformer != "" {
			return t.transformer, true
		}
	}
	return "", false
}
