package org.mrconf.fabric;

import java.util.Arrays;
import java.util.function.BooleanSupplier;
import org.mrconf.net.NanoClock;

/**
 * The virtual clock and event queue that drive a simulation. Events run in (time, insertion sequence)
 * order, so events scheduled for the same nanosecond run in the order they were scheduled and a run is
 * deterministic. Time only moves forward, and only when the owner calls one of the {@code run*} methods.
 *
 * <p>The queue is an indexed binary min-heap over pooled slots held in primitive arrays: scheduling
 * and running an event allocate nothing once the arrays have grown to the peak number of pending
 * events. A schedule call returns a handle that {@link #cancel(long)} accepts; a handle carries its
 * slot's generation, so cancelling an event that has already run or been cancelled is a harmless no-op.
 *
 * <p>Single-threaded: tests, benchmarks and the {@link Fabric} call it from one thread, and event
 * handlers may schedule and cancel events but not call the {@code run*} methods.
 */
public final class Simulator implements NanoClock {
    /** A handle that {@link #cancel(long)} ignores; returned by nothing, useful as "no event". */
    public static final long NO_EVENT = -1L;

    private static final int INITIAL_CAPACITY = 64;

    private long nowNs;
    private long nextSequence;
    private long eventsRun;
    private boolean running;

    // Slot-indexed event data; a slot is either free or holds one pending event.
    private long[] slotTimeNs = new long[INITIAL_CAPACITY];
    private long[] slotSequence = new long[INITIAL_CAPACITY];
    private long[] slotArg = new long[INITIAL_CAPACITY];
    private Object[] slotTarget = new Object[INITIAL_CAPACITY];
    private int[] slotGeneration = new int[INITIAL_CAPACITY];
    private int[] slotHeapIndex = new int[INITIAL_CAPACITY];
    private int[] freeSlots = new int[INITIAL_CAPACITY];
    private int freeCount;
    private int slotCount;

    // The heap holds slot numbers ordered by (time, sequence).
    private int[] heap = new int[INITIAL_CAPACITY];
    private int size;

    /** A simulator whose clock starts at zero. */
    public Simulator() {
        this(0L);
    }

    /** A simulator whose clock starts at {@code startNs}. */
    public Simulator(final long startNs) {
        this.nowNs = startNs;
    }

    /** The current virtual time. */
    @Override
    public long nanoTime() {
        return nowNs;
    }

    /** The current virtual time; the same as {@link #nanoTime()}. */
    public long nowNs() {
        return nowNs;
    }

    /** How many events are waiting. */
    public int pendingEvents() {
        return size;
    }

    /** How many events have run since construction. */
    public long eventsRun() {
        return eventsRun;
    }

    /** The time of the next pending event, or {@link Long#MAX_VALUE} when the queue is empty. */
    public long nextEventNs() {
        return size == 0 ? Long.MAX_VALUE : slotTimeNs[heap[0]];
    }

    /**
     * Runs {@code action} at virtual time {@code atNs}.
     *
     * @return a handle for {@link #cancel(long)}
     * @throws IllegalArgumentException if {@code atNs} is in the past
     */
    public long schedule(final long atNs, final Runnable action) {
        if (action == null) {
            throw new NullPointerException("action");
        }
        return add(atNs, action, 0L);
    }

    /**
     * Calls {@code handler.onEvent(atNs, arg)} at virtual time {@code atNs}. Allocation-free, for the
     * per-packet paths.
     *
     * @return a handle for {@link #cancel(long)}
     * @throws IllegalArgumentException if {@code atNs} is in the past
     */
    public long schedule(final long atNs, final EventHandler handler, final long arg) {
        if (handler == null) {
            throw new NullPointerException("handler");
        }
        return add(atNs, handler, arg);
    }

    /**
     * Removes a pending event.
     *
     * @return whether the event was pending (false if it already ran, was cancelled, or is {@link #NO_EVENT})
     */
    public boolean cancel(final long handle) {
        if (handle < 0) {
            return false;
        }
        final int slot = (int) handle;
        final int generation = (int) (handle >>> 32);
        if (slot >= slotCount || slotGeneration[slot] != generation || slotHeapIndex[slot] < 0) {
            return false;
        }
        removeAt(slotHeapIndex[slot]);
        freeSlot(slot);
        return true;
    }

    /**
     * Runs every event due at or before {@code limitNs}, including those they schedule, then moves the
     * clock to {@code limitNs}.
     *
     * @return how many events ran
     */
    public long runUntil(final long limitNs) {
        enter();
        try {
            final long before = eventsRun;
            while (size > 0 && slotTimeNs[heap[0]] <= limitNs) {
                runNext();
            }
            if (limitNs > nowNs) {
                nowNs = limitNs;
            }
            return eventsRun - before;
        } finally {
            running = false;
        }
    }

    /**
     * Runs events until none is left or the next is after {@code limitNs}. When the queue empties the
     * clock stays at the last event's time; when the limit stops the run the clock moves to the limit.
     *
     * @return whether the queue is empty
     */
    public boolean runUntilIdle(final long limitNs) {
        enter();
        try {
            while (size > 0) {
                if (slotTimeNs[heap[0]] > limitNs) {
                    advanceTo(limitNs);
                    return false;
                }
                runNext();
            }
            return true;
        } finally {
            running = false;
        }
    }

