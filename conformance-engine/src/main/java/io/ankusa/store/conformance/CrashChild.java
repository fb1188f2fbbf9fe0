package io.ankusa.store.conformance;

import io.ankusa.store.spi.Store;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.LockSupport;

/**
 * The process {@link CrashKill} kills: it opens the store, runs {@link CrashScript} up to its
 * {@link KillPoint} (the system property {@value #POINT_PROPERTY}; default {@link
 * KillPoint#INSIDE_BIG_BATCH}) and prints every event as a line {@code event n} on its standard
 * output, after the call it acknowledges returned. At {@link KillPoint#AFTER_SYNC_WRITE} and {@link
 * KillPoint#BETWEEN_SYNC_WALS} it then prints {@code halt 0} and waits to be killed; at the other
 * two it writes group commits, or big batch after big batch, until it is killed. A failure is
 * printed as {@code failed <exception>} and ends the process.
 *
 * <p>Arguments: those of {@link StoreChildProcess}. The protocol is its standard output, so it
 * prints there and nothing else.
 */
public final class CrashChild {
  /** Big batches written at most, should the kill never come (the parent gives up long before). */
  private static final int MAX_BIG_BATCHES = 200;

  /** The system property naming the child's {@link KillPoint}. */
  static final String POINT_PROPERTY = "ankusa.crash.point";

  private CrashChild() {}

  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try {
      Store store =
          StoreChildProcess.Target.parse(args).open(); // never closed: the parent kills us
      CrashScript script = new CrashScript(store.capabilities().maxValueBytes());
      CrashScript.Log log = (event, n) -> out.println(event + " " + n);
      KillPoint point =
          KillPoint.valueOf(System.getProperty(POINT_PROPERTY, KillPoint.INSIDE_BIG_BATCH.name()));
      script.writeUpTo(store, log, point);
      switch (point) {
        case AFTER_SYNC_WRITE, BETWEEN_SYNC_WALS -> log.said("halt", 0);
        case INSIDE_GROUP_COMMIT -> script.writeGroups(store, log, Integer.MAX_VALUE);
        case INSIDE_BIG_BATCH -> {
          for (int g = 0; g < MAX_BIG_BATCHES; g++) {
            script.writeBig(store, g, log);
          }
        }
      }
      LockSupport.park();
    } catch (Throwable e) {
      out.println("failed " + String.valueOf(e).replace('\n', ' '));
      System.exit(1);
    }
  }
}
