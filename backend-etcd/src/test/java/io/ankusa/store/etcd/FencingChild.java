package io.ankusa.store.etcd;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.runtime.QueueRuntime;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.op.Cmp;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The owning process of {@link FencingTest}: opens the store in {@code args[0]} with the options in
 * {@code args[2..]} ({@code KEY=VALUE}), runs the queue on it and ingests hooks one after the
 * other, printing a line per answer ({@code CREATED seq}, {@code UNAVAILABLE reason}, {@code FAILED
 * message}) and per delivery written ({@code DELIVERED seq}), after {@code OWNER token} once the
 * store is open. With {@code args[1]} {@code mutant} the store's writes carry no fencing compare —
 * the mutant the suite must reject.
 */
public final class FencingChild {
  private FencingChild() {}

  /** A fence that compares nothing and always believes it owns the store. */
  static final UnaryOperator<WriteFence> NO_FENCE =
      real ->
          new WriteFence() {
            @Override
            public List<Cmp> compares() {
              return List.of();
            }

            @Override
            public boolean holds(KeyValue ownerNow) {
              return true;
            }

            @Override
            public String describe(KeyValue ownerNow) {
              return real.describe(ownerNow);
            }
          };

  public static void main(String[] args) throws Exception {
    StoreOptions options = StoreOptions.defaults();
    for (int i = 2; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      options = options.with(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    boolean mutant = args[1].equals("mutant");
    Store store =
        new EtcdStoreProvider()
            .open(
                Path.of(args[0]),
                options,
                Format3.families(),
                mutant ? NO_FENCE : UnaryOperator.identity());
    System.out.println("OWNER " + ((EtcdStore) store).token());
    System.out.flush();
    QueueRuntime runtime =
        QueueRuntime.start(
            store,
            QueueConfig.defaults(),
            QueueLoad.deliverAll(
                seq -> {
                  System.out.println("DELIVERED " + seq);
                  System.out.flush();
                }));
    for (long n = 0; ; n++) {
      String line;
      try {
        IngestResult r =
            runtime
                .writer()
                .ingest(
                    new IngestRequest(
                        "tenant-" + (n % 3),
                        "fencing",
                        "child-" + n,
                        null,
                        System.currentTimeMillis(),
                        List.of(1),
                        new byte[100]))
                .get(60, TimeUnit.SECONDS);
        line =
            r.outcome() == IngestResult.Outcome.CREATED
                ? "CREATED " + r.seq()
                : r.outcome() + " " + r.reason();
      } catch (Exception e) {
        line = "FAILED " + e;
      }
      System.out.println(line);
      System.out.flush();
      Thread.sleep(20);
    }
  }
}
