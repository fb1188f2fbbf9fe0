package io.ankusa.store.queue.internal.record;

import io.ankusa.store.layout.DeadKey;
import io.ankusa.store.layout.DeadValue;

/** A dead row as the global time index holds it: {@code 'x' at seq sink -> ord source hook}. */
public record DeadRow(DeadKey key, DeadValue value) {
  public long ord() {
    return value.ord();
  }
}
