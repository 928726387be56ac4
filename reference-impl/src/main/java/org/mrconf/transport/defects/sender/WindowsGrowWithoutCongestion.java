package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#WINDOWS_GROW_WITHOUT_CONGESTION}: windows grow past their declared values without the congestion profile. */
public final class WindowsGrowWithoutCongestion extends SenderSeam.Forwarding {
    public WindowsGrowWithoutCongestion(final SenderSeam next) {
        super(next);
    }

    @Override
    public int largestWindow(final int first, final int withCongestion, final boolean congestionOffered) {
        return withCongestion;
    }
}
