package org.mrconf.cases.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.peer.ReceivedPacket;

/**
 * Clause 7.4.4: the DUT as a READ requester never gives a READ the sink handle of an earlier READ of the connection,
 * finished or not. The case posts READs one at a time (each answered and finished before the next, so a device that
 * hands out the handle of a finished READ again shows it at once) and two at a time, {@value #READS} in all, more
 * than a small ring or free list of handles holds, and checks that no two carried the same handle.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Sink handles")
class SinkHandleCase {
    /** READs posted in all: more than a ring of 16 or 32 handles would hold before it wraps. */
    private static final int READS = 40;

    private static final int LENGTH = 64;
    private static final long FIRST_WR_ID = 1700;

    @Test
    @DisplayName("every READ on a connection carries a sink handle that no earlier READ of it carried, finished or not")
    @Verifies("7.4.4")
    void sinkHandlesAreNotReused(final Testbed testbed) throws Exception {
        TesterMessages.requireProfile(testbed, Profile.READ);
        // Each handle seen so far, with the work request whose READ carried it.
        final Map<Long, Long> wrIdByHandle = new LinkedHashMap<>();
        long wrId = FIRST_WR_ID;
        while (wrIdByHandle.size() < READS) {
            // Every third round two READs are in progress at once; the others one at a time.
            final int together = wrIdByHandle.size() % 3 == 2 ? 2 : 1;
            final List<ReceivedPacket> requests = new ArrayList<>();
            final List<Long> ids = new ArrayList<>();
            for (int i = 0; i < together; i++) {
                ids.add(wrId);
                requests.add(DutTraffic.read(testbed, 0, wrId++, LENGTH));
            }
            for (int i = 0; i < together; i++) {
                final long id = ids.get(i);
                final long handle = requests.get(i).data().orElseThrow().sinkHandle();
                assertThat(wrIdByHandle.get(handle))
                        .as(
                                "7.4.4: the READ of work request %d carries sink handle 0x%08x, which the READ of work"
                                        + " request %s carried before it (handles so far: %s)",
                                id, handle, wrIdByHandle.get(handle), wrIdByHandle.keySet())
                        .isNull();
                wrIdByHandle.put(handle, id);
                DutTraffic.answerRead(testbed, requests.get(i), Testbed.randomBytes(LENGTH, id));
            }
            for (final long id : ids) {
                assertThat(testbed.awaitCompletion(id).status())
                        .as("the READ of work request %d, answered in full", id)
                        .isEqualTo(CompletionStatus.SUCCESS);
            }
        }
    }
}
