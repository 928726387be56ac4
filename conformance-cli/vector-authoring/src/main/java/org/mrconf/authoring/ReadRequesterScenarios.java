package org.mrconf.authoring;

import java.util.List;
import org.mrconf.peer.PacketBuilder;

/**
 * The built-in scenarios that judge the DUT as a READ requester across several READs: a sink handle never comes back
 * on the connection (clause 7.4.4). The READs of the 7.4.x sender vectors of {@link SenderScenarios} each judge one
 * READ; see {@link Scenarios} for the placeholders replay rewrites.
 */
final class ReadRequesterScenarios {
    private static final int READS = 4;
    private static final int LENGTH = 64;
    /** The sink handle the first READ's responses are recorded with; the others follow it. */
    private static final long RECORDED_SINK_HANDLE = 0x5EED_0100L;

    private ReadRequesterScenarios() {}

    static List<Scenario> all() {
        return List.of(sinkHandlesNotReused());
    }

    private static Scenario sinkHandlesNotReused() {
        final Scenario scenario = new Scenario(
                        "7.4.4/dut-sink-handles-not-reused",
                        "valid",
                        "Ensure that the DUT, posting four 64-byte READs one after the other, each answered and"
                                + " completed before the next is posted, gives each READ_REQUEST a sink handle that no"
                                + " earlier one carried",
                        "7.4.4")
                .region("sink", 4096, "LOCAL_WRITE");
        scenario.profiles.add("read");
        for (int i = 0; i < READS; i++) {
            final String name = "read" + i;
            final long wrId = 1760 + i;
            scenario.request(name, RECORDED_SINK_HANDLE + i, i);
            scenario.post(
                    "READ",
                    0,
                    wrId,
                    "sink",
                    i * LENGTH,
                    LENGTH,
                    SenderScenarios.TESTER_ADDRESS,
                    SenderScenarios.TESTER_KEY);
            scenario.await("READ_REQUEST", 0).put("as", name).put("msn", i).put("messageLength", LENGTH);
            final int frame = scenario.frame(
                    0,
                    PacketBuilder.readResponse()
                            .connection(Scenarios.CONNECTION)
                            .path(0)
                            .psn(Scenarios.PSN_BASE + i)
                            .stream(0)
                            .msn(i)
                            .messageLength(LENGTH)
                            .messageOffset(0)
                            .sinkHandle(RECORDED_SINK_HANDLE + i)
                            .transmitTimestamp(3000 + i)
                            .payload(Scenarios.pattern(LENGTH, 80 + i))
                            .ackRequest()
                            .build());
            scenario.sendFrames(frame);
            scenario.checkCompleted(new long[] {wrId});
        }
        scenario.expect.put("distinctSinkHandles", true);
        return scenario.expectRegion("sink", 0, Scenarios.hex(Scenarios.pattern(LENGTH, 80)));
    }
}
