package io.ankusa.store.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

/**
 * The handle gate's promises, each with the interleaving that would break it forced: the exclusive
 * side waits for a reader on another thread, a reader waits for the exclusive side, a nested read
 * gets in while an exclusive holder waits, and the exclusive holder may read. Then a random mix of
 * readers and exclusive holders on several threads, replayable with {@code -Dankusa.seed}.
 */
@Timeout(
    value = 120,
    threadMode = ThreadMode.SEPARATE_THREAD) // a broken gate deadlocks rather than fails
class HandleGateTest {
  private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final HandleGate gate = new HandleGate();

  @Test
  void theExclusiveSideWaitsForAReaderOnAnotherThread() throws InterruptedException {
    AtomicBoolean freed = new AtomicBoolean();
    gate.enterShared();
    Thread closer =
        startAndAwaitParked(
            "lockExclusive while another thread reads",
            () -> {
              gate.lockExclusive();
              freed.set(true);
              gate.unlockExclusive();
            });
    assertThat(freed).as("the exclusive holder ran while a reader held the gate").isFalse();
    gate.exitShared();
    join(closer);
    assertThat(freed).isTrue();
  }

  @Test
  void aReaderWaitsWhileAnotherThreadHoldsTheExclusiveSide() throws InterruptedException {
    AtomicBoolean entered = new AtomicBoolean();
    gate.lockExclusive();
    Thread reader =
        startAndAwaitParked(
            "enterShared while another thread holds the exclusive side",
            () -> {
              gate.enterShared();
              entered.set(true);
              gate.exitShared();
            });
    assertThat(entered).as("a reader got in under the exclusive holder").isFalse();
    gate.unlockExclusive();
    join(reader);
    assertThat(entered).isTrue();
  }

  @Test
  void aNestedReadGetsInWhileAnExclusiveHolderWaits() throws InterruptedException {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch readerIn = new CountDownLatch(1);
    CountDownLatch closerWaits = new CountDownLatch(1);
    CountDownLatch nestedDone = new CountDownLatch(1);
    Thread reader =
        new Thread(
            () -> {
              try {
                gate.enterShared();
                readerIn.countDown();
                closerWaits.await();
                gate.enterShared(); // a visitor reading its own store
                gate.exitShared();
                nestedDone.countDown();
                gate.exitShared();
              } catch (Throwable t) {
                failure.set(t);
              }
            });
    reader.start();
    assertThat(readerIn.await(30, TimeUnit.SECONDS)).isTrue();
    Thread closer =
        startAndAwaitParked(
            "lockExclusive while a reader holds the gate",
            () -> {
              gate.lockExclusive();
              gate.unlockExclusive();
            });
    closerWaits.countDown();
    assertThat(nestedDone.await(30, TimeUnit.SECONDS))
        .as(
            "the nested read waited for the exclusive holder, which waits for the outer read: deadlock")
        .isTrue();
    join(reader);
    join(closer);
    assertThat(failure.get()).isNull();
  }

  @Test
  void theExclusiveHolderMayReadAndOthersStayOut() throws InterruptedException {
    gate.lockExclusive();
    gate.enterShared();
    assertThat(gate.heldByCurrentThread()).isTrue();
    gate.exitShared();
    gate.lockExclusive(); // reentrant
    gate.unlockExclusive();
    AtomicBoolean entered = new AtomicBoolean();
    Thread reader =
        startAndAwaitParked(
            "enterShared after the inner of two exclusive holds ended",
            () -> {
              gate.enterShared();
              entered.set(true);
              gate.exitShared();
            });
    assertThat(entered).isFalse();
    gate.unlockExclusive();
    join(reader);
    assertThat(entered).isTrue();
  }

  @Test
  void misuseIsRefused() {
    assertThatThrownBy(gate::exitShared).isInstanceOf(IllegalStateException.class);
    gate.enterShared();
    assertThatThrownBy(gate::lockExclusive)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("holds the shared side");
    gate.exitShared();
    assertThat(gate.heldByCurrentThread()).isFalse();
    gate.lockExclusive(); // nothing was left held
    gate.unlockExclusive();
  }

