package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The child JVMs of the durability and migration layers open their stores through the parent's
 * fixture: a fixture whose options carry a property, and whose provider writes the options it was
 * given next to the store directory, must see that property arrive in the child.
 */
class ChildJvmTest {
  private static final String MARKER = "recording.marker";
  private final Path work = createTempDirectory();

  /** A memory store that first writes the options it was opened with to {@code DIR.options}. */
  static final class OptionsRecordingProvider implements StoreProvider {
    @Override
    public String name() {
      return "options-recording";
    }

    @Override
    public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
      try {
        Files.writeString(
            dir.resolveSibling(dir.getFileName() + ".options"),
            options.properties().toString(),
            StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new MemoryStoreProvider().open(dir, StoreOptions.defaults(), families);
    }
  }

  /**
   * What a backend's own fixture looks like to the child: a no-arg constructor, options of its own.
   */
  static final class OptionsRecordingFixture implements BackendFixture {
    @Override
    public StoreProvider provider() {
      return new OptionsRecordingProvider();
    }

    @Override
    public StoreOptions options() {
      return StoreOptions.defaults().with(MARKER, "seen-by-the-child");
    }

    @Override
    public Capabilities capabilities() {
      return new MemoryFixture().capabilities();
    }
  }

  /** A fixture with an {@code open} of its own, which leaves a mark next to the store directory. */
  static final class OpenOverridingFixture implements BackendFixture {
    @Override
    public StoreProvider provider() {
      return new OptionsRecordingProvider();
    }

    @Override
    public Store open(Path dir, List<FamilySpec> families) {
      return provider()
          .open(dir, StoreOptions.defaults().with(MARKER, "from-the-fixture's-open"), families);
    }

    @Override
    public Capabilities capabilities() {
      return new MemoryFixture().capabilities();
    }
  }

  @AfterEach
  void deleteWork() {
    FileTrees.deleteRecursively(work);
  }

  @Test
  void theDurabilityChildOpensItsStoreThroughTheFixture() throws Exception {
    Path dir = work.resolve("store");
    Process child =
        ChildJvm.start(
            DurabilityChild.class,
            new OptionsRecordingFixture(),
            List.of(dir.toString(), work.resolve("acks").toString(), "1", "1"));
    assertThat(optionsSeenBy(child, dir)).contains(MARKER + "=seen-by-the-child");
  }

  @Test
  void theMigrationChildOpensItsStoreThroughTheFixture() throws Exception {
    Path dir = work.resolve("store");
    Process child =
        ChildJvm.start(
            MigrationChild.class,
            new OptionsRecordingFixture(),
            List.of(dir.toString(), "100000000", "10", work.resolve("progress").toString()));
    assertThat(optionsSeenBy(child, dir)).contains(MARKER + "=seen-by-the-child");
  }

  @Test
  void aFixturesOwnOpenIsCalledInTheChild() throws Exception {
    Path dir = work.resolve("store");
    Process child =
        ChildJvm.start(
            DurabilityChild.class,
            new OpenOverridingFixture(),
            List.of(dir.toString(), work.resolve("acks").toString(), "1", "1"));
    assertThat(optionsSeenBy(child, dir)).contains(MARKER + "=from-the-fixture's-open");
  }

  @Test
  void aFixtureTheChildCannotRecreateIsRefusedNamingWhatItNeeds() {
    BackendFixture anonymous =
        new BackendFixture() {
          @Override
          public StoreProvider provider() {
            return new OptionsRecordingProvider();
          }

          @Override
          public Capabilities capabilities() {
            return new MemoryFixture().capabilities();
          }
        };
    assertThatThrownBy(() -> ChildJvm.describe(anonymous))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-arg constructor");
    assertThat(ChildJvm.recreate(ChildJvm.describe(new ProviderFixture("memory"))).name())
        .isEqualTo("memory (generic fixture)");
  }

  /**
   * Waits up to a minute for the child to record its options, then kills it; returns what it
   * recorded.
   */
  private static String optionsSeenBy(Process child, Path dir) throws Exception {
    Path recorded = dir.resolveSibling(dir.getFileName() + ".options");
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (Files.notExists(recorded) && child.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      Thread.sleep(50); // the write that created the file may still be going on
    } finally {
      child.destroyForcibly();
      child.waitFor(60, TimeUnit.SECONDS);
    }
    assertThat(recorded).as("the child opened its store through the fixture's provider").exists();
    return Files.readString(recorded, StandardCharsets.UTF_8);
  }

  private static Path createTempDirectory() {
    try {
      return Files.createTempDirectory("ankusa-child-jvm-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
