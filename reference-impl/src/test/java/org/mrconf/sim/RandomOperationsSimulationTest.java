package org.mrconf.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.mrconf.fabric.BitCorruption;
import org.mrconf.fabric.Blackout;
import org.mrconf.fabric.FabricConfig;
import org.mrconf.fabric.LinkConfig;
import org.mrconf.fabric.LinkImpairment;
import org.mrconf.fabric.RandomDuplication;
import org.mrconf.fabric.RandomJitter;
import org.mrconf.fabric.RandomLoss;
import org.mrconf.transport.AccessFlags;
import org.mrconf.transport.Completion;
import org.mrconf.transport.Counter;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.transport.MemoryRegion;
import org.mrconf.transport.WorkCompletionStatus;
import org.mrconf.transport.WorkCompletionType;

/**
 * The reference end to end on a hostile fabric (issue 3's acceptance test): a thousand random WRITEs,
 * SENDs and READs of 1 byte to 8 MiB on several streams, over 8 paths with 5% loss, reordering,
 * duplication and corruption, must leave memory byte-identical to the expected contents, with every
 * message completed exactly once, successfully, in MSN order per stream. Then again with one path
 * going black in the middle of the run.
 */
class RandomOperationsSimulationTest {
    private static final int OPERATIONS = 1000;
    private static final int BATCH = 40;
    private static final int PATHS = 8;
    private static final int STREAMS = 4;
    private static final int A = 1;
    private static final int B = 2;
    private static final int AREA = 48 << 20;
    private static final long SOURCE = 0x1000_0000L;
    private static final long SINK = 0x2000_0000L;
    private static final long TARGET = 0x3000_0000L;
    private static final long READ_SOURCE = 0x4000_0000L;
    private static final long RECEIVES = 0x5000_0000L;
    private static final long BATCH_LIMIT_NS = 5_000_000_000L;

    private enum Kind {
        WRITE,
        WRITE_IMMEDIATE,
        SEND,
        READ
    }

    /** One operation and where its bytes must end up. */
    private record Operation(long id, Kind kind, int stream, int length, int from, int to) {}

    @Test
    void shouldSurviveLossReorderingDuplicationAndCorruption() {
        final SimulatedCluster cluster = cluster(11);
        impairEveryRoute(cluster, 11);

        runOperations(cluster, 42);
    }

    @Test
    void shouldSurviveAPathGoingBlackMidRun() {
        final SimulatedCluster cluster = cluster(12);
        impairEveryRoute(cluster, 12);
        final long blackAtNs = 2_000_000;
        cluster.fabric()
                .routeLinks(3)
                .forEach(link -> cluster.fabric().scheduleImpairment(blackAtNs, link, Blackout.from(blackAtNs)));

        runOperations(cluster, 43);

        assertThat(cluster.nowNs()).as("the run outlived the blackout").isGreaterThan(blackAtNs);
        assertThat(cluster.endpoint(0).counters().get(Counter.RTO_EXPIRATIONS)).isPositive();
        assertThat(cluster.endpoint(0).counters().get(Counter.REPATHS)).isPositive();
    }

    private static SimulatedCluster cluster(final long seed) {
        final LinkConfig link = LinkConfig.DEFAULT.withRateBps(100_000_000_000L).withPropagationNs(2_000);
        final SimulatedCluster cluster = new SimulatedCluster(FabricConfig.builder()
                .routeCount(PATHS)
                .route(link)
                .downlink(link)
                .seed(seed)
                .build());
        final EndpointConfig config = EndpointConfig.builder().entropySeed(seed).build();
        cluster.addEndpoint(config);
        cluster.addEndpoint(config.toBuilder().entropySeed(seed + 100).build());
        cluster.connect(0, A, 1, B, PATHS, STREAMS);
        return cluster;
    }

    private static void impairEveryRoute(final SimulatedCluster cluster, final long seed) {
        for (int route = 0; route < PATHS; route++) {
            final int r = route;
            cluster.fabric()
                    .routeLinks(route)
                    .forEach(link -> link.impairment(LinkImpairment.chain(
                            new RandomLoss(0.05, seed * 31 + r),
                            new RandomJitter(3_000, seed * 37 + r),
                            new RandomDuplication(0.01, seed * 41 + r),
                            new BitCorruption(0.01, seed * 43 + r))));
        }
    }

