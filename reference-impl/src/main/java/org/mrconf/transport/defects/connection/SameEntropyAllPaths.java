package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#SAME_ENTROPY_ALL_PATHS}: every path of a connection leaves from one source port. */
public final class SameEntropyAllPaths extends ConnectionSeam.Forwarding {
    public SameEntropyAllPaths(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public int pathEntropy(final int entropyBase, final int pathId) {
        return entropyBase;
    }
}
