package org.mrconf.transport;

/** What a memory region allows (spec section 11): bit flags combined with {@code |}. */
public final class AccessFlags {
    /** The local endpoint may write it: receives and READ sinks land here. */
    public static final int LOCAL_WRITE = 1;
    /** Remote WRITEs may place into it. */
    public static final int REMOTE_WRITE = 2;
    /** Remote READs may read from it. */
    public static final int REMOTE_READ = 4;
    /** Everything. */
    public static final int ALL = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ;

    private AccessFlags() {}

    static boolean allows(final int flags, final int needed) {
        return (flags & needed) == needed;
    }
}
