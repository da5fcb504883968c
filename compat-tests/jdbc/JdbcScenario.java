import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.postgresql.PGStatement;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * A pgjdbc session against SQE, the way a Java application or a BI tool built on JDBC meets it.
 *
 * <p>Each step records either what the driver returned (values with their Java classes where the
 * mapping is the point) or the SQL error it met. The summary is printed as one JSON list on stdout;
 * the Go test compares it step by step with what PostgreSQL gives.
 *
 * <p>Connection details come from SQE_COMPAT_HOST, SQE_COMPAT_PORT, SQE_COMPAT_USER,
 * SQE_COMPAT_DATABASE and SQE_COMPAT_TOKEN (the password). pgjdbc uses the extended protocol for
 * everything: the unnamed statement first, a named one from the 5th execution of a
 * PreparedStatement and binary results from the 6th; setFetchSize inside a transaction reads
 * through a named portal with Execute(max_rows).
 */
public final class JdbcScenario {
    /** Sorting the million-row table takes seconds: long enough to cancel. */
    private static final String SLOW_QUERY = "SELECT * FROM acdemo.sales ORDER BY product, id";

    /** How many times the prepared statement runs: past pgjdbc's prepareThreshold of 5. */
    private static final int PREPARED_RUNS = 7;

    private final List<Map<String, Object>> steps = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        JdbcScenario s = new JdbcScenario();
        s.run();
        System.out.println(Json.encode(s.steps));
    }

    private interface Step {
        Object run() throws Exception;
    }

    /** Runs one step and records its value or its SQL error. */
    private void step(String name, Step body) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("step", name);
        try {
            Object value = body.run();
            out.put("ok", true);
            out.put("value", value);
        } catch (SQLException e) {
            out.put("ok", false);
            out.put("error", describe(e));
        } catch (Exception e) {
            out.put("ok", false);
            out.put("error", Map.of("exception", e.getClass().getName(), "message", String.valueOf(e.getMessage())));
        }
        steps.add(out);
    }

    /** An SQL error as its SQLSTATE and the server's message (without pgjdbc's "ERROR: " prefix). */
    private static Map<String, Object> describe(SQLException e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sqlstate", e.getSQLState());
        String message = e.getMessage();
        if (e instanceof PSQLException) {
            ServerErrorMessage server = ((PSQLException) e).getServerErrorMessage();
            if (server != null) {
                message = server.getMessage();
            }
        }
        m.put("message", message);
        return m;
    }

    private static Connection connect(String sslmode) throws SQLException {
        return connect(sslmode, new Properties());
    }

    /** Connects with extra driver properties (currentSchema, options). */
    private static Connection connect(String sslmode, Properties extra) throws SQLException {
        String url = "jdbc:postgresql://" + System.getenv("SQE_COMPAT_HOST") + ":" + System.getenv("SQE_COMPAT_PORT")
                + "/" + System.getenv("SQE_COMPAT_DATABASE");
        Properties p = new Properties();
        p.setProperty("user", System.getenv("SQE_COMPAT_USER"));
        p.setProperty("password", System.getenv("SQE_COMPAT_TOKEN"));
        p.setProperty("sslmode", sslmode);
        if (!"disable".equals(sslmode)) {
            // The demo server's certificate is self-signed.
            p.setProperty("sslfactory", "org.postgresql.ssl.NonValidatingFactory");
        }
        p.setProperty("connectTimeout", "10");
        p.setProperty("ApplicationName", "sqe-compat-jdbc");
        p.putAll(extra);
        return DriverManager.getConnection(url, p);
    }

    private void run() throws Exception {
        step("connect tls", () -> {
            try (Connection c = connect("require")) {
                return session(c);
            }
        });
        step("currentSchema", () -> {
            Properties extra = new Properties();
            extra.setProperty("currentSchema", "acdemo");
            try (Connection c = connect("disable", extra)) {
                return startupSettings(c);
            }
        });
        step("options", () -> {
            Properties extra = new Properties();
            extra.setProperty("options", "-c search_path=acdemo -c statement_timeout=5s");
            try (Connection c = connect("disable", extra)) {
                return startupSettings(c);
            }
        });
        step("options refused", () -> {
            Properties extra = new Properties();
            extra.setProperty("options", "-c no_such_setting=1");
            try (Connection c = connect("disable", extra)) {
                return startupSettings(c);
            }
        });
        Connection conn;
        try {
            conn = connect("disable");
        } catch (SQLException e) {
            step("connect plaintext", () -> {
                throw e;
            });
            return;
        }
        try (Connection c = conn) {
            step("connect plaintext", () -> session(c));
            step("prepared statement reuse", () -> preparedReuse(c));
            step("fetch size in transaction", () -> fetchSize(c));
            step("result set metadata", () -> resultSetMetaData(c));
            DatabaseMetaData md = c.getMetaData();
            step("getSchemas", () -> rows(md.getSchemas(), "TABLE_SCHEM"));
            step("getTables", () -> rows(md.getTables(null, "acdemo", "%", new String[] {"TABLE"}),
                    "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS"));
            step("getColumns", () -> rows(md.getColumns(null, "acdemo", "orders", "%"),
                    "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "DECIMAL_DIGITS", "NULLABLE",
                    "ORDINAL_POSITION", "IS_NULLABLE", "IS_AUTOINCREMENT"));
            step("getPrimaryKeys", () -> rows(md.getPrimaryKeys(null, "acdemo", "orders"),
                    "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ"));
            step("getTypeInfo", () -> typeInfo(md));
            step("cancel", () -> cancel(c));
            step("after cancel", () -> scalar(c, "SELECT count(*) FROM acdemo.orders"));
            step("error then rollback", () -> errorThenRollback(c));
        }
    }

    private static Object session(Connection c) throws SQLException {
        Map<String, Object> m = new LinkedHashMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT current_user, current_database()")) {
            rs.next();
            m.put("row", List.of(rs.getString(1), rs.getString(2)));
        }
        DatabaseMetaData md = c.getMetaData();
        m.put("product", md.getDatabaseProductName());
        m.put("major", md.getDatabaseMajorVersion());
        return m;
    }

    /** What the startup parameters made of the session: its schema and where unqualified names go. */
    private static Object startupSettings(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT current_schema(), current_setting('statement_timeout'), count(*) FROM orders")) {
            rs.next();
            return List.of(c.getSchema(), rs.getString(1), rs.getString(2), rs.getLong(3));
        }
    }

    /**
     * Runs one PreparedStatement with int, text and numeric parameters past the prepare threshold.
     * Every execution must decode the same rows, whatever protocol path the driver took.
     */
    private static Object preparedReuse(Connection c) throws SQLException {
        Map<String, Object> m = new LinkedHashMap<>();
        List<Object> runs = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, region, amount, order_date FROM acdemo.orders"
                        + " WHERE id >= ? AND region = ? AND amount > ? ORDER BY id")) {
            for (int i = 0; i < PREPARED_RUNS; i++) {
                ps.setInt(1, 1);
                ps.setString(2, "EU");
                ps.setBigDecimal(3, new BigDecimal("100.00"));
                List<Object> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        List<Object> row = new ArrayList<>();
                        for (int col = 1; col <= 4; col++) {
                            row.add(typed(rs.getObject(col)));
                        }
                        rows.add(row);
                    }
                }
                runs.add(rows);
            }
            m.put("server_prepared", ps.unwrap(PGStatement.class).isUseServerPrepare());
        }
        m.put("runs", runs);
        return m;
    }

    /** Reads through a named portal two rows at a time, inside a transaction. */
    private static Object fetchSize(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try {
            List<Object> ids = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id, region FROM acdemo.orders WHERE id > ? ORDER BY id")) {
                ps.setFetchSize(2);
                ps.setInt(1, 0);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(List.of(rs.getLong(1), rs.getString(2)));
                    }
                }
            }
            c.commit();
            return ids;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private static Object resultSetMetaData(Connection c) throws SQLException {
        List<Object> cols = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT id, region, amount, order_date, id::int AS small, 1.5::float8 AS f, true AS b"
                                + " FROM acdemo.orders ORDER BY id LIMIT 1")) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                Map<String, Object> col = new LinkedHashMap<>();
                col.put("label", md.getColumnLabel(i));
                col.put("type", md.getColumnType(i));
                col.put("type_name", md.getColumnTypeName(i));
                col.put("class", md.getColumnClassName(i));
                col.put("precision", md.getPrecision(i));
                col.put("scale", md.getScale(i));
                col.put("nullable", md.isNullable(i));
                col.put("table", md.getTableName(i));
                cols.add(col);
            }
        }
        return cols;
    }

    private static Object typeInfo(DatabaseMetaData md) throws SQLException {
        Set<String> wanted = Set.of("bool", "int4", "int8", "float8", "numeric", "text", "varchar", "date");
        List<Object> out = new ArrayList<>();
        try (ResultSet rs = md.getTypeInfo()) {
            while (rs.next()) {
                if (wanted.contains(rs.getString("TYPE_NAME"))) {
                    out.add(List.of(rs.getString("TYPE_NAME"), rs.getInt("DATA_TYPE")));
                }
            }
        }
        out.sort((a, b) -> ((List<?>) a).get(0).toString().compareTo(((List<?>) b).get(0).toString()));
        return out;
    }

    /** Cancels the slow query from another thread, repeating until it ends. */
    private static Object cancel(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            AtomicBoolean done = new AtomicBoolean();
            Thread canceller = new Thread(() -> {
                try {
                    while (!done.get()) {
                        Thread.sleep(300);
                        if (!done.get()) {
                            st.cancel();
                        }
                    }
                } catch (Exception e) {
                    // The statement finished or closed: nothing left to cancel.
                }
            });
            canceller.start();
            try (ResultSet rs = st.executeQuery(SLOW_QUERY)) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                return Map.of("rows", n);
            } finally {
                done.set(true);
                canceller.join();
            }
        }
    }

    /** A failed statement aborts the transaction until ROLLBACK. */
    private static Object errorThenRollback(Connection c) throws SQLException {
        Map<String, Object> m = new LinkedHashMap<>();
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            m.put("error", attempt(st, "SELECT 1 / (id - id) FROM acdemo.orders"));
            m.put("next", attempt(st, "SELECT 1"));
            c.rollback();
            m.put("after_rollback", scalar(c, "SELECT count(*) FROM acdemo.orders"));
        } finally {
            c.setAutoCommit(true);
        }
        return m;
    }

    private static Object attempt(Statement st, String sql) {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return Map.of("value", typed(rs.getObject(1)));
        } catch (SQLException e) {
            return describe(e);
        }
    }

    private static Object scalar(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return typed(rs.getObject(1));
        }
    }

    /** A value with its Java class, since which class a type becomes is what is checked. */
    private static Object typed(Object v) {
        if (v == null) {
            return null;
        }
        Object printable = v;
        if (v instanceof BigDecimal) {
            printable = ((BigDecimal) v).toPlainString();
        } else if (!(v instanceof Number || v instanceof Boolean || v instanceof String)) {
            printable = v.toString();
        }
        return List.of(v.getClass().getSimpleName(), printable);
    }

    private static List<Object> rows(ResultSet rs, String... columns) throws SQLException {
        List<Object> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (String col : columns) {
                    row.add(rs.getObject(col) == null ? null : rs.getString(col));
                }
                out.add(row);
            }
        }
        return out;
    }

    /** The little JSON the summary needs: maps, lists, strings, numbers, booleans and null. */
    static final class Json {
        private Json() {}

        static String encode(Object v) {
            StringBuilder b = new StringBuilder();
            write(b, v);
            return b.toString();
        }

        private static void write(StringBuilder b, Object v) {
            if (v == null) {
                b.append("null");
            } else if (v instanceof String) {
                quote(b, (String) v);
            } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Short) {
                b.append(v);
            } else if (v instanceof Number) {
                quote(b, v.toString());
            } else if (v instanceof Map) {
                b.append('{');
                Iterator<? extends Map.Entry<?, ?>> it = ((Map<?, ?>) v).entrySet().iterator();
                while (it.hasNext()) {
                    Map.Entry<?, ?> e = it.next();
                    quote(b, e.getKey().toString());
                    b.append(':');
                    write(b, e.getValue());
                    if (it.hasNext()) {
                        b.append(',');
                    }
                }
                b.append('}');
            } else if (v instanceof List) {
                b.append('[');
                List<?> l = (List<?>) v;
                for (int i = 0; i < l.size(); i++) {
                    if (i > 0) {
                        b.append(',');
                    }
                    write(b, l.get(i));
                }
                b.append(']');
            } else {
                quote(b, v.toString());
            }
        }

        private static void quote(StringBuilder b, String s) {
            b.append('"');
            for (char ch : s.toCharArray()) {
                switch (ch) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> {
                        if (ch < 0x20) {
                            b.append(String.format("\\u%04x", (int) ch));
                        } else {
                            b.append(ch);
                        }
                    }
                }
            }
            b.append('"');
        }
    }
}
