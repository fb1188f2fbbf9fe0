package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;

import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.dispatch.TickHandler;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.runtime.QueueRuntime;
import io.ankusa.store.queue.internal.runtime.RuntimeSettings;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * How the runtime's cases ({@link RuntimeCases}, {@link RuntimeWorkCases}) run a {@link
 * QueueRuntime}: started with its loops stepped ({@link SteppedLoops}), fed requests whose answers
 * are awaited within {@link LayoutAssertions#THREAD_WAIT_SECONDS}, and a handler that delivers what
 * it claims.
 */
final class SteppedRuntimes {
  private SteppedRuntimes() {}

  /**
   * The runtime's loops, as {@link io.ankusa.store.queue.internal.runtime.LoopPacer} and {@link
   * QueueRuntime#stopped()} name them.
   */
  static final String DISPATCHER = "dispatcher";

  static final String ARCHIVER = "archiver";
  static final String RECLAIM = "reclaim";
  static final String WRITER = "writer";

  /**
   * A runtime on {@code store} whose loops {@code loops} steps, returned once every loop has ended
   * the lap it runs as the runtime starts: what a case does next is never raced by a first lap.
   */
  static QueueRuntime startStepped(
      Store store,
      QueueConfig config,
      RuntimeSettings settings,
      TickHandler handler,
      io.ankusa.store.queue.archive.ArchiveSink sink,
      LongSupplier clock,
      SteppedLoops loops) {
    QueueRuntime runtime = QueueRuntime.start(store, config, settings, handler, sink, clock, loops);
    loops.awaitFirstLap(DISPATCHER);
    loops.awaitFirstLap(RECLAIM);
    if (sink != null) {
      loops.awaitFirstLap(ARCHIVER);
    }
    return runtime;
  }

  static RuntimeSettings settings(WriterConfig writer) {
    RuntimeSettings d = RuntimeSettings.defaults();
    return new RuntimeSettings(
        writer,
        d.dispatchRows(),
        d.dispatchBytes(),
        d.dispatchIdleMs(),
        d.reclaimLimit(),
        d.reclaimIdleMs(),
        d.archiveChunkHooks(),
        d.archiveIdleMs());
  }

  static IngestRequest request(String tenant, String key, int... sinks) {
    List<Integer> s = new ArrayList<>();
    for (int sink : sinks) {
      s.add(sink);
    }
    return new IngestRequest(
        tenant,
        "src",
        (key == null ? "hook" : key) + "-" + System.nanoTime(),
        key,
        START,
        s,
        new byte[10]);
  }

  /** A handler that delivers every claimed row and notes its seq (in claim order, given a list). */
  static TickHandler delivering(Collection<Long> delivered) {
    return (queue, tick, now) -> {
      Transition t = new Transition();
      for (InflightRow row : tick.claimed()) {
        Deliveries.delivered(t, row);
        delivered.add(row.key().seq());
      }
      queue.write(t, Durability.NO_SYNC);
    };
  }
}
