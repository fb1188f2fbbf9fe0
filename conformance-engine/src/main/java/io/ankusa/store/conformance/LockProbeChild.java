package io.ankusa.store.conformance;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The other process of {@link LockProbe}: it loads the backend, prints {@code ready}, then for each
 * line {@code open} read from stdin tries to open the store and answers one line — {@code opened}
 * (and closes the store at once) or {@code refused <exception class>: <message>}. It exits when stdin
 * closes.
 *
 * <p>Arguments: {@code provider dir families [key=value …]}; {@code families} is a comma-separated list
 * of names, a name ending in {@code +} being a counters family. The protocol is its standard output,
 * so it prints there and nothing else.
 */
public final class LockProbeChild {
  private LockProbeChild() {}

  public static void main(String[] args) throws Exception {
    StoreProvider provider = StoreProvider.named(args[0]);
    Path dir = Path.of(args[1]);
    List<FamilySpec> families = new ArrayList<>();
    for (String f : args[2].split(",")) {
      families.add(f.endsWith("+") ? FamilySpec.counters(f.substring(0, f.length() - 1), 0) : FamilySpec.plain(f));
    }
    StoreOptions options = StoreOptions.defaults();
    for (int i = 3; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      options = options.with(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    out.println("ready");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      if (!line.equals("open")) {
        out.println("unknown command '" + line + "'");
        continue;
      }
      try (Store store = provider.open(dir, options, families)) {
        out.println("opened");
      } catch (StoreException e) {
        out.println("refused " + e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).replace('\n', ' '));
      } catch (RuntimeException e) {
        out.println("failed " + e);
      }
    }
  }
}