    /**
     * Runs events one at a time while {@code condition} holds, checking it before each event. Stops
     * when the condition turns false, when the queue empties, or when the next event is after
     * {@code limitNs} (the clock then moves to the limit).
     *
     * @return whether the condition turned false: true means "done", false means "gave up"
     */
    public boolean runWhile(final BooleanSupplier condition, final long limitNs) {
        enter();
        try {
            while (condition.getAsBoolean()) {
                if (size == 0) {
                    return false;
                }
                if (slotTimeNs[heap[0]] > limitNs) {
                    advanceTo(limitNs);
                    return false;
                }
                runNext();
            }
            return true;
        } finally {
            running = false;
        }
    }

    /**
     * Runs the single next event, whatever its time.
     *
     * @return false if there was none
     */
    public boolean step() {
        enter();
        try {
            if (size == 0) {
                return false;
            }
            runNext();
            return true;
        } finally {
            running = false;
        }
    }

    @Override
    public String toString() {
        return "Simulator{nowNs=" + nowNs + ", pending=" + size + ", eventsRun=" + eventsRun + '}';
    }

    private void enter() {
        if (running) {
            throw new IllegalStateException("run methods must not be called from inside an event");
        }
        running = true;
    }

    private void advanceTo(final long limitNs) {
        if (limitNs > nowNs) {
            nowNs = limitNs;
        }
    }

    private void runNext() {
        final int slot = heap[0];
        removeAt(0);
        final long timeNs = slotTimeNs[slot];
        final Object target = slotTarget[slot];
        final long arg = slotArg[slot];
        // Free before dispatch so the handler can reuse the slot for its next event.
        freeSlot(slot);
        nowNs = timeNs;
        eventsRun++;
        if (target instanceof EventHandler) {
            ((EventHandler) target).onEvent(timeNs, arg);
        } else {
            ((Runnable) target).run();
        }
    }

    private long add(final long atNs, final Object target, final long arg) {
        if (atNs < nowNs) {
            throw new IllegalArgumentException("cannot schedule in the past: atNs=" + atNs + " nowNs=" + nowNs);
        }
        final int slot = allocateSlot();
        slotTimeNs[slot] = atNs;
        slotSequence[slot] = nextSequence++;
        slotTarget[slot] = target;
        slotArg[slot] = arg;
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        heap[size] = slot;
        slotHeapIndex[slot] = size;
        size++;
        siftUp(size - 1);
        return ((long) slotGeneration[slot] << 32) | slot;
    }

    private int allocateSlot() {
        if (freeCount > 0) {
            return freeSlots[--freeCount];
        }
        if (slotCount == slotTimeNs.length) {
            final int capacity = slotCount * 2;
            slotTimeNs = Arrays.copyOf(slotTimeNs, capacity);
            slotSequence = Arrays.copyOf(slotSequence, capacity);
            slotArg = Arrays.copyOf(slotArg, capacity);
            slotTarget = Arrays.copyOf(slotTarget, capacity);
            slotGeneration = Arrays.copyOf(slotGeneration, capacity);
            slotHeapIndex = Arrays.copyOf(slotHeapIndex, capacity);
            freeSlots = Arrays.copyOf(freeSlots, capacity);
        }
        return slotCount++;
    }

    private void freeSlot(final int slot) {
        slotTarget[slot] = null;
        slotHeapIndex[slot] = -1;
        // Masked to stay non-negative, so a handle is never mistaken for NO_EVENT.
        slotGeneration[slot] = (slotGeneration[slot] + 1) & 0x7FFF_FFFF;
        freeSlots[freeCount++] = slot;
    }

    private void removeAt(final int index) {
        final int last = --size;
        slotHeapIndex[heap[index]] = -1;
        if (index != last) {
            final int moved = heap[last];
            heap[index] = moved;
            slotHeapIndex[moved] = index;
            if (index > 0 && isEarlier(moved, heap[(index - 1) >>> 1])) {
                siftUp(index);
            } else {
                siftDown(index);
            }
        }
    }

    private void siftUp(final int start) {
        int index = start;
        final int slot = heap[index];
        while (index > 0) {
            final int parentIndex = (index - 1) >>> 1;
            final int parent = heap[parentIndex];
            if (!isEarlier(slot, parent)) {
                break;
            }
            heap[index] = parent;
            slotHeapIndex[parent] = index;
            index = parentIndex;
        }
        heap[index] = slot;
        slotHeapIndex[slot] = index;
    }

    private void siftDown(final int start) {
        int index = start;
        final int slot = heap[index];
        final int half = size >>> 1;
        while (index < half) {
            int childIndex = 2 * index + 1;
            int child = heap[childIndex];
            final int rightIndex = childIndex + 1;
            if (rightIndex < size && isEarlier(heap[rightIndex], child)) {
                childIndex = rightIndex;
                child = heap[rightIndex];
            }
            if (!isEarlier(child, slot)) {
                break;
            }
            heap[index] = child;
            slotHeapIndex[child] = index;
            index = childIndex;
        }
        heap[index] = slot;
        slotHeapIndex[slot] = index;
    }

    private boolean isEarlier(final int a, final int b) {
        final long timeA = slotTimeNs[a];
        final long timeB = slotTimeNs[b];
        return timeA < timeB || (timeA == timeB && slotSequence[a] < slotSequence[b]);
    }
}
