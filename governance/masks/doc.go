// Package masks is gate two's mask vocabulary: it turns the mask type of a
// Ranger data-mask policy into the SQL expression that replaces one
// column's value.
//
// The vocabulary is the hive service definition's (MASK, MASK_SHOW_LAST_4,
// MASK_SHOW_FIRST_4, MASK_HASH, MASK_NULL, MASK_NONE, MASK_DATE_SHOW_YEAR,
// CUSTOM), under its bare names or qualified by the component as tag
// policies write them ("hive:MASK_SHOW_LAST_4"). Each built-in type is
// the service definition's transformer, a call of one of Hive's mask
// functions, which the engine implements; so one policy renders the same
// value in SQE and in Hive or Spark. A type this package cannot turn into
// an expression (another component's, an unknown one, a CUSTOM mask
// without an expression) is an error, on which the caller makes the
// column NULL: a mask that cannot be built fails closed.
package masks
