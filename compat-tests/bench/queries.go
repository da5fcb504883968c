package main

// benchQuery is one timed query. Its answer (the first run's rows, as
// text) is kept to check that SQE and PostgreSQL computed the same thing.
type benchQuery struct {
	label string
	sql   string
}

// benchQueries are the timed aggregate queries, in report order.
var benchQueries = []benchQuery{
	{label: "Q1 count(*)", sql: "SELECT count(*) FROM acdemo.sales"},
	{label: "Q2 sum WHERE region='EU'", sql: "SELECT sum(quantity) FROM acdemo.sales WHERE region = 'EU'"},
	{label: "Q3 GROUP BY region, product",
		sql: "SELECT region, product, count(*), sum(quantity), avg(discount) FROM acdemo.sales GROUP BY region, product"},
}

// streamQuery reads the whole table, a few columns wide: it measures how
// fast rows flow from storage to the client.
const streamQuery = "SELECT id, region, product, quantity FROM acdemo.sales"

// streamLabel names streamQuery in the report.
const streamLabel = "stream 4 cols, all rows"
