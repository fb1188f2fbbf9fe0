package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.conformance.ModelReplay;
import io.ankusa.store.conformance.ModelRound;
import io.ankusa.store.conformance.NamedOptions;
import io.ankusa.store.conformance.OpLog;
import io.ankusa.store.conformance.Perturbation;
import io.ankusa.store.conformance.queue.SuiteRun.Outcome;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
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
 * Op logs: the text form of the model property's rounds reads back as the same rounds, a bad line
 * is refused with its number, and a failing {@code modelBasedRandomBatches} leaves an op log whose
 * replay fails on the same backend and passes on an honest one.
 */
class OpLogTest {
  private static final List<ModelRound> ROUNDS =
      List.of(
          new ModelRound(
              List.of(
                  new Op.Put("plain", new byte[] {0x00}, new byte[0]),
                  new Op.Merge("counters", new byte[] {(byte) 0xff, 0x7f}, Long.MIN_VALUE)),
              false,
              new byte[0],
              new byte[] {(byte) 0x80},
              List.of(new byte[] {0x00}, new byte[] {(byte) 0xff, 0x7f})),
          new ModelRound(
              List.of(
                  new Op.DeleteRange("plain", new byte[] {0x00}, new byte[] {0x7f}),
                  new Op.Delete("counters", new byte[] {(byte) 0xff, 0x7f})),
              true,
              new byte[] {0x00},
              new byte[] {0x00},
              List.of(new byte[] {0x7f})));

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
  void theOptionSetAndThePerturbationsReadBack() {
    List<ModelRound> perturbed =
        List.of(
            ROUNDS.get(0).perturbedBy(Perturbation.FLUSH),
            ROUNDS.get(1),
            ROUNDS.get(0).perturbedBy(Perturbation.REOPEN),
            ROUNDS.get(1).perturbedBy(Perturbation.COMPACT));
    NamedOptions set =
        new NamedOptions(
            "tiny-buffer",
            io.ankusa.store.spi.StoreOptions.defaults()
                .with(WriteBufferMemoryFixture.FLUSH_EVERY, "2")
                .with("a.b", "x=y"));
    String text = OpLog.format(perturbed, set, "h");
    assertThat(text)
        .contains("options tiny-buffer a.b=x=y " + WriteBufferMemoryFixture.FLUSH_EVERY + "=2\n")
        .contains(" perturb=flush\n")
        .contains(" perturb=reopen\n")
        .contains(" perturb=compact\n");
    OpLog.Log back = OpLog.parseLog(text, "test");
    assertThat(back.optionSet()).isEqualTo(set);
    assertThat(back.rounds())
        .extracting(ModelRound::before)
        .containsExactly(
            Perturbation.FLUSH, Perturbation.NONE, Perturbation.REOPEN, Perturbation.COMPACT);
    assertThat(OpLog.format(back.rounds(), back.optionSet(), "h")).isEqualTo(text);

    OpLog.Log old = OpLog.parseLog(OpLog.format(ROUNDS, "a log written before option sets"), "old");
    assertThat(old.optionSet().name())
        .as("a log without an options line")
        .isEqualTo(NamedOptions.DEFAULT);
    assertThat(old.optionSet().options().properties()).isEmpty();
    assertThat(old.rounds()).extracting(ModelRound::before).containsOnly(Perturbation.NONE);

    assertThatThrownBy(() -> OpLog.parse(text.replace("perturb=flush", "perturb=shake"), "ops.txt"))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("ops.txt line 3")
        .hasMessageContaining("shake");
    assertThatThrownBy(() -> OpLog.parse(text + "options again\n", "ops.txt"))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("one 'options' line");
    assertThatThrownBy(
            () ->
                OpLog.format(
                    ROUNDS,
                    new NamedOptions(
                        "x", io.ankusa.store.spi.StoreOptions.defaults().with("k", "two words")),
                    "h"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be written to an op log");
  }

  /**
   * A flush mutant fails the model property only under the tiny-buffer option set (no
   * perturbation): the op log names that set, its replay under each of the fixture's sets passes
   * the default and fails the tiny buffer, and the two histories differ.
   */
  @Test
  void anOpLogRecordsItsOptionSetAndReplaysUnderEachSet() throws Exception {
    WriteBufferMemoryFixture.Defect defect =
        WriteBufferMemoryFixture.Defect.FLUSH_LOSES_MERGE_OPERANDS;
    OpLog.Log log =
        opLogOfAFailingRun(
            FlushMutantSuites.OptionSetsWithoutPerturbation.class,
            FlushMutantSuites.DEFECT_PROPERTY,
            defect.name());
    assertThat(log.optionSet().name()).isEqualTo(WriteBufferMemoryFixture.TINY_BUFFER);
    assertThat(log.optionSet().options().properties())
        .containsEntry(
            WriteBufferMemoryFixture.FLUSH_EVERY,
            Integer.toString(WriteBufferMemoryFixture.TINY_BUFFER_WRITES));

    List<ModelReplay.SetReplay> replays =
        ModelReplay.replayUnderEachOptionSet(
            new WriteBufferMemoryFixture(defect, true), log.rounds());
    assertThat(replays)
        .extracting(r -> r.set().name())
        .containsExactly(NamedOptions.DEFAULT, WriteBufferMemoryFixture.TINY_BUFFER);
    assertThat(replays.get(0).difference()).as("the default set passes the log").isNull();
    assertThat(replays.get(1).difference()).as("the tiny buffer fails it").isNotNull();
    assertThat(ModelReplay.firstDifference(replays.get(0).history(), replays.get(1).history()))
        .as("the histories of the two sets differ")
        .isNotNull();
    assertThat(ModelReplay.firstDifference(replays.get(0).history(), replays.get(0).history()))
        .isNull();
    assertThat(
            ModelReplay.replay(
                new ProviderFixture("memory").withOptions(log.optionSet()), log.rounds(), l -> {}))
        .as("the honest memory store passes it under the logged options")
        .isNull();

    String previous = System.setProperty(FlushMutantSuites.DEFECT_PROPERTY, defect.name());
    try {
      assertThatThrownBy(
              () ->
                  new FlushMutantSuites.OptionSetsWithoutPerturbation()
                      .modelBasedRandomBatches(log.optionSet(), log.rounds()))
          .as("the property's own failure says which sets fail and where their histories part")
          .hasMessageContaining("under option set tiny-buffer")
          .hasMessageContaining(
              "default passes, tiny-buffer fails; histories (default | tiny-buffer) first differ at line")
          .hasMessageContaining("op log: ");
    } finally {
      restore(FlushMutantSuites.DEFECT_PROPERTY, previous);
    }
  }

  /**
   * A mutant that breaks only across a flush leaves an op log whose shrunk steps keep the flush.
   */
  @Test
  void aPerturbationThatMattersStaysInTheShrunkOpLog() throws Exception {
    WriteBufferMemoryFixture.Defect defect =
        WriteBufferMemoryFixture.Defect.RANGE_DELETE_SPARES_FLUSHED_KEYS;
    List<ModelRound> rounds =
        opLogOfAFailingRun(
                FlushMutantSuites.DefaultOptionsPerturbed.class,
                FlushMutantSuites.DEFECT_PROPERTY,
                defect.name())
            .rounds();
    assertThat(rounds)
        .as("the shrunk sequence keeps a flush or a compaction")
        .anyMatch(r -> r.before() == Perturbation.FLUSH || r.before() == Perturbation.COMPACT);
    List<String> history = new ArrayList<>();
    assertThat(
            ModelReplay.replay(new WriteBufferMemoryFixture(defect, false), rounds, history::add))
        .isNotNull();
    assertThat(history).anyMatch(l -> l.startsWith("  perturb "));
    assertThat(ModelReplay.replay(new MemoryFixture(), rounds, l -> {}))
        .as("the honest memory store passes it")
        .isNull();
  }

  @Test
  void aBadLineIsRefusedWithItsNumber() {
    String text = OpLog.format(ROUNDS, "h").replace("merge counters ff7f", "merge counters zz");
    assertThatThrownBy(() -> OpLog.parse(text, "ops.txt"))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("ops.txt line 4");
    assertThatThrownBy(() -> OpLog.parse("put plain 00 01\n", "ops.txt"))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("before the first 'step'");
    assertThatThrownBy(
            () -> OpLog.parse("step snapshot=no scan=-..- probes=00\nput other 00 01\n", "ops.txt"))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("unknown family 'other'");
    assertThatThrownBy(() -> OpLog.parse("# only a comment\n", "ops.txt"))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("no 'step' line");
  }

  @Test
  void aBackendThatThrowsDuringAStepDiffersThere() {
    BackendFixture throwsOnSecondWrite =
        new WrappingFixture(
            "memory failing its second write",
            store ->
                new ForwardingStore(store) {
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
    assertThat(failure)
        .isNotNull()
        .hasMessageContaining("batch 1 (counting from 0)")
        .hasMessageContaining("refused by the test");
    assertThat(history).anyMatch(l -> l.startsWith("    THREW: "));
  }

  @Test
  void aFailingModelPropertyLeavesAnOpLogThatFailsAgainOnReplay() throws Exception {
    List<ModelRound> rounds =
        opLogOfAFailingRun(
                MutantSuites.MutantEngineSuite.class,
                MutantSuites.MUTANT_PROPERTY,
                Mutant.DROPS_EVERY_7TH_BATCH.name())
            .rounds();
    List<String> history = new ArrayList<>();
    AssertionError failure =
        ModelReplay.replay(Mutant.DROPS_EVERY_7TH_BATCH.fixture(), rounds, history::add);
    assertThat(failure).as("the replay fails on the mutant that failed the property").isNotNull();
    assertThat(history).anyMatch(l -> l.contains("DIFFERS"));
    assertThat(ModelReplay.replay(new MemoryFixture(), rounds, l -> {}))
        .as("the honest memory store passes it")
        .isNull();
  }

  /**
   * Runs {@code modelBasedRandomBatches} of {@code suite} with the system property {@code selector}
   * set to {@code value} and op logs written to a temporary directory; requires the property to
   * fail and leave exactly one op log, and returns it read back.
   */
  private static OpLog.Log opLogOfAFailingRun(Class<?> suite, String selector, String value)
      throws Exception {
    Path dir = Files.createTempDirectory("ankusa-oplog-test-");
    String previousDir = System.getProperty("ankusa.oplog.dir");
    String previousValue = System.getProperty(selector);
    System.setProperty("ankusa.oplog.dir", dir.toString());
    System.setProperty(selector, value);
    try {
      SuiteRun run = SuiteRun.runOnly(suite, "modelBasedRandomBatches", Map.of());
      assertThat(run.named(Outcome.FAILED)).containsExactly("modelBasedRandomBatches");
      List<Path> logs;
      try (var files = Files.list(dir)) {
        logs = files.toList();
      }
      assertThat(logs).hasSize(1);
      return OpLog.readLog(logs.get(0));
    } finally {
      restore("ankusa.oplog.dir", previousDir);
      restore(selector, previousValue);
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
