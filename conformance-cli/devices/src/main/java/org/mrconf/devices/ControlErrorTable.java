package org.mrconf.devices;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The bad requests of {@code docs/dut-control-protocol.md} and the answer the document gives each: its error table
 * (section 2, "Error codes" and "Which error wins") and section 4's argument rules and "Buffers at a region's end",
 * as data. {@link AgentErrorCheck} sends them. Every request here is one the document says is rejected without effect,
 * or accepted without effect (an empty write).
 *
 * <p>A request is a JSON line with placeholders that the check fills in: {@code $ID} (a string id, which the answer
 * must echo; a request without it must be answered with {@code id} null), {@code $WRONG_TOKEN}, {@code $HUGE} (a
 * string that makes the line pass 1 MiB), the check's region ({@code $KEY}, {@code $BASE}, {@code $END} and the
 * addresses around them) and connection ({@code $CONN}), and names that exist nowhere ({@code $OTHER_KEY},
 * {@code $OTHER_CONN}). The check adds the profile's token to every request that names no token itself.
 */
public final class ControlErrorTable {
    /** The code of a request the document says is accepted. */
    public static final String ACCEPTED = "success";

    /** What a row needs before it can be sent. */
    public enum Needs {
        /** The agent is reached over TCP, where a line has the 1 MiB limit of section 1. */
        TCP,
        /** The profile gives a token (else the agent takes any request without one). */
        TOKEN,
        /** The check's region is registered. */
        REGION,
        /** The check's connection is created (and its region registered). */
        CONNECTION,
        /** The device claims the read profile ({@code post_read} is offered). */
        READ,
        /** The device does not claim the read profile ({@code post_read} is not offered). */
        NO_READ
    }

    /**
     * One row: what is sent, where the document says what it gets, the request line, and the answer.
     *
     * @param name  the request in words, as the check prints it
     * @param where the document's section that fixes the answer
     * @param line  the request, with placeholders
     * @param code  the expected {@code error.code}, or {@link #ACCEPTED}
     * @param field the expected {@code error.field}, or {@code null} when the document does not fix it
     * @param needs what must be in place to send it
     */
    public record Row(String name, String where, String line, String code, String field, Set<Needs> needs) {
        public Row {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(where, "where");
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(code, "code");
            needs = Set.copyOf(needs);
        }

        /** Whether the answer must echo the request's id ({@code null} otherwise: section 2, "The id"). */
        public boolean echoesId() {
            return line.contains("$ID");
        }

        /** The answer in words: {@code invalid_argument on args.length}. */
        public String answer() {
            return field == null ? code : code + " on " + field;
        }
    }

    private static final String ENVELOPE = "section 2, Error codes";
    private static final String ORDER = "section 2, Which error wins";
    private static final String NUMBERS = "section 2, Numbers";
    private static final String ARGUMENTS = "section 4, every operation";
    private static final String REGION_END = "section 4, Buffers at a region's end";

    private static final String REGION_ARGS = "\"key\":$KEY";
    private static final String WORK = "\"connection\":$CONN,\"stream\":0," + REGION_ARGS;

