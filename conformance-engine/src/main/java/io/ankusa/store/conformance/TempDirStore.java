package io.ankusa.store.conformance;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreClosedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A store of the backend under test in a fresh temporary directory that this object owns: {@link
 * #close()} closes the store (if open), lets the fixture forget it, and deletes the directory, so a
 * property that fails half-way still cleans up when used in try-with-resources.
 *
 * <p>Not thread-safe: one property try owns it; the store it hands out may be shared with threads
 * the try starts and joins.
 */
public final class TempDirStore implements AutoCloseable {
  private final BackendFixture fixture;
  private final Path dir;
  private List<FamilySpec> families;
  private Store store;

  private TempDirStore(BackendFixture fixture, Path dir, List<FamilySpec> families) {
    this.fixture = fixture;
    this.dir = dir;
    this.families = List.copyOf(families);
  }

  /** Creates a temporary directory and opens a new store in it with {@code families}. */
  public static TempDirStore open(BackendFixture fixture, List<FamilySpec> families) {
    TempDirStore created = empty(fixture, families);
    try {
      created.store = fixture.open(created.dir, families);
      return created;
    } catch (RuntimeException | Error e) {
      created.close();
      throw e;
    }
  }

  /**
   * Creates a temporary directory with no store open in it yet: the case writes its own content (a
   * format-2 store, an unpacked fixture) and hands the store it opened to {@link #hold}, or calls
   * {@link #reopen(List)}. {@code families} is what {@link #reopen()} lists until then.
   */
  public static TempDirStore empty(BackendFixture fixture, List<FamilySpec> families) {
    try {
      return new TempDirStore(
          fixture,
          Files.createTempDirectory("ankusa-conformance-" + fixture.name() + "-"),
          families);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create a temporary directory for a conformance store", e);
    }
  }

  /** Takes ownership of {@code opened}, a store the case opened on {@link #dir()}; returns it. */
  public Store hold(Store opened) {
    if (store != null && store != opened) {
      closeStore();
    }
    store = opened;
    return opened;
  }

  /** The open store. */
  public Store store() {
    if (store == null) {
      throw new StoreClosedException(
          "the conformance store in " + dir + " was closed by the suite; call reopen()");
    }
    return store;
  }

  public Path dir() {
    return dir;
  }

  public List<FamilySpec> families() {
    return families;
  }

  /** Closes the store; the directory stays until {@link #close()}. Idempotent. */
  public void closeStore() {
    if (store != null) {
      Store s = store;
      store = null;
      s.close();
    }
  }

  /** Closes the store (if open) and opens the same directory again with the same families. */
  public Store reopen() {
    return reopen(families);
  }

  /** Closes the store (if open) and opens the same directory again listing {@code listed}. */
  public Store reopen(List<FamilySpec> listed) {
    closeStore();
    store = fixture.open(dir, listed);
    families = List.copyOf(listed);
    return store;
  }

  /**
   * Crashes the open store with the fixture's {@link BackendFixture#crash} — no close, so nothing a
   * clean close commits — and opens the same directory again with the same families. REQUIRES: the
   * fixture {@link BackendFixture#simulatesCrash() simulates crashes} and a store is open.
   */
  public Store crashAndReopen() {
    Store crashed = store();
    store = null;
    fixture.crash(crashed);
    store = fixture.open(dir, families);
    return store;
  }

  /**
   * Reopens the way the reopen properties must: after {@link #crashAndReopen() a simulated crash}
   * when the fixture can simulate one, else after a clean close (the crash case then kills a child
   * process instead).
   */
  public Store crashOrCloseAndReopen() {
    return fixture.simulatesCrash() ? crashAndReopen() : reopen();
  }

  /** Closes the store, lets the fixture forget it and deletes the directory. */
  @Override
  public void close() {
    try {
      closeStore();
    } finally {
      try {
        fixture.discard(dir);
      } finally {
        FileTrees.deleteRecursively(dir);
      }
    }
  }
}
