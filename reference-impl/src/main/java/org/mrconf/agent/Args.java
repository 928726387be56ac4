package org.mrconf.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Typed reads of a request's {@code args} object. Every failure is an {@code invalid_argument}
 * {@link RequestError} naming the field as {@code args.<name>}, so operations read arguments in one line.
 */
final class Args {
    /** Largest u32. */
    static final long U32_MAX = 0xFFFF_FFFFL;
    /** Largest work request id: numbers stay exact in JSON (2^53 - 1). */
    static final long WR_ID_MAX = (1L << 53) - 1;

    private static final Pattern U64 = Pattern.compile("0x[0-9a-fA-F]{1,16}");
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9a-fA-F:.]+");

    private final ObjectNode args;

    Args(final ObjectNode args) {
        this.args = args;
    }

    /** A required integer in [{@code min}, {@code max}]. */
    long integer(final String name, final long min, final long max) {
        final JsonNode node = args.get(name);
        if (node == null || node.isNull()) {
            throw RequestError.invalidArgument(
                    field(name), name + " is required: an integer from " + min + " to " + max);
        }
        return checkInteger(name, node, min, max);
    }

    /** An optional integer in [{@code min}, {@code max}], {@code otherwise} when absent. */
    long integer(final String name, final long min, final long max, final long otherwise) {
        final JsonNode node = args.get(name);
        return node == null || node.isNull() ? otherwise : checkInteger(name, node, min, max);
    }

    boolean has(final String name) {
        final JsonNode node = args.get(name);
        return node != null && !node.isNull();
    }

    /** A u32 number: keys, connection ids, immediates. */
    long u32(final String name) {
        return integer(name, 0, U32_MAX);
    }

    /** A 64-bit value: {@code "0x"} and 1 to 16 hex digits. */
    long u64(final String name) {
        final JsonNode node = args.get(name);
        if (node == null || !node.isTextual() || !U64.matcher(node.textValue()).matches()) {
            throw RequestError.invalidArgument(
                    field(name), name + " must be a string \"0x\" followed by 1 to 16 hex digits");
        }
        return Long.parseUnsignedLong(node.textValue().substring(2), 16);
    }

    /** An optional string, or null. */
    String optionalString(final String name) {
        final JsonNode node = args.get(name);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw RequestError.invalidArgument(field(name), name + " must be a string");
        }
        return node.textValue();
    }

    /** A required array of strings. */
    List<String> strings(final String name) {
        final JsonNode node = args.get(name);
        if (node == null || !node.isArray()) {
            throw RequestError.invalidArgument(field(name), name + " is required: an array of strings");
        }
        final List<String> values = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            if (!node.get(i).isTextual()) {
                throw RequestError.invalidArgument(field(name) + "[" + i + "]", name + " must hold strings only");
            }
            values.add(node.get(i).textValue());
        }
        return values;
    }

    /** A required array of integers, each in [{@code min}, {@code max}]. */
    List<Long> integers(final String name, final long min, final long max) {
        final JsonNode node = args.get(name);
        if (node == null || !node.isArray()) {
            throw RequestError.invalidArgument(field(name), name + " is required: an array of integers");
        }
        final List<Long> values = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            values.add(checkInteger(name + "[" + i + "]", node.get(i), min, max));
        }
        return values;
    }

    /** Base64 bytes (RFC 4648), at most {@code maxBytes} once decoded. */
    byte[] base64(final String name, final int maxBytes) {
        final JsonNode node = args.get(name);
        if (node == null || !node.isTextual()) {
            throw RequestError.invalidArgument(field(name), name + " is required: a base64 string");
        }
        final String text = node.textValue();
        if ((long) text.length() * 3 / 4 > maxBytes + 2L) {
            throw RequestError.invalidArgument(field(name), name + " must hold at most " + maxBytes + " bytes");
        }
        final byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(text);
        } catch (final IllegalArgumentException e) {
            throw RequestError.invalidArgument(field(name), name + " is not base64: " + e.getMessage());
        }
        if (bytes.length > maxBytes) {
            throw RequestError.invalidArgument(field(name), name + " must hold at most " + maxBytes + " bytes");
        }
        return bytes;
    }

    /** A literal IPv4 or IPv6 address; never a host name, so nothing is looked up. */
    InetAddress ipLiteral(final String name) {
        final JsonNode node = args.get(name);
        if (node == null || !node.isTextual()) {
            throw RequestError.invalidArgument(field(name), name + " is required: a literal IPv4 or IPv6 address");
        }
        final InetAddress address = parseIpLiteral(node.textValue());
        if (address == null) {
            throw RequestError.invalidArgument(
                    field(name), name + " '" + node.textValue() + "' is not a literal IPv4 or IPv6 address");
        }
        return address;
    }

    /** Parses a literal IP address without any name lookup, or returns null. */
    static InetAddress parseIpLiteral(final String text) {
        try {
            final var v4 = IPV4.matcher(text);
            if (v4.matches()) {
                final byte[] bytes = new byte[4];
                for (int i = 0; i < 4; i++) {
                    final int octet = Integer.parseInt(v4.group(i + 1));
                    if (octet > 255) {
                        return null;
                    }
                    bytes[i] = (byte) octet;
                }
                return InetAddress.getByAddress(bytes);
            }
            // With a colon and only these characters, getByName parses an IPv6 literal and never looks it up.
            if (text.indexOf(':') >= 0 && IPV6_CHARS.matcher(text).matches()) {
                return InetAddress.getByName(text);
            }
        } catch (final UnknownHostException | NumberFormatException e) {
            return null;
        }
        return null;
    }

    private static long checkInteger(final String name, final JsonNode node, final long min, final long max) {
        if (node.isIntegralNumber()) {
            final BigInteger value = node.bigIntegerValue();
            if (value.compareTo(BigInteger.valueOf(min)) >= 0 && value.compareTo(BigInteger.valueOf(max)) <= 0) {
                return value.longValue();
            }
        }
        throw RequestError.invalidArgument(field(name), name + " must be an integer from " + min + " to " + max);
    }

    private static String field(final String name) {
        return "args." + name;
    }
}