    private static final List<Row> ROWS = List.of(
            row("a line that is not JSON", ENVELOPE, "this is not JSON", "parse_error", null),
            row("a JSON array, not an object", ENVELOPE, "[1,2,3]", "parse_error", null),
            row(
                    "a line over 1 MiB",
                    ENVELOPE,
                    "{\"v\":1,\"op\":\"hello\",\"args\":{\"client\":\"$HUGE\"}}",
                    "request_too_large",
                    null,
                    Needs.TCP),
            row(
                    "a wrong token, and v 2",
                    "section 3",
                    "{\"v\":2,\"id\":$ID,\"op\":\"hello\",\"token\":\"$WRONG_TOKEN\"}",
                    "unauthorized",
                    null,
                    Needs.TOKEN),
            row(
                    "a wrong token, and no op",
                    "section 3",
                    "{\"v\":1,\"id\":$ID,\"token\":\"$WRONG_TOKEN\"}",
                    "unauthorized",
                    null,
                    Needs.TOKEN),
            row("no v", ORDER, "{\"id\":$ID,\"op\":\"hello\"}", "unsupported_version", "v"),
            row("v 2", ORDER, "{\"v\":2,\"id\":$ID,\"op\":\"hello\"}", "unsupported_version", "v"),
            row("v 1.0", NUMBERS, "{\"v\":1.0,\"id\":$ID,\"op\":\"hello\"}", "unsupported_version", "v"),
            row("v \"1\"", NUMBERS, "{\"v\":\"1\",\"id\":$ID,\"op\":\"hello\"}", "unsupported_version", "v"),
            row("v 2 and no op", ORDER, "{\"v\":2,\"id\":$ID}", "unsupported_version", "v"),
            row("no id", ORDER, "{\"v\":1,\"op\":\"hello\"}", "invalid_request", "id"),
            row("id true", ORDER, "{\"v\":1,\"id\":true,\"op\":\"hello\"}", "invalid_request", "id"),
            row("id 1.0", NUMBERS, "{\"v\":1,\"id\":1.0,\"op\":\"hello\"}", "invalid_request", "id"),
            row("no id and no op", ORDER, "{\"v\":1}", "invalid_request", "id"),
            row("no op", ORDER, "{\"v\":1,\"id\":$ID}", "invalid_request", "op"),
            row("op 7", ORDER, "{\"v\":1,\"id\":$ID,\"op\":7}", "invalid_request", "op"),
            row("args [1]", ORDER, "{\"v\":1,\"id\":$ID,\"op\":\"hello\",\"args\":[1]}", "invalid_request", "args"),
            row(
                    "an unknown op with args 7",
                    ORDER,
                    "{\"v\":1,\"id\":$ID,\"op\":\"no_such_op\",\"args\":7}",
                    "invalid_request",
                    "args"),
            row("an unknown op", ENVELOPE, "{\"v\":1,\"id\":$ID,\"op\":\"no_such_op\"}", "unknown_op", null),
            row(
                    "an unknown op with bad arguments",
                    ORDER,
                    "{\"v\":1,\"id\":$ID,\"op\":\"no_such_op\",\"args\":{\"localId\":\"x\"}}",
                    "unknown_op",
                    null),
            row(
                    "hello with versions [2]",
                    "section 4, hello",
                    op("hello", "\"versions\":[2]"),
                    "unsupported_version",
                    null),
            row(
                    "destroy_connection without localId",
                    ARGUMENTS,
                    op("destroy_connection", ""),
                    "invalid_argument",
                    "args.localId"),
            row(
                    "destroy_connection with localId \"1\"",
                    ARGUMENTS,
                    op("destroy_connection", "\"localId\":\"1\""),
                    "invalid_argument",
                    "args.localId"),
            row(
                    "destroy_connection with localId 1.0",
                    NUMBERS,
                    op("destroy_connection", "\"localId\":1.0"),
                    "invalid_argument",
                    "args.localId"),
            row(
                    "destroy_connection with localId 2^32",
                    ARGUMENTS,
                    op("destroy_connection", "\"localId\":4294967296"),
                    "invalid_argument",
                    "args.localId"),
            row(
                    "destroy_connection of an unknown connection",
                    ARGUMENTS,
                    op("destroy_connection", "\"localId\":$OTHER_CONN"),
                    "not_found",
                    "args.localId"),
            row(
                    "invalidate_region of an unknown key",
                    ARGUMENTS,
                    op("invalidate_region", "\"key\":$OTHER_KEY"),
                    "not_found",
                    "args.key"),
            row("poll_completions without max", ARGUMENTS, op("poll_completions", ""), "invalid_argument", "args.max"),
            row(
                    "register_region at address \"0X10\"",
                    NUMBERS,
                    op("register_region", "\"address\":\"0X10\",\"length\":4096,\"access\":[]"),
                    "invalid_argument",
                    "args.address"),
            row(
                    "register_region of length 0",
                    ARGUMENTS,
                    op("register_region", "\"address\":\"0x10000000\",\"length\":0,\"access\":[]"),
                    "invalid_argument",
                    "args.length"),
            row(
                    "register_region with access [\"LOCAL_WRITE\",\"BOGUS\"]",
                    ARGUMENTS,
                    op(
                            "register_region",
                            "\"address\":\"0x10000000\",\"length\":4096,\"access\":[\"LOCAL_WRITE\",\"BOGUS\"]"),
                    "invalid_argument",
                    "args.access[1]"),
            row(
                    "register_region that would wrap past 2^64 - 1",
                    REGION_END,
                    op("register_region", "\"address\":\"0xfffffffffffff000\",\"length\":8192,\"access\":[]"),
                    "invalid_argument",
                    "args.length"),
            row(
                    "post_send to an unknown connection with a malformed length",
                    ORDER,
                    op(
                            "post_send",
                            "\"connection\":$OTHER_CONN,\"stream\":0,\"key\":$OTHER_KEY,\"address\":\"0x0\","
                                    + "\"length\":\"x\",\"wrId\":1"),
                    "not_found",
                    "args.connection"),
            row(
                    "read_region of an unknown key",
                    ARGUMENTS,
                    op("read_region", "\"key\":$OTHER_KEY,\"address\":\"$BASE\",\"length\":1"),
                    "not_found",
                    "args.key",
                    Needs.REGION),
            row(
                    "read_region of length 0",
                    ARGUMENTS,
                    op("read_region", REGION_ARGS + ",\"address\":\"$BASE\",\"length\":0"),
                    "invalid_argument",
                    "args.length",
                    Needs.REGION),
            row(
                    "write_region of 1 byte at the region's end",
                    REGION_END,
                    op("write_region", REGION_ARGS + ",\"address\":\"$END\",\"data\":\"AA==\""),
                    "invalid_argument",
                    "args.data",
                    Needs.REGION),
            row(
                    "write_region of 2 bytes 1 byte before the region's end",
                    REGION_END,
                    op("write_region", REGION_ARGS + ",\"address\":\"$NEAR_END\",\"data\":\"AAA=\""),
                    "invalid_argument",
                    "args.data",
                    Needs.REGION),
            row(
                    "write_region before the region's base",
                    REGION_END,
                    op("write_region", REGION_ARGS + ",\"address\":\"$BEFORE_BASE\",\"data\":\"AA==\""),
                    "invalid_argument",
                    "args.address",
                    Needs.REGION),
            row(
                    "write_region of empty data after the region's end",
                    REGION_END,
                    op("write_region", REGION_ARGS + ",\"address\":\"$AFTER_END\",\"data\":\"\""),
                    "invalid_argument",
                    "args.address",
                    Needs.REGION),
            row(
                    "write_region of empty data at the region's end",
                    REGION_END,
                    op("write_region", REGION_ARGS + ",\"address\":\"$END\",\"data\":\"\""),
                    ACCEPTED,
                    null,
                    Needs.REGION),
            row(
                    "read_region of 1 byte at the region's end",
                    REGION_END,
                    op("read_region", REGION_ARGS + ",\"address\":\"$END\",\"length\":1"),
                    "invalid_argument",
                    "args.length",
                    Needs.REGION),
            row(
                    "read_region after the region's end",
                    REGION_END,
                    op("read_region", REGION_ARGS + ",\"address\":\"$AFTER_END\",\"length\":1"),
                    "invalid_argument",
                    "args.address",
                    Needs.REGION),
            row(
                    "post_receive of 1 byte at the region's end",
                    REGION_END,
                    op("post_receive", WORK + ",\"address\":\"$END\",\"length\":1,\"wrId\":1"),
                    "invalid_argument",
                    "args.length",
                    Needs.CONNECTION),
            row(
                    "post_send of 2 bytes 1 byte before the region's end",
                    REGION_END,
                    op("post_send", WORK + ",\"address\":\"$NEAR_END\",\"length\":2,\"wrId\":1"),
                    "invalid_argument",
                    "args.length",
                    Needs.CONNECTION),
            row(
                    "post_write before the region's base",
                    REGION_END,
                    op(
                            "post_write",
                            WORK + ",\"address\":\"$BEFORE_BASE\",\"length\":1,\"remoteAddress\":\"0x0\","
                                    + "\"remoteKey\":1,\"wrId\":1"),
                    "invalid_argument",
                    "args.address",
                    Needs.CONNECTION),
            row(
                    "post_read of 1 byte at the region's end",
                    REGION_END,
                    op(
                            "post_read",
                            WORK + ",\"address\":\"$END\",\"length\":1,\"remoteAddress\":\"0x0\","
                                    + "\"remoteKey\":1,\"wrId\":1"),
                    "invalid_argument",
                    "args.length",
                    Needs.CONNECTION,
                    Needs.READ),
            row(
                    "post_read on a device without the read profile, with bad arguments",
                    "section 4, post_read",
                    op("post_read", "\"connection\":\"x\""),
                    "unknown_op",
                    null,
                    Needs.NO_READ),
            row(
                    "post_send on stream 1 of a one-stream connection",
                    ARGUMENTS,
                    op(
                            "post_send",
                            "\"connection\":$CONN,\"stream\":1," + REGION_ARGS
                                    + ",\"address\":\"$BASE\",\"length\":1,\"wrId\":1"),
                    "invalid_argument",
                    "args.stream",
                    Needs.CONNECTION),
            row(
                    "create_connection with a localId in use",
                    ORDER + ", step 7",
                    op(
                            "create_connection",
                            "\"localId\":$CONN,\"peerId\":$CONN,\"peerAddress\":\"$PEER_ADDRESS\","
                                    + "\"peerPort\":$PEER_PORT,\"paths\":1,\"streams\":1"),
                    "conflict",
                    "args.localId",
                    Needs.CONNECTION),
            row(
                    "create_connection with a localId in use and paths 0",
                    ORDER + ", steps 6 and 7",
                    op(
                            "create_connection",
                            "\"localId\":$CONN,\"peerId\":$CONN,\"peerAddress\":\"$PEER_ADDRESS\","
                                    + "\"peerPort\":$PEER_PORT,\"paths\":0,\"streams\":1"),
                    "invalid_argument",
                    "args.paths",
                    Needs.CONNECTION));

    private ControlErrorTable() {}

    /** Every row, in the order the check sends them. */
    public static List<Row> rows() {
        return ROWS;
    }

    private static Row row(
            final String name,
            final String where,
            final String line,
            final String code,
            final String field,
            final Needs... needs) {
        return new Row(name, where, line, code, field, Set.of(needs));
    }

    /** A well-formed request of {@code op} with {@code args} (the inside of the object). */
    private static String op(final String op, final String args) {
        return "{\"v\":1,\"id\":$ID,\"op\":\"" + op + "\",\"args\":{" + args + "}}";
    }
}
