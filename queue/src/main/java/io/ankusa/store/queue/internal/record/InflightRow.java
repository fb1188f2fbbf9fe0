package io.ankusa.store.queue.internal.record;

import io.ankusa.store.layout.InflightKey;
import io.ankusa.store.layout.InflightValue;

/** An inflight row as the index holds it: {@code 'F' ord seq sink -> size}. */
public record InflightRow(InflightKey key, InflightValue value) {
  public long ord() {
    return key.ord();
  }

  public long size() {
    return value.size();
  }
}