  @Test
  void anInterruptedExclusiveHolderStillWaitsAndKeepsItsInterrupt() throws InterruptedException {
    AtomicBoolean freed = new AtomicBoolean();
    AtomicBoolean interruptKept = new AtomicBoolean();
    gate.enterShared();
    Thread closer =
        startAndAwaitParked(
            "lockExclusive while another thread reads",
            () -> {
              gate.lockExclusive();
              freed.set(true);
              interruptKept.set(Thread.currentThread().isInterrupted());
              gate.unlockExclusive();
            });
    closer.interrupt();
    awaitParked(closer, "the interrupted lockExclusive");
    assertThat(freed).as("an interrupt let the exclusive holder in under a reader").isFalse();
    gate.exitShared();
    join(closer);
    assertThat(freed).isTrue();
    assertThat(interruptKept).isTrue();
  }

  /**
   * Readers (some nesting a second read) and exclusive holders on four threads, in an order drawn
   * from the seed: no reader ever sees the handle freed, no exclusive holder ever runs beside a
   * reader, and every thread finishes.
   */
  @Test
  void randomReadersAndExclusiveHoldersNeverOverlap() throws InterruptedException {
    long seed = Long.getLong("ankusa.seed", System.nanoTime()); // the project's one seed property
    String replay = "seed " + seed + ", replay with -Dankusa.seed=" + seed;
    AtomicBoolean freed = new AtomicBoolean();
    AtomicInteger readers = new AtomicInteger();
    AtomicReference<String> broken = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Random random = new Random(seed + t);
      Thread thread =
          new Thread(
              () -> {
                for (int op = 0; op < 20_000 && broken.get() == null; op++) {
                  if (random.nextInt(100) < 2) {
                    gate.lockExclusive();
                    freed.set(true);
                    if (readers.get() != 0) {
                      broken.compareAndSet(
                          null, "an exclusive holder ran beside " + readers.get() + " readers");
                    }
                    freed.set(false);
                    gate.unlockExclusive();
                  } else {
                    gate.enterShared();
                    readers.incrementAndGet();
                    int depth = random.nextInt(4) == 0 ? 2 : 1;
                    if (depth == 2) {
                      gate.enterShared();
                    }
                    if (freed.get()) {
                      broken.compareAndSet(null, "a reader saw the handle freed");
                    }
                    readers.decrementAndGet();
                    if (depth == 2) {
                      gate.exitShared();
                    }
                    gate.exitShared();
                  }
                }
              },
              "gate-" + t);
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join(TimeUnit.NANOSECONDS.toMillis(PATIENCE_NANOS) * 2);
      assertThat(thread.isAlive()).as("a thread did not finish within 60 s (%s)", replay).isFalse();
    }
    assertThat(broken.get()).as(replay).isNull();
  }

  /**
   * Starts {@code action} and returns once it is parked (on the gate or its lock), not finished.
   */
  private static Thread startAndAwaitParked(String what, Runnable action) {
    Thread thread = new Thread(action, "racing-the-gate");
    thread.setDaemon(true);
    thread.start();
    awaitParked(thread, what);
    return thread;
  }

  private static void awaitParked(Thread thread, String what) {
    long deadline = System.nanoTime() + PATIENCE_NANOS;
    while (true) {
      Thread.State state = thread.getState();
      if (state == Thread.State.WAITING && LockSupport.getBlocker(thread) != null) {
        return;
      }
      if (state == Thread.State.TERMINATED) {
        throw new AssertionError(what + " finished instead of waiting");
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + " neither waited nor finished within 30 s");
      }
      Thread.onSpinWait();
    }
  }

  private static void join(Thread thread) throws InterruptedException {
    thread.join(TimeUnit.NANOSECONDS.toMillis(PATIENCE_NANOS));
    assertThat(thread.isAlive()).as(thread.getName() + " still running after 30 s").isFalse();
  }
}
