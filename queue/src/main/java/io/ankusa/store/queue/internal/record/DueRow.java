package io.ankusa.store.queue.internal.record;

import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.DueValue;

/** A due row as the index holds it: {@code 'D' ord at seq sink -> size kind}. */
public record DueRow(DueKey key, DueValue value) {
  public long ord() {
    return key.ord();
  }

  public long seq() {
    return key.seq();
  }
}
