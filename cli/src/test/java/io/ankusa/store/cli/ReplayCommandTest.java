package io.ankusa.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ankusa-store replay}: the per-step history, its verdict, and bad input. */
class ReplayCommandTest {
  private static final String OPS =
      String.join(
          "\n",
          "# two steps",
          "step snapshot=no scan=-..ff probes=00,7f",
          "put plain 00 ab",
          "merge counters 7f 5",
          "step snapshot=yes scan=00..80 probes=7f",
          "deleteRange plain 00 01",
          "merge counters 7f -7",
          "");

  @TempDir Path tmp;

  @Test
  void printsThePerStepHistoryAndAgreesOnAnHonestBackend() throws Exception {
    Path ops = Files.writeString(tmp.resolve("ops.txt"), OPS);
    CommandRun rocks = CommandRun.run("replay", "--backend", "rocksdb", ops.toString());
    assertThat(rocks.code()).as(rocks.err()).isZero();
    assertThat(rocks.out())
        .contains(
            "step 0 (NO_SYNC)",
            "  put plain 00 ab",
            "  plain: [00=ab]",
            "  counters: [7f=0500000000000000]",
            "  counters: [7f=feffffffffffffff]",
            "step 1 (SYNC, snapshot before the batch)",
            "RESULT: rocksdb agrees with the model at every step");
    CommandRun memory = CommandRun.run("replay", "--backend", "memory", ops.toString());
    assertThat(memory.code()).isZero();
    assertThat(memory.out().lines().skip(1).filter(l -> !l.startsWith("RESULT")).toList())
        .as("the histories of two backends diff clean")
        .isEqualTo(rocks.out().lines().skip(1).filter(l -> !l.startsWith("RESULT")).toList());
  }

  /**
   * A log written under an option set with a reopen between steps: the store opens under the logged
   * options (an unknown rocksdb option would be refused, so they reach the provider) and is
   * reopened before the second step, keeping every value.
   */
  @Test
  void opensUnderTheLoggedOptionsAndReplaysTheReopen() throws Exception {
    String logged =
        OPS.replace("# two steps\n", "# two steps\noptions folding rocksdb.maxSuccessiveMerges=2\n")
            .replace(
                "step snapshot=yes scan=00..80 probes=7f",
                "step snapshot=yes scan=00..80 probes=7f perturb=reopen");
    Path ops = Files.writeString(tmp.resolve("ops.txt"), logged);
    CommandRun rocks = CommandRun.run("replay", "--backend", "rocksdb", ops.toString());
    assertThat(rocks.code()).as(rocks.err()).isZero();
    assertThat(rocks.out())
        .contains(
            "under option set folding {rocksdb.maxSuccessiveMerges=2}",
            "  perturb reopen",
            "  counters: [7f=feffffffffffffff]",
            "RESULT: rocksdb agrees with the model at every step");
    Path typo =
        Files.writeString(
            tmp.resolve("typo.txt"), logged.replace("maxSuccessiveMerges", "maxSuccesiveMerges"));
    CommandRun refused = CommandRun.run("replay", "--backend", "rocksdb", typo.toString());
    assertThat(refused.code())
        .as("the logged options reach the provider: a typo is refused")
        .isEqualTo(2);
    assertThat(refused.err()).contains("rocksdb.maxSuccesiveMerges");
  }

  @Test
  void badInputIsRefusedWithExitTwo() throws Exception {
    Path bad =
        Files.writeString(
            tmp.resolve("bad.txt"), OPS.replace("merge counters 7f 5", "merge counters 7f five"));
    CommandRun run = CommandRun.run("replay", "--backend", "memory", bad.toString());
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).contains("line 4");
    assertThat(
            CommandRun.run("replay", "--backend", "memory", tmp.resolve("missing.txt").toString())
                .code())
        .isEqualTo(2);
    assertThat(CommandRun.run("replay", "--backend", "nonesuch", bad.toString()).code())
        .isEqualTo(2);
  }

  @Test
  void helpWorks() {
    CommandRun run = CommandRun.run("replay", "--help");
    assertThat(run.code()).isZero();
    assertThat(run.out()).contains("--backend", "OPS_FILE");
  }
}
