package io.ankusa.store.conformance.queue;

import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.OpHandler;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The memory backend behind a pretend write-ahead journal, so that it {@link #simulatesCrash()
 * simulates crashes}: every batch is applied to the memory store at once (readers see it) and kept
 * pending in the directory's journal; a {@code SYNC} write or a returned {@code syncWal()} commits
 * what is pending, and so does a clean close; {@link #crash} forgets what is pending, and the next
 * open finds the committed batches only. In the mutants the commit goes wrong the way engines get
 * it wrong, and the engine layer must notice:
 *
 * <ul>
 *   <li>{@link Commit#SYNC_WAL_DOES_NOTHING}: {@code syncWal()} returns without committing;
 *   <li>{@link Commit#SYNC_COMMITTED_AT_CLOSE}: a {@code SYNC} write is acknowledged but committed
 *       only by the next sync or a clean close;
 *   <li>{@link Commit#COMMITS_WHEN_BUFFER_FILLS}: a batch whose values exceed {@value
 *       #BUFFER_BYTES} bytes fills the write buffer half-way, and the engine commits what the
 *       buffer holds — the first half of the batch — leaving the rest pending.
 * </ul>
 */
final class CrashableMemoryFixture extends WrappingFixture {
  /** How the pretend engine commits its journal. */
  enum Commit {
    HONEST,
    SYNC_WAL_DOES_NOTHING,
    SYNC_COMMITTED_AT_CLOSE,
    COMMITS_WHEN_BUFFER_FILLS
  }

  /** The write buffer of {@link Commit#COMMITS_WHEN_BUFFER_FILLS}. */
  static final int BUFFER_BYTES = 1 << 20;

  /** What one directory's engine committed, and what it holds pending. Guarded by itself. */
  private static final class Journal {
    final List<Batch> committed = new ArrayList<>();
    final List<Batch> pending = new ArrayList<>();

    void commitPending() {
      committed.addAll(pending);
      pending.clear();
    }
  }

  private static final Map<Path, Journal> JOURNALS = new ConcurrentHashMap<>();
  private final Commit commit;

  CrashableMemoryFixture(Commit commit) {
    super(
        commit == Commit.HONEST ? "crashable memory" : "crashable memory mutant " + commit,
        UnaryOperator.identity());
    this.commit = commit;
  }

  @Override
  public boolean simulatesCrash() {
    return true;
  }

  @Override
  public Store open(Path dir, List<FamilySpec> families) {
    return new JournaledStore(
        super.open(dir, families), JOURNALS.computeIfAbsent(key(dir), d -> new Journal()));
  }

  /**
   * Forgets the pending batches, drops the memory store without the journal's close (memory's own
   * close only releases its in-JVM lock) and rebuilds it from the committed batches.
   */
  @Override
  public void crash(Store store) {
    JournaledStore crashed = (JournaledStore) store;
    Path dir = crashed.directory();
    List<FamilySpec> families = crashed.families();
    List<Batch> committed;
    synchronized (crashed.journal) {
      crashed.journal.pending.clear();
      committed = List.copyOf(crashed.journal.committed);
    }
    crashed.abandon();
    super.discard(dir);
    try (Store rebuilt = super.open(dir, families)) {
      committed.forEach(b -> rebuilt.write(b, Durability.SYNC));
    }
  }

  @Override
  public void discard(Path dir) {
    JOURNALS.remove(key(dir));
    super.discard(dir);
  }

  private static Path key(Path dir) {
    return dir.toAbsolutePath().normalize();
  }

  /** A memory store whose writes go through the journal. */
  private final class JournaledStore extends ForwardingStore {
    final Journal journal;

    JournaledStore(Store memory, Journal journal) {
      super(memory);
      this.journal = journal;
    }

    @Override
    public void write(Batch batch, Durability durability) {
      synchronized (journal) { // the journal's order is the order the batches were applied in
        delegate.write(batch, durability);
        Batch copy = copyOf(batch);
        if (commit == Commit.COMMITS_WHEN_BUFFER_FILLS && valueBytes(copy) > BUFFER_BYTES) {
          List<Op> ops = copy.ops();
          Batch firstHalf = new Batch();
          Batch rest = new Batch();
          ops.subList(0, ops.size() / 2).forEach(firstHalf::add);
          ops.subList(ops.size() / 2, ops.size()).forEach(rest::add);
          journal.pending.add(firstHalf);
          journal.commitPending(); // the buffer is full: commit what it holds
          journal.pending.add(rest);
        } else {
          journal.pending.add(copy);
        }
        if (durability == Durability.SYNC && commit != Commit.SYNC_COMMITTED_AT_CLOSE) {
          journal.commitPending();
        }
      }
    }

    @Override
    public void syncWal() {
      delegate.syncWal();
      if (commit != Commit.SYNC_WAL_DOES_NOTHING) {
        synchronized (journal) {
          journal.commitPending();
        }
      }
    }

    /** A clean close commits what is pending, as engines do. */
    @Override
    public void close() {
      synchronized (journal) {
        journal.commitPending();
      }
      delegate.close();
    }

    /** Drops the memory store without committing anything. */
    void abandon() {
      delegate.close();
    }
  }

  /** A deep copy: the caller owns the arrays of its batch and may change them after the write. */
  private static Batch copyOf(Batch batch) {
    Batch copy = new Batch();
    batch.forEach(
        new OpHandler<RuntimeException>() {
          @Override
          public void put(Op.Put p) {
            copy.put(p.family(), p.key().clone(), p.value().clone());
          }

          @Override
          public void delete(Op.Delete d) {
            copy.delete(d.family(), d.key().clone());
          }

          @Override
          public void deleteRange(Op.DeleteRange r) {
            copy.deleteRange(r.family(), r.lo().clone(), r.hi().clone());
          }

          @Override
          public void merge(Op.Merge m) {
            copy.merge(m.family(), m.key().clone(), m.delta());
          }
        });
    return copy;
  }

  private static long valueBytes(Batch batch) {
    return batch.ops().stream()
        .mapToLong(
            op ->
                op.accept(
                    new Op.Visitor<Long>() {
                      @Override
                      public Long put(Op.Put p) {
                        return (long) p.value().length;
                      }

                      @Override
                      public Long delete(Op.Delete d) {
                        return 0L;
                      }

                      @Override
                      public Long deleteRange(Op.DeleteRange r) {
                        return 0L;
                      }

                      @Override
                      public Long merge(Op.Merge m) {
                        return 8L;
                      }
                    }))
        .sum();
  }
}