    private static void runOperations(final SimulatedCluster cluster, final long seed) {
        final Endpoint a = cluster.endpoint(0);
        final Endpoint b = cluster.endpoint(1);
        final MemoryRegion source = a.registerRegion(SOURCE, AREA, AccessFlags.ALL);
        final MemoryRegion sink = a.registerRegion(SINK, AREA, AccessFlags.LOCAL_WRITE);
        final MemoryRegion target = b.registerRegion(TARGET, AREA, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        final MemoryRegion readSource = b.registerRegion(READ_SOURCE, AREA, AccessFlags.REMOTE_READ);
        final MemoryRegion receives = b.registerRegion(RECEIVES, AREA, AccessFlags.LOCAL_WRITE);
        final Random random = new Random(seed);
        fillRandom(source, random);
        fillRandom(readSource, random);

        final long[] nextSenderMsn = new long[STREAMS];
        final long[] nextReceiveMsn = new long[STREAMS];
        long issued = 0;
        long receiveId = 1_000_000;
        while (issued < OPERATIONS) {
            final List<Operation> batch = new ArrayList<>();
            final Map<Long, Operation> byReceiveId = new HashMap<>();
            int targetUsed = 0;
            int sinkUsed = 0;
            int receivesUsed = 0;
            while (batch.size() < BATCH && issued < OPERATIONS) {
                final Kind kind = pickKind(random);
                final int length = pickLength(random);
                final int stream = random.nextInt(STREAMS);
                final int from = random.nextInt(AREA - length + 1);
                final int used = kind == Kind.READ ? sinkUsed : kind == Kind.SEND ? receivesUsed : targetUsed;
                if (used + length > AREA) {
                    break; // this batch's area is full; the next batch reuses it
                }
                final Operation op = new Operation(issued, kind, stream, length, from, used);
                switch (kind) {
                    case WRITE -> {
                        a.postWrite(
                                A, stream, source.key(), SOURCE + from, length, TARGET + used, target.key(), op.id());
                        targetUsed += length;
                    }
                    case WRITE_IMMEDIATE -> {
                        a.postWriteWithImmediate(
                                A,
                                stream,
                                source.key(),
                                SOURCE + from,
                                length,
                                TARGET + used,
                                target.key(),
                                op.id() & 0xFFFF_FFFFL,
                                op.id());
                        targetUsed += length;
                    }
                    case SEND -> {
                        b.postReceive(
                                B, stream, receives.key(), RECEIVES + used, length + random.nextInt(64), receiveId);
                        byReceiveId.put(receiveId++, op);
                        a.postSend(A, stream, source.key(), SOURCE + from, length, op.id());
                        receivesUsed += length + 64;
                    }
                    case READ -> {
                        a.postRead(
                                A,
                                stream,
                                sink.key(),
                                SINK + used,
                                length,
                                READ_SOURCE + from,
                                readSource.key(),
                                op.id());
                        sinkUsed += length;
                    }
                }
                batch.add(op);
                issued++;
            }
            final long expectedAtB = batch.stream()
                    .filter(op -> op.kind() == Kind.SEND || op.kind() == Kind.WRITE_IMMEDIATE)
                    .count();
            final List<Completion> atA = new ArrayList<>();
            final List<Completion> atB = new ArrayList<>();
            final boolean done = cluster.runUntil(
                    () -> {
                        drain(a, atA);
                        drain(b, atB);
                        return atA.size() >= batch.size() && atB.size() >= expectedAtB;
                    },
                    cluster.nowNs() + BATCH_LIMIT_NS);
            assertThat(done)
                    .as(
                            "batch ending at op %d completed; A=%s B=%s diag=%s",
                            issued, a.counters(), b.counters(), a.diagnostics())
                    .isTrue();
            checkSenderCompletions(batch, atA, nextSenderMsn);
            checkReceiverCompletions(batch, byReceiveId, atB, nextReceiveMsn);
            for (final Operation op : batch) {
                switch (op.kind()) {
                    case WRITE, WRITE_IMMEDIATE -> assertSame(target, op.to(), source, op.from(), op.length(), op);
                    case SEND -> assertSame(receives, op.to(), source, op.from(), op.length(), op);
                    case READ -> assertSame(sink, op.to(), readSource, op.from(), op.length(), op);
                }
            }
        }
        cluster.runUntil(() -> false, cluster.nowNs() + 50_000_000);
        drainNothingMore(a, b);
        // The fabric really was hostile, in both directions.
        for (final Endpoint endpoint : List.of(a, b)) {
            assertThat(endpoint.counters().get(Counter.TX_RETRANSMISSIONS))
                    .as("%s", endpoint.counters())
                    .isPositive();
            assertThat(endpoint.counters().get(Counter.RX_BAD_CRC)).isPositive();
            assertThat(endpoint.counters().get(Counter.RX_DUPLICATE)).isPositive();
        }
        assertThat(b.counters().get(Counter.BYTES_PLACED)).isGreaterThan(50L << 20);
        System.out.printf(
                "random operations: %s virtual ms; A %s; B %s%n",
                cluster.nowNs() / 1_000_000, a.counters(), b.counters());
    }

    private static void checkSenderCompletions(
            final List<Operation> batch, final List<Completion> completions, final long[] nextMsn) {
        assertThat(completions).hasSize(batch.size());
        assertThat(completions)
                .allSatisfy(c -> assertThat(c.status()).as("%s", c).isEqualTo(WorkCompletionStatus.SUCCESS));
        assertThat(completions)
                .extracting(Completion::workRequestId)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(
                        batch.stream().map(Operation::id).toList());
        for (final Completion completion : completions) {
            assertThat(completion.msn())
                    .as("MSN order on stream %d", completion.streamId())
                    .isEqualTo(nextMsn[completion.streamId()]++);
        }
    }

    private static void checkReceiverCompletions(
            final List<Operation> batch,
            final Map<Long, Operation> byReceiveId,
            final List<Completion> completions,
            final long[] nextMsn) {
        final long[] lastReceiveId = new long[STREAMS];
        Arrays.fill(lastReceiveId, -1);
        for (final Completion completion : completions) {
            assertThat(completion.status()).isEqualTo(WorkCompletionStatus.SUCCESS);
            assertThat(completion.msn())
                    .as("receive-side MSNs only grow")
                    .isGreaterThanOrEqualTo(nextMsn[completion.streamId()]);
            nextMsn[completion.streamId()] = completion.msn() + 1;
            if (completion.type() == WorkCompletionType.RECEIVE) {
                final Operation send = byReceiveId.get(completion.workRequestId());
                assertThat(send).as("a posted receive").isNotNull();
                assertThat(completion.byteLength()).isEqualTo(send.length());
                assertThat(completion.workRequestId())
                        .as("receives complete in posting order")
                        .isGreaterThan(lastReceiveId[completion.streamId()]);
                lastReceiveId[completion.streamId()] = completion.workRequestId();
            } else {
                assertThat(completion.type()).isEqualTo(WorkCompletionType.RECEIVE_IMMEDIATE);
                final Operation write = batch.stream()
                        .filter(op -> op.id() == completion.immediate())
                        .findFirst()
                        .orElseThrow();
                assertThat(completion.byteLength()).isEqualTo(write.length());
            }
        }
    }

    private static void drainNothingMore(final Endpoint a, final Endpoint b) {
        assertThat(a.pollCompletion())
                .as("exactly once: nothing completes twice")
                .isNull();
        assertThat(b.pollCompletion()).isNull();
        assertThat(a.diagnostics().outstandingPsns()).isZero();
        assertThat(a.diagnostics().awaitingCompletion()).isZero();
    }

    private static void drain(final Endpoint endpoint, final List<Completion> into) {
        Completion completion;
        while ((completion = endpoint.pollCompletion()) != null) {
            into.add(completion);
        }
    }

    private static Kind pickKind(final Random random) {
        final int roll = random.nextInt(100);
        return roll < 45 ? Kind.WRITE : roll < 50 ? Kind.WRITE_IMMEDIATE : roll < 75 ? Kind.SEND : Kind.READ;
    }

    /** Mostly small messages, some medium, a few up to 8 MiB. */
    private static int pickLength(final Random random) {
        final int roll = random.nextInt(100);
        if (roll < 70) {
            return 1 + random.nextInt(64 << 10);
        }
        if (roll < 95) {
            return (64 << 10) + random.nextInt(960 << 10);
        }
        return (1 << 20) + random.nextInt((7 << 20) + 1);
    }

    private static void fillRandom(final MemoryRegion region, final Random random) {
        final byte[] bytes = new byte[region.length()];
        random.nextBytes(bytes);
        region.memory().put(0, bytes);
    }

    private static void assertSame(
            final MemoryRegion actual,
            final int actualIndex,
            final MemoryRegion expected,
            final int expectedIndex,
            final int length,
            final Operation op) {
        final byte[] got = new byte[length];
        final byte[] want = new byte[length];
        actual.memory().get(actualIndex, got);
        expected.memory().get(expectedIndex, want);
        assertThat(Arrays.mismatch(got, want))
                .as("first differing byte of %s", op)
                .isEqualTo(-1);
    }
}
