package io.ankusa.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The command-line launcher: exit codes, the per-layer summary, skip reasons and failures. */
class ConformanceRunnerTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return ConformanceRunner.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void memoryPassesAndTheSummaryPrintsEveryUnverifiedPromise() {
    assertThat(run("--backend", "memory", "--tries", "5")).as(out()).isZero();
    assertThat(out()).contains("layer engine").contains("failed   0").contains("RESULT: PASSED")
        .contains("UNVERIFIED scanNeverEndsEarlyOnCorruption: memory (generic fixture) does not claim detectsDamage;"
            + " its fixture cannot damage the store's data: memory (generic fixture) keeps no files")
        .contains("UNVERIFIED secondOpenThroughSymlinkIsRefused: memory (generic fixture) does not claim filesInDirectory")
        .doesNotContain("skipped ");
    assertThat(err()).isEmpty();
  }

  @Test
  void aBrokenBackendFailsWithItsProperties() {
    assertThat(run("--backend=" + MutantStoreProvider.NAME, "--tries=5")).as(out()).isEqualTo(1);
    assertThat(out()).contains("RESULT: FAILED").contains("FAILED  batchOpsApplyInOrder: ");
  }

  @Test
  void anUnknownBackendIsABadArgumentNamingTheAvailableOnes() {
    assertThat(run("--backend", "nosuch")).isEqualTo(2);
    assertThat(err()).contains("'nosuch'").contains("memory").hasLineCount(1);
    assertThat(out()).isEmpty();
  }

  @Test
  void unknownArgumentsAndBadTriesAreBadArguments() {
    assertThat(run("--frobnicate")).isEqualTo(2);
    assertThat(run("--backend")).isEqualTo(2);
    assertThat(run("--backend", "memory", "--tries", "0")).isEqualTo(2);
    assertThat(err()).contains("usage").contains("--tries");
  }
}
