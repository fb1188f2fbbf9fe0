package io.ankusa.store.cli;

import io.ankusa.store.layout.Fields;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.record.FormatStamp;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ankusa-store inspect DIR}: what is in a store. */
@Command(
    name = "inspect",
    description =
        "Show a store's format, families (keys, bytes), tenants, top tenants and oldest due age.")
final class InspectCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "the store directory")
  Path dir;

  @Option(
      names = "--backend",
      defaultValue = "rocksdb",
      description = "the store's engine (default: ${DEFAULT-VALUE})")
  String backend;

  @Option(
      names = "--top",
      defaultValue = "10",
      description = "how many top tenants to list (default: ${DEFAULT-VALUE})")
  int top;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (top < 0) {
      throw new IllegalArgumentException("--top must be >= 0, got " + top);
    }
    PrintWriter out = spec.commandLine().getOut();
    try (Store store = StoreDirectory.openReadOnly(dir, backend);
        Snapshot view = store.snapshot()) {
      out.printf("store      %s (%s)%n", store.directory(), backend);
      out.printf(
          "format     %s%n",
          FormatStamp.stamp(view) < 0 ? "none" : String.valueOf(FormatStamp.stamp(view)));
      out.printf("%-12s %12s %14s%n", "family", "keys", "bytes");
      for (FamilySpec f : store.families()) {
        long keys = 0;
        long bytes = 0;
        try (Scan scan = view.scan(f.name(), new byte[0], null, Direction.FORWARD)) {
          while (scan.hasNext()) {
            Entry e = scan.next();
            keys++;
            bytes += e.key().length + e.value().length;
          }
        }
        out.printf("%-12s %12d %14d%n", f.name(), keys, bytes);
      }
      Map<Long, TenantCounts> counts = Counters.readAll(view);
      TenantCounts total = counts.getOrDefault(Fields.NODE_AGGREGATE_ORD, TenantCounts.ZERO);
      out.printf("tenants    %d%n", Tenants.count(view));
      out.printf(
          "rows       pending %d, scheduled %d, inflight %d, dead %d; %d bytes; archive pending %d%n",
          total.pending(),
          total.scheduled(),
          total.inflight(),
          total.dead(),
          total.bytes(),
          total.archivePending());
      out.printf(
          "oldest due %d ms%n", ActiveIndex.oldestDueAgeMs(view, System.currentTimeMillis()));
      printTop(out, view, counts, "pending", TenantCounts::due, top);
      printTop(out, view, counts, "dead", TenantCounts::dead, top);
      out.flush();
    }
    return 0;
  }

  /**
   * Lists the {@code top} tenants by {@code measure} of their counters, names resolved through
   * {@code view}.
   */
  static void printTop(
      PrintWriter out,
      ReadView view,
      Map<Long, TenantCounts> counts,
      String what,
      ToLongFunction<TenantCounts> measure,
      int top) {
    List<Map.Entry<Long, TenantCounts>> tenants = new ArrayList<>();
    counts.entrySet().stream()
        .filter(
            e -> e.getKey() != Fields.NODE_AGGREGATE_ORD && measure.applyAsLong(e.getValue()) > 0)
        .forEach(tenants::add);
    tenants.sort(
        Comparator.comparingLong(
                (Map.Entry<Long, TenantCounts> e) -> measure.applyAsLong(e.getValue()))
            .reversed());
    out.printf("top tenants by %s%n", what);
    for (Map.Entry<Long, TenantCounts> e : tenants.subList(0, Math.min(top, tenants.size()))) {
      String name = Tenants.name(view, e.getKey()).map(t -> t.value()).orElse("(erased)");
      out.printf("  %-32s ord %-8d %d%n", name, e.getKey(), measure.applyAsLong(e.getValue()));
    }
  }
}
