package org.mrconf.replay;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The typed field readers of {@link SidecarReader}: each checks one field's type and range and throws a {@link
 * VectorException} naming the file and the field's JSON path.
 */
final class SidecarFields {
    static final Pattern HEX = Pattern.compile("([0-9a-f]{2})*");
    static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    static final Pattern U64 = Pattern.compile("0x[0-9a-fA-F]{1,16}");

    final Path file;

    SidecarFields(final Path file) {
        this.file = file;
    }

    void only(final JsonNode node, final String at, final String... allowed) throws VectorException {
        if (!node.isObject()) {
            throw new VectorException(file, at, "must be an object");
        }
        final Set<String> names = Set.of(allowed);
        for (final Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            final String name = it.next();
            if (!names.contains(name)) {
                throw new VectorException(
                        file,
                        at + "." + name,
                        "is not a field of a vector sidecar (known: " + String.join(", ", allowed) + ")");
            }
        }
    }

    JsonNode object(final JsonNode node, final String at, final String name) throws VectorException {
        final JsonNode value = node.get(name);
        if (value == null || !value.isObject()) {
            throw new VectorException(file, at + "." + name, value == null ? "is missing" : "must be an object");
        }
        return value;
    }

    List<JsonNode> array(final JsonNode node, final String at, final String name, final boolean required)
            throws VectorException {
        final JsonNode value = node.get(name);
        if (value == null) {
            if (required) {
                throw new VectorException(file, at + "." + name, "is missing");
            }
            return List.of();
        }
        if (!value.isArray()) {
            throw new VectorException(file, at + "." + name, "must be an array");
        }
        final List<JsonNode> out = new ArrayList<>();
        value.forEach(out::add);
        return out;
    }

    String string(final JsonNode node, final String at, final String name) throws VectorException {
        final JsonNode value = node.get(name);
        if (value == null) {
            throw new VectorException(file, at + "." + name, "is missing");
        }
        return text(value, at + "." + name);
    }

    String text(final JsonNode value, final String at) throws VectorException {
        if (!value.isTextual() || value.asText().isBlank()) {
            throw new VectorException(file, at, "must be a non-empty string");
        }
        return value.asText();
    }

    String oneOf(final JsonNode node, final String at, final String name, final Set<String> allowed)
            throws VectorException {
        final JsonNode value = node.get(name);
        if (value == null) {
            throw new VectorException(file, at + "." + name, "is missing");
        }
        return oneOfText(value, at + "." + name, allowed);
    }

    String oneOfText(final JsonNode value, final String at, final Set<String> allowed) throws VectorException {
        final String text = text(value, at);
        if (!allowed.contains(text)) {
            throw new VectorException(
                    file, at, "is '" + text + "'; must be one of " + new java.util.TreeSet<>(allowed));
        }
        return text;
    }

    String matching(final JsonNode value, final String at, final Pattern pattern, final String what)
            throws VectorException {
        final String text = text(value, at);
        if (!pattern.matcher(text).matches()) {
            throw new VectorException(file, at, "is '" + text + "'; must be " + what);
        }
        return text;
    }

    long integer(final JsonNode node, final String at, final String name, final long min, final long max)
            throws VectorException {
        final JsonNode value = node.get(name);
        if (value == null) {
            throw new VectorException(file, at + "." + name, "is missing");
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new VectorException(file, at + "." + name, "must be a whole number");
        }
        final long v = value.asLong();
        if (v < min || v > max) {
            throw new VectorException(file, at + "." + name, "is " + v + "; must be " + min + " to " + max);
        }
        return v;
    }

    long u64(final JsonNode node, final String at, final String name) throws VectorException {
        final JsonNode value = node.get(name);
        if (value == null) {
            throw new VectorException(file, at + "." + name, "is missing");
        }
        final String text = text(value, at + "." + name);
        if (!U64.matcher(text).matches()) {
            throw new VectorException(file, at + "." + name, "is '" + text + "'; must be hex such as 0x70000000");
        }
        return Long.parseUnsignedLong(text.substring(2), 16);
    }

    long u32(final JsonNode node, final String at, final String name) throws VectorException {
        final long value = u64(node, at, name);
        if ((value & ~0xFFFF_FFFFL) != 0) {
            throw new VectorException(file, at + "." + name, "must fit 32 bits");
        }
        return value;
    }

    boolean bool(final JsonNode node, final String at, final String name) throws VectorException {
        final JsonNode value = node.get(name);
        if (!value.isBoolean()) {
            throw new VectorException(file, at + "." + name, "must be true or false");
        }
        return value.asBoolean();
    }

    /** An optional whole number from 0 to {@code max}, empty when the field is absent. */
    OptionalLong optional(final JsonNode node, final String at, final String name, final long max)
            throws VectorException {
        return node.has(name) ? OptionalLong.of(integer(node, at, name, 0, max)) : OptionalLong.empty();
    }

    /** An optional array of work request ids, empty when the field is absent. */
    List<Long> wrIds(final JsonNode node, final String at, final String name) throws VectorException {
        final List<Long> ids = new ArrayList<>();
        for (final JsonNode wrId : array(node, at, name, false)) {
            if (!wrId.isIntegralNumber() || wrId.asLong() < 0) {
                throw new VectorException(file, at + "." + name + "[]", "must be work request ids");
            }
            ids.add(wrId.asLong());
        }
        return List.copyOf(ids);
    }
}
