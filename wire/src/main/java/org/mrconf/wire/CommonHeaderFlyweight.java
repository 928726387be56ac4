package org.mrconf.wire;

/**
 * The 16-byte common header that starts every packet (clause 5.1.1, Table 5-1). The decoder wraps it
 * over any packet, so tools can show the connection, path and PSN of packets of any opcode.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-------+-------+---------------+-------------------------------+
 * | major | minor |    opcode     |             flags             |  0
 * +-------+-------+---------------+-------------------------------+
 * |                  destination connection id                    |  4
 * +---------------+---------------+-------------------------------+
 * |    path id    |  reserved 1   |          reserved 2           |  8
 * +---------------+---------------+-------------------------------+
 * |                 packet sequence number (PSN)                  | 12
 * +---------------------------------------------------------------+
 * </pre>
 */
public final class CommonHeaderFlyweight extends HeaderFlyweight<CommonHeaderFlyweight> {
    public static final int VERSION_OFFSET = 0;
    public static final int VERSION_SIZE = 1;
    public static final int OPCODE_OFFSET = 1;
    public static final int OPCODE_SIZE = 1;
    public static final int FLAGS_OFFSET = 2;
    public static final int FLAGS_SIZE = 2;
    public static final int DESTINATION_CONNECTION_ID_OFFSET = 4;
    public static final int DESTINATION_CONNECTION_ID_SIZE = 4;
    public static final int PATH_ID_OFFSET = 8;
    public static final int PATH_ID_SIZE = 1;
    public static final int RESERVED_1_OFFSET = 9;
    public static final int RESERVED_1_SIZE = 1;
    public static final int RESERVED_2_OFFSET = 10;
    public static final int RESERVED_2_SIZE = 2;
    public static final int PSN_OFFSET = 12;
    public static final int PSN_SIZE = 4;
    public static final int HEADER_LENGTH = 16;

    @Override
    public int headerLength() {
        return HEADER_LENGTH;
    }

    @Override
    protected void appendFields(StringBuilder sb) {
        // The common header has no fields beyond those the base prints.
    }
}
