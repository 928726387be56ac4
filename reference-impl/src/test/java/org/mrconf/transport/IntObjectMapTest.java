package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IntObjectMapTest {
    private static final long SEED = 0x1D0B_1EC7L;

    @Test
    void shouldGetWhatWasPutAndReplaceOnTheSameKey() {
        final IntObjectMap<String> map = new IntObjectMap<>(4);
        assertThat(map.put(7, "a")).isNull();
        assertThat(map.put(7, "b")).isEqualTo("a");
        assertThat(map.get(7)).isEqualTo("b");
        assertThat(map.get(8)).isNull();
        assertThat(map.size()).isEqualTo(1);
    }

    @Test
    void shouldKeepNegativeZeroAndExtremeKeysApart() {
        final IntObjectMap<Integer> map = new IntObjectMap<>(2);
        for (final int key : new int[] {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 1}) {
            map.put(key, key);
        }
        for (final int key : new int[] {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 1}) {
            assertThat(map.get(key)).isEqualTo(key);
        }
        assertThat(map.size()).isEqualTo(5);
    }

    @Test
    void shouldFindEveryKeyOfACollisionChainAfterRemovingFromItsMiddle() {
        final IntObjectMap<Integer> map = new IntObjectMap<>(64);
        final List<Integer> chain = collidingKeys(128, 6); // capacity 128: same home slot
        chain.forEach(key -> map.put(key, key));
        assertThat(map.remove(chain.get(2))).isEqualTo(chain.get(2));
        assertThat(map.remove(chain.get(0))).isEqualTo(chain.get(0));
        assertThat(map.get(chain.get(0))).isNull();
        assertThat(map.get(chain.get(2))).isNull();
        for (final int key : List.of(chain.get(1), chain.get(3), chain.get(4), chain.get(5))) {
            assertThat(map.get(key))
                    .as("key %d after removals from its chain", key)
                    .isEqualTo(key);
        }
        assertThat(map.size()).isEqualTo(4);
        assertThat(map.remove(chain.get(0))).as("removing an absent key").isNull();
    }

    @Test
    void shouldKeepEveryEntryWhenItGrows() {
        final IntObjectMap<Integer> map = new IntObjectMap<>(1);
        for (int key = 0; key < 10_000; key++) {
            map.put(key * 31, key);
        }
        assertThat(map.size()).isEqualTo(10_000);
        for (int key = 0; key < 10_000; key++) {
            assertThat(map.get(key * 31)).isEqualTo(key);
        }
    }

    @Test
    void shouldVisitEveryValueOnceAndAllowRemovalWhileIterating() {
        final IntObjectMap<Integer> map = new IntObjectMap<>(8);
        for (int key = 1; key <= 20; key++) {
            map.put(key, key);
        }
        final List<Integer> seen = new ArrayList<>();
        map.forEachValue(value -> {
            seen.add(value);
            if (value % 2 == 0) {
                map.remove(value);
            }
        });
        assertThat(seen).containsExactlyInAnyOrderElementsOf(range(1, 20));
        assertThat(map.size()).isEqualTo(10);
        final List<Integer> left = new ArrayList<>();
        map.forEachValue(left::add);
        assertThat(left).allMatch(value -> value % 2 == 1).hasSize(10);
    }

    @Test
    void shouldRefuseNullValues() {
        final IntObjectMap<String> map = new IntObjectMap<>(4);
        assertThatThrownBy(() -> map.put(1, null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldAgreeWithHashMapOverASeededRandomSequence() {
        final SplittableRandom random = new SplittableRandom(SEED);
        final IntObjectMap<Integer> map = new IntObjectMap<>(4);
        final Map<Integer, Integer> model = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            final int key = random.nextInt(512) - 256; // a small key space: many hits, removals and collisions
            switch (random.nextInt(3)) {
                case 0 -> assertThat(map.put(key, step)).isEqualTo(model.put(key, step));
                case 1 -> assertThat(map.remove(key)).isEqualTo(model.remove(key));
                default -> assertThat(map.get(key)).isEqualTo(model.get(key));
            }
            assertThat(map.size()).isEqualTo(model.size());
        }
        final List<Integer> values = new ArrayList<>();
        map.forEachValue(values::add);
        assertThat(values).containsExactlyInAnyOrderElementsOf(model.values());
    }

    /** {@code count} keys whose hash lands in the same slot of a table of {@code capacity} slots. */
    private static List<Integer> collidingKeys(final int capacity, final int count) {
        final List<Integer> keys = new ArrayList<>();
        final int home = slot(0, capacity);
        for (int key = 0; keys.size() < count; key++) {
            if (slot(key, capacity) == home) {
                keys.add(key);
            }
        }
        return keys;
    }

    /** The home slot as IntObjectMap computes it; kept in step with its private hash. */
    private static int slot(final int key, final int capacity) {
        final int h = key * 0x9E3779B9;
        return (h ^ (h >>> 16)) & (capacity - 1);
    }

    private static List<Integer> range(final int from, final int to) {
        final List<Integer> out = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            out.add(i);
        }
        return out;
    }
}
