package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A closed store, and a closed snapshot, say so — naming the store's directory — before they judge
 * the call's arguments: an unlisted family, a counter of a plain family, a null cause. A scan that
 * reached its end before the close (the close does not close it: it holds no transaction) says so
 * too, and closes, from another thread without waiting on a lock the closing thread kept.
 */
class ClosedStoreTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counters", 0));
  private static final byte[] KEY = {1};

  @TempDir Path dir;

  private Store open() {
    return new LmdbStoreProvider().open(dir, StoreOptions.defaults(), FAMILIES);
  }

  private void assertClosed(String what, ThrowingCallable call) {
    assertThatThrownBy(call)
        .as(what)
        .isInstanceOf(StoreClosedException.class)
        .hasMessageContaining(dir.toString());
  }

  @Test
  void aClosedStoreSaysSoNamingItsDirectoryBeforeJudgingArguments() {
    Store store = open();
    store.close();
    assertClosed("get", () -> store.get("unlisted", KEY));
    assertClosed("multiGet", () -> store.multiGet("unlisted", List.of(KEY)));
    assertClosed("counter of a plain family", () -> store.counter("rows", KEY));
    assertClosed("scan", () -> store.scan("unlisted", new byte[0], null, Direction.FORWARD));
    assertClosed("snapshot", store::snapshot);
    assertClosed(
        "write", () -> store.write(new Batch().put("unlisted", KEY, KEY), Durability.SYNC));
    assertClosed("syncWal", store::syncWal);
    assertClosed("reportWriteFailure with a null cause", () -> store.reportWriteFailure(null));
  }

  @Test
  void aClosedSnapshotSaysSoBeforeJudgingArguments() {
    try (Store store = open()) {
      Snapshot snapshot = store.snapshot();
      snapshot.close();
      assertClosed("get", () -> snapshot.get("unlisted", KEY));
      assertClosed("multiGet", () -> snapshot.multiGet("unlisted", List.of(KEY)));
      assertClosed("counter of a plain family", () -> snapshot.counter("rows", KEY));
      assertClosed("scan", () -> snapshot.scan("unlisted", new byte[0], null, Direction.FORWARD));
    }
  }

  @Test
  void aFinishedScanClosesOnAnotherThreadAfterTheStoreClosed() throws Exception {
    Store store = open();
    store.write(new Batch().put("rows", KEY, KEY), Durability.SYNC);
    Scan finished = store.scan("rows", new byte[0], null, Direction.FORWARD);
    assertThat(finished.next().key()).isEqualTo(KEY);
    assertThat(finished.hasNext())
        .isFalse(); // at its end: its transaction is given back, so the close does not close it
    store.close();
    ExecutorService other =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "other-thread");
              t.setDaemon(true);
              return t;
            });
    try {
      Throwable afterClose =
          other
              .submit(
                  () -> {
                    Throwable t = catchThrowable(finished::hasNext);
                    finished.close();
                    return t;
                  })
              .get(10, TimeUnit.SECONDS);
      assertThat(afterClose)
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining(dir.toString());
    } finally {
      other.shutdownNow();
    }
  }
}
