package io.ankusa.store.conformance;

import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The other process of {@link LockProbe}: it loads the backend, prints {@code ready}, then for each
 * line {@code open} read from stdin tries to open the store and answers one line — {@code opened}
 * (and closes the store at once) or {@code refused <exception class>: <message>}. It exits when
 * stdin closes.
 *
 * <p>Arguments: those of {@link StoreChildProcess}. The protocol is its standard output, so it
 * prints there and nothing else.
 */
public final class LockProbeChild {
  private LockProbeChild() {}

  public static void main(String[] args) throws Exception {
    StoreChildProcess.Target target = StoreChildProcess.Target.parse(args);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    out.println("ready");
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      if (!line.equals("open")) {
        out.println("unknown command '" + line + "'");
        continue;
      }
      try (Store store = target.open()) {
        out.println("opened");
      } catch (StoreException e) {
        out.println(
            "refused "
                + e.getClass().getSimpleName()
                + ": "
                + String.valueOf(e.getMessage()).replace('\n', ' '));
      } catch (RuntimeException e) {
        out.println("failed " + e);
      }
    }
  }
}
