package storage

// Iceberg has fewer types than PostgreSQL: a smallint column is stored
// as int and a varchar(n) as string. The type a column was declared
// with is kept as a table property, so that the SQL layer can present
// the column as declared.

// declaredTypePrefix starts the property that holds a column's declared
// PostgreSQL type ("smallint", "varchar(20)").
const declaredTypePrefix = "sqe.declared-type."

// DeclaredTypeProperty is the table property naming column's declared
// type, for CreateTableOptions.Properties.
func DeclaredTypeProperty(column string) string { return declaredTypePrefix + column }

// DeclaredType is column's declared PostgreSQL type, "" when the table
// does not record one.
func (t *Table) DeclaredType(column string) string {
	return t.tbl.Properties()[declaredTypePrefix+column]
}
