package io.ankusa.store.cli;

import io.ankusa.store.conformance.ConformanceRunner;
import io.ankusa.store.spi.StoreProvider;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ankusa-store conformance --backend NAME}: the suite against any backend on the classpath. */
@Command(name = "conformance", description = "Run the conformance suite against a backend and print a per-layer summary.")
final class ConformanceCommand implements Callable<Integer> {
  @Option(names = "--backend", defaultValue = "rocksdb", description = "rocksdb, lmdb, postgres, memory, or any backend on the classpath (default: ${DEFAULT-VALUE})")
  String backend;

  @Override
  public Integer call() throws UnsupportedEncodingException {
    StoreProvider.named(backend); // an unknown backend is bad input, said on this command's stderr
    List<String> args = new ArrayList<>(List.of("--backend", backend));
    PrintStream out = new PrintStream(System.out, true, "UTF-8");
    PrintStream err = new PrintStream(System.err, true, "UTF-8");
    return ConformanceRunner.run(args.toArray(String[]::new), out, err);
  }
}
