package io.ankusa.store.queue.internal.tenant;

import io.ankusa.store.layout.TenantId;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tenant id to ordinal, bounded: at most {@value #CAPACITY} entries, cleared whole when full (no
 * LRU bookkeeping on the writer's path; a miss costs one point read). Filled only after the commit
 * that created or first read an ordinal succeeded, so it never holds an ordinal the store does not.
 * Written by one thread (the writer), read by any.
 */
public final class OrdinalCache {
  public static final int CAPACITY = 65_536;
  private final ConcurrentHashMap<TenantId, Long> ords = new ConcurrentHashMap<>();
  private final int capacity;

  public OrdinalCache() {
    this(CAPACITY);
  }

  OrdinalCache(int capacity) {
    this.capacity = capacity;
  }

  /** The cached ordinal, or null. */
  public Long get(TenantId tenant) {
    return ords.get(tenant);
  }

  /** Records an ordinal known to be committed; clears the whole cache first when it is full. */
  void put(TenantId tenant, long ord) {
    if (ords.size() >= capacity && !ords.containsKey(tenant)) {
      ords.clear();
    }
    ords.put(tenant, ord);
  }

  /** Most ordinals held. */
  int capacity() {
    return capacity;
  }

  public int size() {
    return ords.size();
  }

  /** Forgets everything, e.g. after a fenced writer deleted ordinals it had allocated. */
  void clear() {
    ords.clear();
  }
}
