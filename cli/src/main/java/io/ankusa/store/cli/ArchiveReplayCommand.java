package io.ankusa.store.cli;

import io.ankusa.store.archive.chronicle.ArchivedHook;
import io.ankusa.store.archive.chronicle.ChronicleArchiveReader;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.StoreCorruptionException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa-store archive replay ADIR [--from S] [--to S] [--limit N]}: prints the hooks of an
 * archive, one line each, in seq order, each archived seq once (the {@link ChronicleArchiveReader}
 * skips the repeats an at-least-once archiver leaves), then a count line.
 *
 * <p>Each line: {@code seq}, tenant ({@code default} for none), source id, hook id, {@code
 * receivedAt} (ISO-8601 UTC and epoch ms), sinks, payload bytes. Read-only: it never writes to
 * {@code ADIR} and may run while a sink appends. Exit codes: 0 replayed; 1 a record or an envelope
 * does not parse (the hooks before it are printed, then one line on stderr naming the record); 2
 * bad input (missing directory, not an archive, bad range or limit).
 */
@Command(
    name = "replay",
    description = "Print an archive's hooks in seq order, each archived seq once.")
final class ArchiveReplayCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "ADIR", description = "the archive directory")
  Path archiveDir;

  @Option(
      names = "--from",
      defaultValue = "1",
      description = "lowest seq to print (default: ${DEFAULT-VALUE})")
  long from;

  @Option(names = "--to", description = "highest seq to print, inclusive (default: no bound)")
  Long to;

  @Option(
      names = "--limit",
      description = "print at most this many hooks, at least 1 (default: no limit)")
  Long limit;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    long toSeq = to == null ? Long.MAX_VALUE : to;
    if (from < 1 || toSeq < from) {
      throw new IllegalArgumentException(
          "--from and --to must give 1 <= from <= to; got from "
              + from
              + ", to "
              + (to == null ? "(none)" : to));
    }
    if (limit != null && limit < 1) {
      throw new IllegalArgumentException("--limit must be at least 1, got " + limit);
    }
    long max = limit == null ? Long.MAX_VALUE : limit;
    PrintWriter out = spec.commandLine().getOut();
    long[] printed = {0};
    long[] lastSeq = {0};
    try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(archiveDir)) {
      try {
        reader.replay(
            from,
            toSeq,
            hook -> {
              if (printed[0] >= max) {
                throw StopReplay.INSTANCE;
              }
              out.println(line(hook));
              printed[0]++;
              lastSeq[0] = hook.seq();
            });
      } catch (StopReplay stop) {
        // --limit reached: the reader has no early exit, and reading on would only skip records
      } catch (StoreCorruptionException e) {
        out.flush();
        PrintWriter err = spec.commandLine().getErr();
        err.println(
            spec.qualifiedName()
                + ": "
                + reader.directory()
                + ": corrupt archive after "
                + printed[0]
                + " hooks (last good seq "
                + lastSeq[0]
                + "): "
                + e.getMessage().replace('\n', ' '));
        err.flush();
        return AnkusaStore.FOUND_PROBLEMS;
      }
      out.printf(
          "replayed %d hook%s from %s (seq %d..%s)%s%n",
          printed[0],
          printed[0] == 1 ? "" : "s",
          reader.directory(),
          from,
          to == null ? "end" : String.valueOf(toSeq),
          limit != null && printed[0] >= max ? ", stopped at --limit " + max : "");
      out.flush();
    }
    return 0;
  }

  /**
   * One archived hook as a line.
   *
   * @throws StoreCorruptionException if its envelope does not decode; the message names the seq
   */
  static String line(ArchivedHook hook) {
    HookEnvelope e;
    try {
      e = hook.decode();
    } catch (StoreCorruptionException ex) {
      throw new StoreCorruptionException(
          "archived hook seq "
              + hook.seq()
              + " ("
              + hook.envelope().length
              + " bytes): its envelope does not decode: "
              + ex.getMessage(),
          ex);
    }
    return String.format(
        "%d  tenant=%s  source=%s  hook=%s  receivedAt=%s (%d)  sinks=%s  payload=%d bytes",
        hook.seq(),
        e.tenantId() == null ? "default" : e.tenantId(),
        e.sourceId(),
        e.hookId(),
        Instant.ofEpochMilli(e.receivedAt()),
        e.receivedAt(),
        e.sinks().stream().map(String::valueOf).collect(Collectors.joining(",")),
        e.payload().length);
  }

  /** Ends a replay early at {@code --limit}: thrown from the consumer, caught around the replay. */
  private static final class StopReplay extends RuntimeException {
    private static final long serialVersionUID = 1L;
    static final StopReplay INSTANCE = new StopReplay();

    private StopReplay() {
      super("replay stopped at --limit", null, false, false);
    }
  }
}
