package io.ankusa.store.queue.internal.runtime;

import io.ankusa.store.queue.archive.ArchiveSink;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.archive.Archiver;
import io.ankusa.store.queue.internal.dispatch.DispatchPolicy;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.dispatch.TickHandler;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.maintenance.InflightRecovery;
import io.ankusa.store.queue.internal.maintenance.Reclaim;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue as a service runs it: one object that owns the whole lifecycle on one open {@link
 * Store}.
 *
 * <h2>Start, in this order</h2>
 *
 * <ol>
 *   <li>{@link DeliveryQueue#open} (lays out or migrates the store);
 *   <li>{@link InflightRecovery#recoverInflight}: every inflight row of an earlier run is due again
 *       (or dropped with its delivery row when its hook is gone), then {@link
 *       io.ankusa.store.queue.internal.index.ActiveIndex#repair} gives a marker back to any due row
 *       a crash left without one — all before anything is served;
 *   <li>the {@link QueueWriter} (its writer and WAL syncer threads; it also sweeps expired dedupe
 *       keys);
 *   <li>the dispatcher loop ({@value #DISPATCHER_THREAD}): {@link Dispatcher#tick} on the writer's
 *       durable watermark ({@code writer::durableSeq}, wired here, so no row above it is ever
 *       claimed), then the embedder's {@link TickHandler} with the tick's claimed rows;
 *   <li>with an {@link ArchiveSink}: the archiver loop ({@value #ARCHIVER_THREAD}), {@link
 *       Archiver#archiveChunk} on the same watermark;
 *   <li>the reclaim loop ({@value #RECLAIM_THREAD}): {@link Reclaim#pass} after pass while markers
 *       are left ahead of its cursor, a pause at the end of each lap.
 * </ol>
 *
 * Each loop pauses after a step that found no work for its idle time ({@link RuntimeSettings}); a
 * {@link LoopPacer} does the pausing, and a test passes its own to step the loops one lap at a
 * time. Every thread is a daemon ({@link #threads()}).
 *
 * <h2>Close, in the reverse order</h2>
 *
 * {@link #close()} stops reclaim, then the archiver (after a last {@link Archiver#drain()} up to
 * the durable watermark, unless a component already failed), then the dispatcher (a tick in
 * progress finishes, with its handler call), then the writer ({@link QueueWriter#close()}: drains,
 * syncs and answers everything queued). It joins every thread the runtime started: none outlives
 * {@code close()}. Idempotent. It does not close the store: close the store after the runtime.
 *
 * <h2>Failures</h2>
 *
 * Fail-stop: when a loop throws (the handler, the archive sink, a store read), the runtime logs it,
 * keeps the first failure ({@link #failure()}), and stops every component in the same reverse order
 * from the failing thread. A step of {@code close()} that throws does not stop the later steps.
 * {@code close()} then throws the first failure — the running one if any, else the first step that
 * failed — with the later ones suppressed ({@link StoreException} wrapping a checked one).
 *
 * <p>The loose classes ({@link QueueWriter}, {@link Dispatcher}, {@link Archiver}, {@link Reclaim},
 * {@link InflightRecovery}) stay usable on their own for tests and tools; a service uses this
 * class. Thread-safe.
 */
public final class QueueRuntime implements AutoCloseable {
  /** The dispatcher loop's thread. */
  public static final String DISPATCHER_THREAD = "ankusa-dispatcher";

  /** The archiver loop's thread. */
  public static final String ARCHIVER_THREAD = "ankusa-archiver";

  /** The reclaim loop's thread. */
  public static final String RECLAIM_THREAD = "ankusa-reclaim";

  private static final Logger LOG = LoggerFactory.getLogger(QueueRuntime.class);

  private final DeliveryQueue queue;
  private final InflightRecovery.Result recovery;
  private final LongSupplier clock;
  private final LoopPacer pacer;

  /** Components in start order; closed in reverse. */
  private final List<Component> components = new ArrayList<>();

  private final List<String> stopped = Collections.synchronizedList(new ArrayList<>());
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final LongAdder reclaimed = new LongAdder();
  private final List<Thread> threads = new ArrayList<>();
  private QueueWriter writer;
  private Archiver archiver;
  private volatile Archiver.ChunkReport archived = Archiver.ChunkReport.NONE;
  private volatile Dispatcher.TickReport lastTick = Dispatcher.TickReport.NONE;

  private QueueRuntime(
      DeliveryQueue queue, InflightRecovery.Result recovery, LongSupplier clock, LoopPacer pacer) {
    this.queue = queue;
    this.recovery = recovery;
    this.clock = clock;
    this.pacer = pacer;
  }

  /**
   * {@link #start(Store, QueueConfig, RuntimeSettings, TickHandler, ArchiveSink, LongSupplier)}
   * with the defaults, no archive and the system clock.
   */
  public static QueueRuntime start(Store store, QueueConfig config, TickHandler handler) {
    return start(
        store, config, RuntimeSettings.defaults(), handler, null, System::currentTimeMillis);
  }

  /**
   * Recovers the queue on {@code store} and starts every component (see the class doc), its loops
   * paced by {@link LoopPacer#PARK}.
   *
   * @param config the queue's settings; {@code archive.enabled} must be on exactly when a sink is
   *     given
   * @param archiveSink where the archiver copies hooks, or null for no archiver
   * @param clock epoch milliseconds: recovery, ticks, the writer's stamps and dedupe expiry
   * @throws StoreArgumentException if the archive setting and the sink disagree
   */
  public static QueueRuntime start(
      Store store,
      QueueConfig config,
      RuntimeSettings settings,
      TickHandler handler,
      ArchiveSink archiveSink,
      LongSupplier clock) {
    return start(store, config, settings, handler, archiveSink, clock, LoopPacer.PARK);
  }

  /**
   * {@link #start(Store, QueueConfig, RuntimeSettings, TickHandler, ArchiveSink, LongSupplier)}
   * with the loops paced by {@code pacer}: how a test steps them one lap at a time (see {@link
   * LoopPacer}).
   */
  public static QueueRuntime start(
      Store store,
      QueueConfig config,
      RuntimeSettings settings,
      TickHandler handler,
      ArchiveSink archiveSink,
      LongSupplier clock,
      LoopPacer pacer) {
    return start(
        store, config, settings, queue -> Dispatcher.CLAIM_ALL, handler, archiveSink, clock, pacer);
  }

  /**
   * {@link #start(Store, QueueConfig, RuntimeSettings, TickHandler, ArchiveSink, LongSupplier,
   * LoopPacer)} with a dispatcher that hands the rows each tick takes to the settler {@code
   * settlerOf} makes for the queue ({@link Dispatcher.ClaimSettler}): how a synchronous delivery
   * handler answers them with their claim.
   */
  public static QueueRuntime start(
      Store store,
      QueueConfig config,
      RuntimeSettings settings,
      java.util.function.Function<DeliveryQueue, Dispatcher.ClaimSettler> settlerOf,
      TickHandler handler,
      ArchiveSink archiveSink,
      LongSupplier clock,
      LoopPacer pacer) {
    Objects.requireNonNull(settlerOf, "settlerOf");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(pacer, "pacer");
    if (config.archiveEnabled() != (archiveSink != null)) {
      throw new StoreArgumentException(
          config.archiveEnabled()
              ? "archive.enabled is on but no archive sink was given: obligations would pile up and no hook would ever"
                  + " be reclaimed; pass a sink, or turn the archive off"
              : "an archive sink was given but archive.enabled is off, so no hook would reach it; turn the archive on");
    }
    DeliveryQueue queue = DeliveryQueue.open(store, config);
    InflightRecovery.Result recovery = InflightRecovery.recoverInflight(queue, clock.getAsLong());
    if (recovery.recovered() + recovery.orphansDropped() + recovery.markersRepaired() > 0) {
      LOG.info(
          "queue at {}: recovered {} inflight rows, dropped {} orphans, repaired {} markers",
          store.directory(),
          recovery.recovered(),
          recovery.orphansDropped(),
          recovery.markersRepaired());
    }
    QueueRuntime runtime = new QueueRuntime(queue, recovery, clock, pacer);
    try {
      runtime.startComponents(
          settings,
          Objects.requireNonNull(settlerOf.apply(queue), "settler"),
          handler,
          archiveSink);
    } catch (RuntimeException | Error e) {
      Throwable stopError = runtime.stopAll();
      runtime.joinAll();
      if (stopError != null) {
        e.addSuppressed(stopError);
      }
      throw e;
    }
    return runtime;
  }

  private void startComponents(
      RuntimeSettings settings,
      Dispatcher.ClaimSettler settler,
      TickHandler handler,
      ArchiveSink archiveSink) {
    writer = QueueWriter.start(queue, settings.writer(), clock);
    threads.addAll(writer.threads());
    components.add(new Component("writer", writer::close));

    Dispatcher dispatcher =
        new Dispatcher(
            queue,
            writer::durableSeq,
            settings.dispatchRows(),
            settings.dispatchBytes(),
            DispatchPolicy.defaults(),
            settler);
    startLoop(
        "dispatcher",
        DISPATCHER_THREAD,
        settings.dispatchIdleMs(),
        () -> {
          long now = clock.getAsLong();
          Dispatcher.TickReport tick = dispatcher.tick(now);
          lastTick = tick;
          handler.handle(queue, tick, now);
          return tick.rowsClaimed() > 0;
        },
        () -> {
          if (failure.get() == null) {
            handler.stopped(queue, clock.getAsLong());
          }
        });

    if (archiveSink != null) {
      archiver = new Archiver(queue, writer::durableSeq, archiveSink, settings.archiveChunkHooks());
      startLoop(
          "archiver",
          ARCHIVER_THREAD,
          settings.archiveIdleMs(),
          () -> {
            Archiver.ChunkReport r = archiver.archiveChunk();
            archived = archived.plus(r);
            return r.obligations() > 0;
          },
          () -> {
            if (failure.get() == null) {
              archived = archived.plus(archiver.drain());
            }
          });
    }

    startLoop(
        "reclaim",
        RECLAIM_THREAD,
        settings.reclaimIdleMs(),
        () -> {
          Reclaim.Pass pass = Reclaim.pass(queue, settings.reclaimLimit());
          reclaimed.add(pass.reclaimed());
          return !pass.lapEnded();
        },
        () -> {});
  }

  private void startLoop(
      String name, String threadName, long idleMs, Step step, Runnable afterStop) {
    Loop loop = new Loop(name, step, idleMs);
    Thread thread = new Thread(loop, threadName);
    thread.setDaemon(true);
    loop.thread = thread;
    components.add(
        new Component(
            name,
            () -> {
              loop.stop();
              afterStop.run();
            }));
    threads.add(thread);
    thread.start();
  }

  /** The queue the runtime serves: its store, counters and transitions. */
  public DeliveryQueue queue() {
    return queue;
  }

  /** The writer: {@link QueueWriter#ingest} is how hooks come in. */
  public QueueWriter writer() {
    return writer;
  }

  /**
   * The clock the runtime was started with (epoch ms): what its recovery, ticks and writer read,
   * and what {@code QueueMetrics.of} measures ages against.
   */
  public LongSupplier clock() {
    return clock;
  }

  /** What the start's recovery did. */
  public InflightRecovery.Result recovery() {
    return recovery;
  }

  /** The dispatcher's last tick (an empty one before the first). */
  public Dispatcher.TickReport lastTick() {
    return lastTick;
  }

  /** Hooks the reclaim loop has deleted since start. */
  public long reclaimedHooks() {
    return reclaimed.sum();
  }

  /** What the archiver has archived since start, its last drain included; NONE without a sink. */
  public Archiver.ChunkReport archived() {
    return archived;
  }

  /** The first failure of a component, if one failed; the runtime has then stopped. */
  public Optional<Throwable> failure() {
    return Optional.ofNullable(failure.get());
  }

  /**
   * The components stopped so far, in the order they stopped ({@code "reclaim"}, {@code
   * "archiver"}, {@code "dispatcher"}, {@code "writer"}): after {@link #close()}, or after a
   * failure, every one.
   */
  public List<String> stopped() {
    return List.copyOf(stopped);
  }

  /**
   * Every thread the runtime started, the writer's included: daemons, named {@link
   * QueueWriter#WRITER_THREAD}, {@link QueueWriter#SYNCER_THREAD}, {@value #DISPATCHER_THREAD},
   * {@value #ARCHIVER_THREAD} (with a sink) and {@value #RECLAIM_THREAD}. None outlives {@link
   * #close()}.
   */
  public List<Thread> threads() {
    return List.copyOf(threads);
  }

  /**
   * Stops every component in reverse start order and joins their threads (see the class doc).
   * Idempotent; a second call returns at once.
   *
   * @throws RuntimeException the first failure, running or closing; later ones suppressed
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    Throwable stopError = stopAll();
    joinAll();
    Throwable first = failure.get() != null ? failure.get() : stopError;
    if (first != null && stopError != null && stopError != first) {
      first.addSuppressed(stopError);
    }
    if (first instanceof RuntimeException r) {
      throw r;
    }
    if (first instanceof Error e) {
      throw e;
    }
    if (first != null) {
      throw new StoreException(
          "queue runtime of the store at " + queue.store().directory() + " failed: " + first,
          first);
    }
  }

  /**
   * Stops every component not yet stopped, in reverse start order; returns the first error, later
   * ones suppressed.
   */
  private Throwable stopAll() {
    Throwable first = null;
    for (int i = components.size() - 1; i >= 0; i--) {
      Component c = components.get(i);
      if (!c.stopping.compareAndSet(false, true)) {
        continue;
      }
      try {
        c.stop.run();
      } catch (RuntimeException | Error e) {
        LOG.error("queue at {}: stopping the {} failed", queue.store().directory(), c.name, e);
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      } finally {
        stopped.add(c.name);
      }
    }
    return first;
  }

  private void joinAll() {
    Thread self = Thread.currentThread();
    for (Thread t : threads) {
      if (t != self) {
        joinUninterruptibly(t);
      }
    }
  }

  /** A loop failed: keep the first failure and stop everything from this thread. */
  private void failed(String component, Throwable t) {
    if (failure.compareAndSet(null, t)) {
      LOG.error(
          "queue at {}: the {} failed; stopping every component",
          queue.store().directory(),
          component,
          t);
      Throwable stopError = stopAll();
      if (stopError != null) {
        t.addSuppressed(stopError);
      }
    } else {
      LOG.error(
          "queue at {}: the {} failed too, while stopping",
          queue.store().directory(),
          component,
          t);
    }
  }

  private static void joinUninterruptibly(Thread t) {
    boolean interrupted = false;
    while (t.isAlive()) {
      try {
        t.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** One step of a loop; true when it did work (the loop goes on at once), false to pause. */
  @FunctionalInterface
  private interface Step {
    boolean run() throws Exception;
  }

  /** A started component and how to stop it; stopped at most once. */
  private static final class Component {
    final String name;
    final Runnable stop;
    final AtomicBoolean stopping = new AtomicBoolean();

    Component(String name, Runnable stop) {
      this.name = name;
      this.stop = stop;
    }
  }

  /**
   * A loop on its own thread: a step, a pause ({@link LoopPacer#idle}) when it did nothing, until
   * stopped or failed.
   */
  private final class Loop implements Runnable {
    private final String name;
    private final Step step;
    private final long idleMs;
    private volatile boolean running = true;
    private volatile Thread thread;

    Loop(String name, Step step, long idleMs) {
      this.name = name;
      this.step = step;
      this.idleMs = idleMs;
    }

    @Override
    public void run() {
      try {
        while (running) {
          if (!step.run() && running) {
            pacer.idle(name, idleMs);
          }
        }
      } catch (Throwable t) {
        running = false;
        failed(name, t);
      }
    }

    /**
     * Asks the loop to stop after its current step and waits for it (unless called from the loop).
     */
    void stop() {
      running = false;
      Thread t = thread;
      pacer.wake(name, t);
      if (t != Thread.currentThread()) {
        joinUninterruptibly(t);
      }
    }
  }
}
