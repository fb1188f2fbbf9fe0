package io.ankusa.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.SuiteRun.Outcome;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FileTrees;
import io.ankusa.store.spi.ForwardingStore;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Op logs: the text form of the model property's rounds reads back as the same rounds, a bad line is
 * refused with its number, and a failing {@code modelBasedRandomBatches} leaves an op log whose replay
 * fails on the same backend and passes on an honest one.
 */
class OpLogTest {
  private static final List<ModelRound> ROUNDS = List.of(
      new ModelRound(List.of(new Op.Put("plain", new byte[] {0x00}, new byte[0]),
          new Op.Merge("counters", new byte[] {(byte) 0xff, 0x7f}, Long.MIN_VALUE)), false,
          new byte[0], new byte[] {(byte) 0x80}, List.of(new byte[] {0x00}, new byte[] {(byte) 0xff, 0x7f})),
      new ModelRound(List.of(new Op.DeleteRange("plain", new byte[] {0x00}, new byte[] {0x7f}),
          new Op.Delete("counters", new byte[] {(byte) 0xff, 0x7f})), true,
          new byte[] {0x00}, new byte[] {0x00}, List.of(new byte[] {0x7f})));

  @Test
  void formatThenParseGivesTheSameRounds() {
    String text = OpLog.format(ROUNDS, "a header\nof two lines");
    List<ModelRound> back = OpLog.parse(text, "test");
    assertThat(OpLog.format(back, "a header\nof two lines")).isEqualTo(text);
    assertThat(back).hasSize(2);
    assertThat(back.get(1).underSnapshot()).isTrue();
    assertThat(back.get(0).ops().get(1)).hasToString(ROUNDS.get(0).ops().get(1).toString());
  }

  @Test
  void aBadLineIsRefusedWithItsNumber() {
    String text = OpLog.format(ROUNDS, "h").replace("merge counters ff7f", "merge counters zz");
    assertThatThrownBy(() -> OpLog.parse(text, "ops.txt"))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("ops.txt line 4");
    assertThatThrownBy(() -> OpLog.parse("put plain 00 01\n", "ops.txt"))
        .isInstanceOf(StoreArgumentException.class).hasMessageContaining("before the first 'step'");
    assertThatThrownBy(() -> OpLog.parse("step snapshot=no scan=-..- probes=00\nput other 00 01\n", "ops.txt"))
        .isInstanceOf(StoreArgumentException.class).hasMessageContaining("unknown family 'other'");
    assertThatThrownBy(() -> OpLog.parse("# only a comment\n", "ops.txt"))
        .isInstanceOf(StoreArgumentException.class).hasMessageContaining("no 'step' line");
  }

  @Test
  void aBackendThatThrowsDuringAStepDiffersThere() {
    BackendFixture throwsOnSecondWrite = new WrappingFixture("memory failing its second write", store -> new ForwardingStore(store) {
      private int writes;

      @Override
      public void write(Batch batch, Durability durability) {
        if (++writes == 2) {
          throw new StoreWriteFailedException("refused by the test");
        }
        super.write(batch, durability);
      }
    });
    List<String> history = new ArrayList<>();
    AssertionError failure = ModelReplay.replay(throwsOnSecondWrite, ROUNDS, history::add);
    assertThat(failure).isNotNull().hasMessageContaining("batch 1 (counting from 0)").hasMessageContaining("refused by the test");
    assertThat(history).anyMatch(l -> l.startsWith("    THREW: "));
  }

  @Test
  void aFailingModelPropertyLeavesAnOpLogThatFailsAgainOnReplay() throws Exception {
    Path dir = Files.createTempDirectory("ankusa-oplog-test-");
    String previousDir = System.getProperty("ankusa.oplog.dir");
    String previousMutant = System.getProperty(MutantSuites.MUTANT_PROPERTY);
    System.setProperty("ankusa.oplog.dir", dir.toString());
    System.setProperty(MutantSuites.MUTANT_PROPERTY, Mutant.DROPS_EVERY_7TH_BATCH.name());
    try {
      SuiteRun run = SuiteRun.runOnly(MutantSuites.MutantEngineSuite.class, "modelBasedRandomBatches", Map.of());
      assertThat(run.named(Outcome.FAILED)).containsExactly("modelBasedRandomBatches");
      List<Path> logs;
      try (var files = Files.list(dir)) {
        logs = files.toList();
      }
      assertThat(logs).hasSize(1);
      List<ModelRound> rounds = OpLog.read(logs.get(0));
      List<String> history = new ArrayList<>();
      AssertionError failure = ModelReplay.replay(Mutant.DROPS_EVERY_7TH_BATCH.fixture(), rounds, history::add);
      assertThat(failure).as("the replay fails on the mutant that failed the property").isNotNull();
      assertThat(history).anyMatch(l -> l.contains("DIFFERS"));
      assertThat(ModelReplay.replay(new MemoryFixture(), rounds, l -> {})).as("the honest memory store passes it").isNull();
    } finally {
      restore("ankusa.oplog.dir", previousDir);
      restore(MutantSuites.MUTANT_PROPERTY, previousMutant);
      FileTrees.deleteRecursively(dir);
    }
  }

  private static void restore(String property, String previous) {
    if (previous == null) {
      System.clearProperty(property);
    } else {
      System.setProperty(property, previous);
    }
  }
}
