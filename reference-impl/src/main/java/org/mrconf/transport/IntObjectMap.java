package org.mrconf.transport;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * An open-addressing map from int keys to objects, so that looking up a connection, region or sink
 * handle per packet neither boxes the key nor allocates. Not thread safe.
 */
final class IntObjectMap<V> {
    private int[] keys;
    private Object[] values;
    private int size;
    private int mask;

    IntObjectMap(final int expectedSize) {
        int capacity = Integer.highestOneBit(Math.max(4, expectedSize * 2) - 1) << 1;
        keys = new int[capacity];
        values = new Object[capacity];
        mask = capacity - 1;
    }

    @SuppressWarnings("unchecked")
    V get(final int key) {
        for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
            final Object value = values[i];
            if (value == null) {
                return null;
            }
            if (keys[i] == key) {
                return (V) value;
            }
        }
    }

    /** Puts a non-null value; returns the previous one or null. */
    @SuppressWarnings("unchecked")
    V put(final int key, final V value) {
        if (value == null) {
            throw new IllegalArgumentException("null values are not allowed");
        }
        if ((size + 1) * 2 > values.length) {
            grow();
        }
        for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
            if (values[i] == null) {
                keys[i] = key;
                values[i] = value;
                size++;
                return null;
            }
            if (keys[i] == key) {
                final V old = (V) values[i];
                values[i] = value;
                return old;
            }
        }
    }

    /** Removes a key; returns its value or null. */
    @SuppressWarnings("unchecked")
    V remove(final int key) {
        for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
            final Object value = values[i];
            if (value == null) {
                return null;
            }
            if (keys[i] == key) {
                values[i] = null;
                size--;
                reinsertFollowing(i);
                return (V) value;
            }
        }
    }

    int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    void forEachValue(final Consumer<V> action) {
        for (final Object value : values.clone()) {
            if (value != null) {
                action.accept((V) value);
            }
        }
    }

    /** Calls {@code action} with every key and value, over a snapshot. */
    @SuppressWarnings("unchecked")
    void forEachEntry(final EntryConsumer<V> action) {
        final int[] keySnapshot = keys.clone();
        final Object[] valueSnapshot = values.clone();
        for (int i = 0; i < valueSnapshot.length; i++) {
            if (valueSnapshot[i] != null) {
                action.accept(keySnapshot[i], (V) valueSnapshot[i]);
            }
        }
    }

    /** A key and its value. */
    @FunctionalInterface
    interface EntryConsumer<V> {
        void accept(int key, V value);
    }

    private void reinsertFollowing(final int removed) {
        for (int i = (removed + 1) & mask; values[i] != null; i = (i + 1) & mask) {
            final int key = keys[i];
            final Object value = values[i];
            values[i] = null;
            size--;
            insertWithoutGrowth(key, value);
        }
    }

    private void insertWithoutGrowth(final int key, final Object value) {
        int i = hash(key) & mask;
        while (values[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }

    private void grow() {
        final int[] oldKeys = keys;
        final Object[] oldValues = values;
        keys = new int[oldKeys.length * 2];
        values = new Object[oldValues.length * 2];
        mask = values.length - 1;
        size = 0;
        for (int i = 0; i < oldValues.length; i++) {
            if (oldValues[i] != null) {
                insertWithoutGrowth(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int hash(final int key) {
        final int h = key * 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    @Override
    public String toString() {
        return "IntObjectMap{size=" + size + ", capacity=" + values.length + ", keys=" + Arrays.toString(keys) + "}";
    }
}
