package io.ankusa.store.etcd;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a write whose answer was lost (a leader killed, a timeout) is sent again without being
 * applied twice. Each write borrows a slot, a key {@code P ledger/TOKEN/SLOT} only that write
 * touches while it runs; its transaction compares the slot key's mod revision with the one the
 * slot's last write left, and sets the key to the slot's next sequence number. So of all the tries
 * of one write at most one applies (the first applied changes the mod revision the others compare),
 * and a refused try that finds the key holding its own sequence number knows an earlier try
 * applied. A slot whose write ended without an answer is dropped, never reused.
 *
 * <p>Thread-safe; a slot is used by one write at a time.
 */
final class WriteLedger {
  /**
   * One slot: its number, the last sequence number written to it, and the mod revision of that
   * write.
   */
  static final class Slot {
    final int id;
    long seq;
    long modRevision;

    Slot(int id) {
      this.id = id;
    }
  }

  private final ConcurrentLinkedDeque<Slot> free = new ConcurrentLinkedDeque<>();
  private final AtomicInteger next = new AtomicInteger();

  /** A slot for one write; give it back with {@link #giveBack} when the write got an answer. */
  Slot borrow() {
    Slot s = free.pollFirst();
    return s != null ? s : new Slot(next.getAndIncrement());
  }

  void giveBack(Slot slot) {
    free.addFirst(slot);
  }
}
