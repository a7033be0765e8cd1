package dev.domino.runtime.internal.util;


import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Byte-bounded LRU cache: evicts the coldest quarter when full, never everything. */
class BoundedCacheTest {
    @Test void evictsTheLeastRecentlyUsedDownToThreeQuarters() {
        BoundedCache<Integer, String> c = new BoundedCache<>("test", 1000);
        for (int i = 0; i < 10; i++) c.putIfAbsent(i, "v" + i, 100);
        assertThat(c.sizeBytes()).isEqualTo(1000);
        assertThat(c.get(0)).isEqualTo("v0"); // 0 is now recently used
        c.putIfAbsent(10, "v10", 100);        // 1100 > 1000: evict down to 750
        assertThat(c.sizeBytes()).isLessThanOrEqualTo(750);
        assertThat(c.size()).isEqualTo(7);
        assertThat(c.get(0)).isEqualTo("v0");
        assertThat(c.get(10)).isEqualTo("v10");
        assertThat(c.get(1)).isNull();
        assertThat(c.evictions()).isEqualTo(4);
    }

    @Test void growingEntriesAndClear() {
        BoundedCache<String, int[]> c = new BoundedCache<>("test", 1 << 20);
        assertThat(c.putIfAbsent("a", new int[1], 16)).hasSize(1);
        assertThat(c.putIfAbsent("a", new int[2], 16)).hasSize(1); // the first one stays
        c.addBytes("a", 100);
        assertThat(c.sizeBytes()).isEqualTo(116);
        c.addBytes("missing", 100);
        assertThat(c.sizeBytes()).isEqualTo(116);
        c.clear();
        assertThat(c.sizeBytes()).isZero();
        assertThat(c.size()).isZero();
        assertThatThrownBy(() -> c.setMaxBytes(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
