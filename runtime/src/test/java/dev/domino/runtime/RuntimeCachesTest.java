package dev.domino.runtime;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The caches a server sees: sizes after lazy trees are built, bounds, clearing. */
class RuntimeCachesTest {
    @Test void measuredBoundedAndClearable() {
        Artifact a = Fixtures.json();
        Matcher m = a.newMatcher();
        assertThat(m.acceptString("{\"a\": \"x")).isTrue();
        assertThat(m.countAllowed()).isGreaterThan(1000); // most of the 4,097 tokens continue a string
        assertThat(RuntimeCaches.sizeBytes()).isGreaterThan(0);
        assertThat(RuntimeCaches.caches()).extracting(RuntimeCaches.CacheInfo::name).contains("vocabulary tries", "terminal walks");
        assertThatThrownBy(() -> RuntimeCaches.setMaxBytes("no such cache", 1)).isInstanceOf(IllegalArgumentException.class);
        RuntimeCaches.clear();
        assertThat(RuntimeCaches.sizeBytes()).isZero();
        assertThat(m.countAllowed()).as("an artifact keeps working after a clear").isGreaterThan(1000);
        assertThat(a.sharedParserStateBytes()).isGreaterThan(0);
        a.clearSharedParserStates();
        assertThat(a.sharedParserStateBytes()).isZero();
    }
}
