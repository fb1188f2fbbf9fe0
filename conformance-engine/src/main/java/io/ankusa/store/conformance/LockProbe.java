package io.ankusa.store.conformance;

import io.ankusa.store.spi.FamilySpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Another process that tries to open a store directory when asked ({@link LockProbeChild}): how the
 * suite checks that a directory lock holds across processes. One child per case, started when the
 * probe is created (so its JVM boots while the case works) and ended by {@link #close()}.
 *
 * <p>Not thread-safe: one case drives it.
 */
final class LockProbe implements AutoCloseable {
  private static final long ANSWER_SECONDS = 120;
  private final Process child;
  private final BufferedReader answers;
  private final Writer commands;
  private boolean ready;

  private LockProbe(Process child) {
    this.child = child;
    this.answers =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    this.commands = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8);
  }

  /** Starts the child for the store {@code fixture} opens in {@code dir} with {@code families}. */
  static LockProbe start(BackendFixture fixture, Path dir, List<FamilySpec> families) {
    return new LockProbe(StoreChildProcess.start(LockProbeChild.class, fixture, dir, families));
  }

  /**
   * Asks the child to open the store: {@code "opened"} (it closed it again) or {@code "refused
   * <class>: <message>"}.
   */
  String tryOpen() {
    if (!ready) {
      String hello = answer();
      if (!"ready".equals(hello)) {
        throw new AssertionError("the lock probe process did not start: it said " + hello);
      }
      ready = true;
    }
    try {
      commands.write("open\n");
      commands.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("the lock probe process stopped listening", e);
    }
    return answer();
  }

  private String answer() {
    CompletableFuture<String> line =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return answers.readLine();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    try {
      String got = line.get(ANSWER_SECONDS, TimeUnit.SECONDS);
      return got == null ? "<the lock probe process exited>" : got;
    } catch (TimeoutException e) {
      child.destroyForcibly();
      throw new AssertionError(
          "the lock probe process did not answer within " + ANSWER_SECONDS + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted waiting for the lock probe process", e);
    } catch (ExecutionException e) {
      throw new AssertionError("cannot read the lock probe process's answer", e.getCause());
    }
  }

  /** Ends the child (closing its stdin ends it; it is killed if it lingers). */
  @Override
  public void close() {
    try {
      commands.close();
    } catch (IOException e) {
      // it is going anyway
    }
    try {
      if (!child.waitFor(30, TimeUnit.SECONDS)) {
        child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      child.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
