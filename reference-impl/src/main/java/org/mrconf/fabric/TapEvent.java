package org.mrconf.fabric;

/** What happened to a packet, as reported to a {@link PacketTap}. */
public enum TapEvent {
    /** A node handed the packet to the fabric (link: the sender's uplink). */
    SENT,
    /** A queue found above its threshold set the packet's ECN field to CE. */
    ECN_MARKED,
    /** An impairment flipped payload bits. */
    CORRUPTED,
    /** An impairment made this packet, a copy of the one before it. */
    DUPLICATED,
    /** An impairment dropped the packet. */
    IMPAIRMENT_DROPPED,
    /** The link's queue was full (tail drop). */
    QUEUE_DROPPED,
    /** The packet reached its destination endpoint (link: the receiver's downlink). */
    DELIVERED
}
