package io.ankusa.store.etcd;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.dispatch.TickHandler;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.runtime.QueueRuntime;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The queue running on a store — writer, syncer, dispatcher (delivering every claimed row) — with
 * producer threads that ingest hooks one after the other and record every answer with its times,
 * for the failover tests. An answer that takes longer than {@value #ANSWER_SECONDS} s is a hang,
 * and fails the load.
 */
final class QueueLoad implements AutoCloseable {
  static final long ANSWER_SECONDS = 60;

  /**
   * One answer: the outcome, the seq (CREATED), when the request was sent and answered (nanoTime).
   */
  record Answer(
      IngestResult.Outcome outcome, long seq, String reason, long sentNanos, long answeredNanos) {}

  /**
   * Delivers every row the tick claimed, as the README's embedding example does, and tells {@code
   * delivered} each seq once its delivery is written: a delivered hook's rows go (reclaim deletes
   * them), so "not lost" means in the store or delivered.
   */
  static TickHandler deliverAll(java.util.function.LongConsumer delivered) {
    return (queue, tick, now) -> {
      Transition t = new Transition();
      tick.claimed().forEach(row -> Deliveries.delivered(t, row));
      queue.write(t, Durability.NO_SYNC);
      tick.claimed().forEach(row -> delivered.accept(row.key().seq()));
    };
  }

  private final List<Thread> producers = new ArrayList<>();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final java.util.Set<Long> delivered;
  private final long dueInMs;
  private QueueRuntime runtime;

  private QueueLoad(java.util.Set<Long> delivered, long dueInMs) {
    this.delivered = delivered;
    this.dueInMs = dueInMs;
  }

  /**
   * Starts the queue on {@code store} and {@code threads} producers whose hooks are due {@code
   * dueInMs} after they are sent (0: at once, so the dispatcher claims and delivers them as they
   * come).
   */
  static QueueLoad start(Store store, int threads, long dueInMs) {
    java.util.Set<Long> delivered = java.util.concurrent.ConcurrentHashMap.newKeySet();
    QueueLoad load = new QueueLoad(delivered, dueInMs);
    load.runtime = QueueRuntime.start(store, QueueConfig.defaults(), deliverAll(delivered::add));
    for (int i = 0; i < threads; i++) {
      int id = i;
      Thread t = new Thread(() -> load.produce(id), "etcd-failover-producer-" + i);
      t.setDaemon(true);
      load.producers.add(t);
      t.start();
    }
    return load;
  }

  private void produce(int id) {
    long n = 0;
    try {
      while (running.get()) {
        long sent = System.nanoTime();
        IngestResult r =
            runtime
                .writer()
                .ingest(
                    new IngestRequest(
                        "tenant-" + (n % 4),
                        "failover",
                        "p" + id + "-" + n++,
                        null,
                        System.currentTimeMillis() + dueInMs,
                        List.of(1),
                        new byte[200]))
                .get(ANSWER_SECONDS, TimeUnit.SECONDS);
        answers.add(new Answer(r.outcome(), r.seq(), r.reason(), sent, System.nanoTime()));
        if (r.outcome() != IngestResult.Outcome.CREATED) {
          Thread.sleep(20); // fenced: the writer refuses at once; do not spin
        }
      }
    } catch (TimeoutException e) {
      failure.compareAndSet(
          null,
          new AssertionError(
              "an ingest got no answer within " + ANSWER_SECONDS + " s: the" + " writer hangs", e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | RuntimeException e) {
      failure.compareAndSet(null, e);
    }
  }

  java.util.Set<Long> delivered() {
    return java.util.Set.copyOf(delivered);
  }

  List<Answer> answers() {
    return List.copyOf(answers);
  }

  /** The answers so far that were CREATED. */
  long created() {
    return answers.stream().filter(a -> a.outcome() == IngestResult.Outcome.CREATED).count();
  }

  /**
   * Waits until {@code more} more hooks were CREATED than now, up to {@code timeoutMs}; false if
   * not.
   */
  boolean awaitCreated(long more, long timeoutMs) throws InterruptedException {
    long target = created() + more;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (System.nanoTime() < deadline) {
      if (created() >= target) {
        return true;
      }
      Thread.sleep(10);
    }
    return false;
  }

  QueueRuntime runtime() {
    return runtime;
  }

  Throwable failure() {
    return failure.get();
  }

  /** Stops the producers (each finishes its request) and closes the runtime. */
  @Override
  public void close() throws InterruptedException {
    running.set(false);
    for (Thread t : producers) {
      t.join(TimeUnit.SECONDS.toMillis(ANSWER_SECONDS + 5));
    }
    runtime.close();
  }

  /**
   * Every hook acknowledged CREATED in {@code answers} has its row in {@code view} or was
   * delivered; returns how many were checked, or throws naming the first lost.
   */
  static long assertNoAcknowledgedHookLost(
      ReadView view, List<Answer> answers, java.util.Set<Long> delivered, String when) {
    long checked = 0;
    for (Answer a : answers) {
      if (a.outcome() == IngestResult.Outcome.CREATED) {
        if (!delivered.contains(a.seq()) && view.get(Format3.HOOKS, Keys.hook(a.seq())) == null) {
          throw new AssertionError(
              when + ": hook seq " + a.seq() + " was acknowledged CREATED but is not in the store");
        }
        checked++;
      }
    }
    return checked;
  }

  /**
   * The queue verifier finds nothing: counters equal a fold, every due row has its marker, and so
   * on.
   */
  static void assertVerifiesClean(ReadView view, String when) {
    List<QueueVerifier.Breach> breaches = QueueVerifier.verify(view);
    if (!breaches.isEmpty()) {
      throw new AssertionError(when + ": the store does not verify clean: " + breaches);
    }
  }
}
