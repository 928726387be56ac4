package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apiguardian.api.API;
import org.mrconf.dut.CapturedPacket;
import org.mrconf.dut.WireLink;

/**
 * Records everything the DUT sends: a daemon thread receives from the {@link WireLink}, decodes each datagram into
 * a {@link ReceivedPacket} stamped by the link's clock, keeps it, and tells the listeners (e.g. the peer's
 * auto-ACK). Tests wait for expected packets with {@link #await} and check for forbidden ones with
 * {@link #assertNone}, counting from a {@link #mark()} so earlier traffic does not confuse them.
 *
 * <p>Failures are {@link AssertionError}s whose message lists the expectation and what the DUT did send, so a
 * report explains itself. Thread-safe.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Recorder implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(20);
    private static final int SHOWN_IN_FAILURES = 20;

    private final WireLink link;
    private final List<ReceivedPacket> packets = new ArrayList<>();
    private final List<Consumer<ReceivedPacket>> listeners = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Throwable failure;

    private Recorder(WireLink link) {
        this.link = link;
        this.thread = new Thread(this::run, "mrconf-recorder");
        this.thread.setDaemon(true);
    }

    /** Starts recording what {@code link} receives. */
    public static Recorder start(WireLink link) {
        Recorder recorder = new Recorder(Objects.requireNonNull(link, "link"));
        recorder.thread.start();
        return recorder;
    }

    private void run() {
        while (running) {
            Optional<CapturedPacket> next;
            try {
                next = link.receive(POLL);
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException | RuntimeException e) {
                failure = e;
                return;
            }
            if (next.isEmpty()) {
                continue;
            }
            ReceivedPacket received;
            synchronized (this) {
                received = ReceivedPacket.decode(packets.size(), next.get());
                packets.add(received);
                notifyAll();
            }
            for (Consumer<ReceivedPacket> listener : listeners) {
                try {
                    listener.accept(received);
                } catch (RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    }
                }
            }
        }
    }

    /** Calls {@code listener} on the recorder thread for every packet received from now on. */
    public void addListener(Consumer<ReceivedPacket> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public void removeListener(Consumer<ReceivedPacket> listener) {
        listeners.remove(listener);
    }

    /** The number of packets recorded so far: pass it to {@link #await} to ignore what came before. */
    public synchronized int mark() {
        return packets.size();
    }

    public synchronized List<ReceivedPacket> all() {
        return List.copyOf(packets);
    }

    public synchronized List<ReceivedPacket> since(int mark) {
        return List.copyOf(packets.subList(Math.min(mark, packets.size()), packets.size()));
    }

    /** Packets recorded since {@code mark} that match. */
    public synchronized List<ReceivedPacket> matching(int mark, PacketMatcher matcher) {
        return since(mark).stream().filter(matcher).toList();
    }

    /**
     * Waits up to {@code timeout} for a packet at or after {@code mark} that matches, and returns the first.
     *
     * @throws AssertionError naming the expectation and listing what was received instead
     */
    public ReceivedPacket await(int mark, PacketMatcher matcher, Duration timeout) {
        return awaitCount(mark, matcher, 1, timeout).get(0);
    }

    /**
     * Waits up to {@code timeout} for a packet at or after {@code mark} that matches, and returns it, or empty when none
     * came: for a case in which the packet's absence is not a failure (the clause it would show is another case's).
     *
     * @throws AssertionError when the recorder stopped (the link broke) before the timeout
     */
    public Optional<ReceivedPacket> awaitFirst(int mark, PacketMatcher matcher, Duration timeout) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            while (true) {
                List<ReceivedPacket> found = matching(mark, matcher);
                if (!found.isEmpty()) {
                    return Optional.of(found.get(0));
                }
                long remainingNs = deadlineNs - System.nanoTime();
                if (remainingNs <= 0) {
                    return Optional.empty();
                }
                if (!running) {
                    throw new AssertionError(
                            "the capture stopped while waiting for " + matcher.description() + failureNote());
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, remainingNs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while waiting for " + matcher.description(), e);
                }
            }
        }
    }

    /** Waits for {@code count} matching packets at or after {@code mark}; returns the first {@code count}. */
    public synchronized List<ReceivedPacket> awaitCount(int mark, PacketMatcher matcher, int count, Duration timeout) {
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        int scanned = Math.max(0, mark);
        List<ReceivedPacket> found = new ArrayList<>();
        while (true) {
            for (; scanned < packets.size(); scanned++) {
                if (matcher.test(packets.get(scanned))) {
                    found.add(packets.get(scanned));
                    if (found.size() == count) {
                        return List.copyOf(found);
                    }
                }
            }
            long remainingNs = deadlineNs - System.nanoTime();
            if (remainingNs <= 0 || !running) {
                throw new AssertionError("expected " + (count == 1 ? "a packet" : count + " packets") + " matching "
                        + matcher.description() + " within " + millis(timeout) + ", got " + found.size() + " of "
                        + since(mark).size() + " received" + failureNote() + explain(mark, matcher));
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, remainingNs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + matcher.description(), e);
            }
        }
    }

    /**
     * Waits the whole of {@code during} and fails if any packet at or after {@code mark} matches: for clauses that
     * demand silence, such as no ACK for a packet with a bad CRC (5.6.2).
     */
    public void assertNone(int mark, PacketMatcher matcher, Duration during) {
        long deadlineNs = System.nanoTime() + during.toNanos();
        synchronized (this) {
            while (true) {
                List<ReceivedPacket> bad = matching(mark, matcher);
                if (!bad.isEmpty()) {
                    throw new AssertionError("expected no packet matching " + matcher.description() + ", got "
                            + bad.size() + ":" + list(bad));
                }
                long remainingNs = deadlineNs - System.nanoTime();
                if (remainingNs <= 0) {
                    return;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, remainingNs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while checking for " + matcher.description(), e);
                }
            }
        }
    }

    /** Waits until no packet has arrived for {@code quiet}, at most {@code limit}; returns the packet count. */
    public int awaitQuiet(Duration quiet, Duration limit) {
        long limitNs = System.nanoTime() + limit.toNanos();
        synchronized (this) {
            while (true) {
                int before = packets.size();
                long waitNs = Math.min(quiet.toNanos(), limitNs - System.nanoTime());
                if (waitNs <= 0) {
                    return packets.size();
                }
                long endNs = System.nanoTime() + waitNs;
                try {
                    while (packets.size() == before && endNs - System.nanoTime() > 0) {
                        TimeUnit.NANOSECONDS.timedWait(this, endNs - System.nanoTime());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return packets.size();
                }
                if (packets.size() == before) {
                    return before;
                }
            }
        }
    }

    /** Why the recording stopped early, if it did (the link failed or a listener threw). */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    private String failureNote() {
        return failure != null ? " (recording failed: " + failure + ")" : "";
    }

    private synchronized String explain(int mark, PacketMatcher matcher) {
        List<ReceivedPacket> seen = since(mark);
        if (seen.isEmpty()) {
            return "; the DUT sent nothing";
        }
        StringBuilder sb = new StringBuilder(":");
        for (ReceivedPacket p : seen.subList(0, Math.min(seen.size(), SHOWN_IN_FAILURES))) {
            sb.append("\n  ")
                    .append(p)
                    .append("\n    mismatch: ")
                    .append(matcher.mismatch(p).orElse("(matches)"));
        }
        if (seen.size() > SHOWN_IN_FAILURES) {
            sb.append("\n  ... ").append(seen.size() - SHOWN_IN_FAILURES).append(" more");
        }
        return sb.toString();
    }

    private static String list(List<ReceivedPacket> packets) {
        StringBuilder sb = new StringBuilder();
        for (ReceivedPacket p : packets.subList(0, Math.min(packets.size(), SHOWN_IN_FAILURES))) {
            sb.append("\n  ").append(p);
        }
        return sb.toString();
    }

    private static String millis(Duration d) {
        return d.toNanos() % 1_000_000 == 0 ? d.toMillis() + " ms" : (d.toNanos() / 1000) + " us";
    }

    /** Stops recording; what was recorded stays readable. Does not close the link. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            notifyAll();
        }
    }
}
