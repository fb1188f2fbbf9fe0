package io.ankusa.store.etcd;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The counters this store last wrote, with the mod revision each got: a merge onto one of them
 * sends its sum under a compare on that revision without reading the counter first, so a merge
 * costs one round trip, not two. Only a hint: the compare refuses a stale entry (a counter another
 * write changed since), the store then forgets the entry and reads the counter. Puts and deletes of
 * counters forget what they touch. At most {@value #MAX_ENTRIES} entries, the least recently used
 * dropped first. Thread-safe.
 */
final class CounterCache {
  static final int MAX_ENTRIES = 65_536;

  /** A counter's value as this store wrote it, and the revision of that write. */
  record Known(long value, long modRevision) {}

  private final Map<ByteBuffer, Known> known =
      new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Known> eldest) {
          return size() > MAX_ENTRIES;
        }
      };

  synchronized Known get(ByteBuffer key) {
    return known.get(key);
  }

  synchronized void put(ByteBuffer key, Known value) {
    known.put(key, value);
  }

  synchronized void forget(ByteBuffer key) {
    known.remove(key);
  }

  synchronized void clear() {
    known.clear();
  }
}
