package org.mrconf.dut;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Typed, path-naming reads of a Jackson tree, shared by the control client (response fields) and the profile
 * loader (profile fields): every failure is a {@link FieldException} naming the JSON path, e.g.
 * {@code parameters.timers.minRtoUs}, so users see which field to fix.
 */
final class JsonFields {
    private static final Pattern U64 = Pattern.compile("0x[0-9a-fA-F]{1,16}");
    private static final Pattern IPV4_LITERAL = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    private static final Pattern IPV6_LITERAL =
            Pattern.compile("[0-9a-fA-F:][0-9a-fA-F:.]*:[0-9a-fA-F:.]*(%[A-Za-z0-9_.-]+)?");

    /** A field is missing, mistyped or out of range. */
    static class FieldException extends Exception {
        private static final long serialVersionUID = 1L;

        private final String field;
        private final String problem;

        FieldException(String field, String problem) {
            super(field + ": " + problem);
            this.field = field;
            this.problem = problem;
        }

        FieldException(String field, String problem, Throwable cause) {
            super(field + ": " + problem, cause);
            this.field = field;
            this.problem = problem;
        }

        String field() {
            return field;
        }

        String problem() {
            return problem;
        }
    }

    private JsonFields() {}

    static String path(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }

    static String index(String parent, int i) {
        return parent + "[" + i + "]";
    }

    static ObjectNode asObject(JsonNode node, String path) throws FieldException {
        if (node == null || node.isMissingNode()) {
            throw new FieldException(path, "missing");
        }
        if (!node.isObject()) {
            throw new FieldException(path, "must be an object, found " + describe(node));
        }
        return (ObjectNode) node;
    }

    /** Fails on the first field of {@code object} not in {@code allowed}, naming it. */
    static void onlyFields(ObjectNode object, String path, Set<String> allowed) throws FieldException {
        Iterator<String> names = object.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new FieldException(path(path, name), "unknown field, expected one of " + sorted(allowed));
            }
        }
    }

    static ObjectNode object(ObjectNode parent, String path, String name) throws FieldException {
        return asObject(required(parent, path, name), path(path, name));
    }

    static boolean has(ObjectNode parent, String name) {
        JsonNode node = parent.get(name);
        return node != null && !node.isNull();
    }

    static JsonNode required(ObjectNode parent, String path, String name) throws FieldException {
        JsonNode node = parent.get(name);
        if (node == null || node.isNull()) {
            throw new FieldException(path(path, name), "missing");
        }
        return node;
    }

    static String string(ObjectNode parent, String path, String name) throws FieldException {
        return asString(required(parent, path, name), path(path, name));
    }

    static String asString(JsonNode node, String path) throws FieldException {
        if (!node.isTextual()) {
            throw new FieldException(path, "must be a string, found " + describe(node));
        }
        return node.textValue();
    }

    static String nonEmptyString(ObjectNode parent, String path, String name) throws FieldException {
        String value = string(parent, path, name);
        if (value.isBlank()) {
            throw new FieldException(path(path, name), "must not be empty");
        }
        return value;
    }

    static boolean bool(ObjectNode parent, String path, String name) throws FieldException {
        JsonNode node = required(parent, path, name);
        if (!node.isBoolean()) {
            throw new FieldException(path(path, name), "must be true or false, found " + describe(node));
        }
        return node.booleanValue();
    }

    static long integer(ObjectNode parent, String path, String name, long min, long max) throws FieldException {
        return asInteger(required(parent, path, name), path(path, name), min, max);
    }

    static long asInteger(JsonNode node, String path, long min, long max) throws FieldException {
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new FieldException(path, "must be an integer, found " + describe(node));
        }
        long value = node.longValue();
        if (value < min || value > max) {
            throw new FieldException(path, "must be " + min + " to " + max + ", found " + value);
        }
        return value;
    }

    static double number(ObjectNode parent, String path, String name, double min, double max) throws FieldException {
        JsonNode node = required(parent, path, name);
        if (!node.isNumber()) {
            throw new FieldException(path(path, name), "must be a number, found " + describe(node));
        }
        double value = node.doubleValue();
        if (!(value >= min && value <= max)) {
            throw new FieldException(path(path, name), "must be " + min + " to " + max + ", found " + value);
        }
        return value;
    }

    static ArrayNode array(ObjectNode parent, String path, String name) throws FieldException {
        JsonNode node = required(parent, path, name);
        if (!node.isArray()) {
            throw new FieldException(path(path, name), "must be an array, found " + describe(node));
        }
        return (ArrayNode) node;
    }

    static List<String> strings(ObjectNode parent, String path, String name) throws FieldException {
        ArrayNode array = array(parent, path, name);
        List<String> values = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            values.add(asString(array.get(i), index(path(path, name), i)));
        }
        return values;
    }

    /** A 64-bit value in the protocol's {@code "0x..."} form (section 2, Numbers). */
    static long asU64(JsonNode node, String path) throws FieldException {
        String text = asString(node, path);
        if (!U64.matcher(text).matches()) {
            throw new FieldException(path, "must be \"0x\" and 1 to 16 hex digits, found \"" + text + "\"");
        }
        return Long.parseUnsignedLong(text.substring(2), 16);
    }

    static String u64(long value) {
        return "0x" + Long.toHexString(value);
    }

    /** An IPv4 or IPv6 literal; names are refused so nothing is ever looked up in DNS. */
    static InetAddress asAddress(JsonNode node, String path) throws FieldException {
        String text = asString(node, path);
        InetAddress address = parseLiteral(text);
        if (address == null) {
            throw new FieldException(path, "must be an IPv4 or IPv6 address literal, found \"" + text + "\"");
        }
        return address;
    }

    /** The address for an IPv4 or IPv6 literal, or {@code null} if the text is not one; never resolves names. */
    static InetAddress parseLiteral(String text) {
        try {
            if (IPV4_LITERAL.matcher(text).matches()) {
                String[] parts = text.split("\\.");
                byte[] bytes = new byte[4];
                for (int i = 0; i < 4; i++) {
                    int octet = Integer.parseInt(parts[i]);
                    if (octet > 255) {
                        return null;
                    }
                    bytes[i] = (byte) octet;
                }
                return InetAddress.getByAddress(bytes);
            }
            // Starting with a hex digit or ':' and holding a ':' keeps the JDK on its numeric parser (no DNS).
            if (IPV6_LITERAL.matcher(text).matches()) {
                InetAddress address = InetAddress.getByName(text);
                return address instanceof Inet6Address ? address : null;
            }
            return null;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    static String describe(JsonNode node) {
        if (node.isTextual()) {
            return "string \"" + abbreviate(node.textValue()) + "\"";
        }
        if (node.isNumber() || node.isBoolean() || node.isNull()) {
            return node.getNodeType().name().toLowerCase(Locale.ROOT) + " " + node;
        }
        return node.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }

    private static String sorted(Set<String> names) {
        List<String> list = new ArrayList<>(names);
        list.sort(null);
        return String.join(", ", list);
    }
}
