package datagen

import "github.com/apache/arrow-go/v18/arrow"

// money is the type of every TPC-H decimal column.
var money = &arrow.Decimal128Type{Precision: 15, Scale: 2}

// column is one TPC-H column: its Arrow type and its PostgreSQL type.
// Every TPC-H column is NOT NULL.
type column struct {
	name   string
	arrow  arrow.DataType
	pgType string
}

func key(name string) column     { return column{name, arrow.PrimitiveTypes.Int64, "bigint"} }
func integer(name string) column { return column{name, arrow.PrimitiveTypes.Int32, "integer"} }
func decimal(name string) column { return column{name, money, "numeric(15,2)"} }
func date(name string) column    { return column{name, arrow.FixedWidthTypes.Date32, "date"} }
func varchar(name, pgType string) column {
	return column{name, arrow.BinaryTypes.String, pgType}
}

// The columns follow the specification's clause 1.4, with keys as bigint
// and char(n) as varchar(n), so that no engine pads the values it prints.
var (
	regionColumns = []column{
		key("r_regionkey"), varchar("r_name", "varchar(25)"), varchar("r_comment", "varchar(152)"),
	}
	nationColumns = []column{
		key("n_nationkey"), varchar("n_name", "varchar(25)"), key("n_regionkey"),
		varchar("n_comment", "varchar(152)"),
	}
	supplierColumns = []column{
		key("s_suppkey"), varchar("s_name", "varchar(25)"), varchar("s_address", "varchar(40)"),
		key("s_nationkey"), varchar("s_phone", "varchar(15)"), decimal("s_acctbal"),
		varchar("s_comment", "varchar(101)"),
	}
	customerColumns = []column{
		key("c_custkey"), varchar("c_name", "varchar(25)"), varchar("c_address", "varchar(40)"),
		key("c_nationkey"), varchar("c_phone", "varchar(15)"), decimal("c_acctbal"),
		varchar("c_mktsegment", "varchar(10)"), varchar("c_comment", "varchar(117)"),
	}
	partColumns = []column{
		key("p_partkey"), varchar("p_name", "varchar(55)"), varchar("p_mfgr", "varchar(25)"),
		varchar("p_brand", "varchar(10)"), varchar("p_type", "varchar(25)"), integer("p_size"),
		varchar("p_container", "varchar(10)"), decimal("p_retailprice"),
		varchar("p_comment", "varchar(23)"),
	}
	partsuppColumns = []column{
		key("ps_partkey"), key("ps_suppkey"), integer("ps_availqty"), decimal("ps_supplycost"),
		varchar("ps_comment", "varchar(199)"),
	}
	ordersColumns = []column{
		key("o_orderkey"), key("o_custkey"), varchar("o_orderstatus", "varchar(1)"),
		decimal("o_totalprice"), date("o_orderdate"), varchar("o_orderpriority", "varchar(15)"),
		varchar("o_clerk", "varchar(15)"), integer("o_shippriority"),
		varchar("o_comment", "varchar(79)"),
	}
	lineitemColumns = []column{
		key("l_orderkey"), key("l_partkey"), key("l_suppkey"), integer("l_linenumber"),
		decimal("l_quantity"), decimal("l_extendedprice"), decimal("l_discount"), decimal("l_tax"),
		varchar("l_returnflag", "varchar(1)"), varchar("l_linestatus", "varchar(1)"),
		date("l_shipdate"), date("l_commitdate"), date("l_receiptdate"),
		varchar("l_shipinstruct", "varchar(25)"), varchar("l_shipmode", "varchar(10)"),
		varchar("l_comment", "varchar(44)"),
	}
)

// arrowSchema is the Arrow schema of columns, every field non-nullable.
func arrowSchema(columns []column) *arrow.Schema {
	fields := make([]arrow.Field, len(columns))
	for i, c := range columns {
		fields[i] = arrow.Field{Name: c.name, Type: c.arrow}
	}
	return arrow.NewSchema(fields, nil)
}
