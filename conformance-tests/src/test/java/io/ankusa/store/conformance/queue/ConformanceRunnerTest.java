package io.ankusa.store.conformance.queue;

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
    return ConformanceRunner.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
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
    assertThat(out())
        .contains("layer engine")
        .contains("failed   0")
        .contains("RESULT: PASSED")
        .contains(
            "UNVERIFIED scanNeverEndsEarlyOnCorruption: memory (generic fixture) does not claim detectsDamage;"
                + " its fixture cannot damage the store's data: memory (generic fixture) does not damage files in the"
                + " launcher's JVM")
        .contains(
            "UNVERIFIED secondOpenThroughSymlinkIsRefused: memory (generic fixture) does not claim filesInDirectory")
        .doesNotContain("skipped ");
    assertThat(err()).isEmpty();
  }

  /**
   * The engine layer only: the broken store drops ops, so the queue layers above it would each wait
   * out their liveness bounds (two minutes in all) to say what the engine layer already says.
   */
  @Test
  void aBrokenBackendFailsWithItsProperties() {
    assertThat(run("--backend=" + MutantStoreProvider.NAME, "--tries=5", "--layer=engine"))
        .as(out())
        .isEqualTo(1);
    assertThat(out()).contains("RESULT: FAILED").contains("FAILED  batchOpsApplyInOrder: ");
  }

  /**
   * {@code --option} reaches every store the generic fixture opens: the memory backend refuses an
   * option of its own it does not know, so each case fails naming it. The replay command repeats
   * the option, and the run leaves no system property behind.
   */
  @Test
  void anOptionReachesEveryStoreTheGenericFixtureOpens() {
    assertThat(
            run(
                "--backend",
                "memory",
                "--option",
                "memory.noSuchSetting=1",
                "--tries",
                "3",
                "--layer",
                "engine",
                "--only",
                "keysCompareAsUnsignedBytes"))
        .as(out())
        .isEqualTo(1);
    assertThat(out())
        .contains("FAILED  keysCompareAsUnsignedBytes: ")
        .contains("memory.noSuchSetting")
        .contains("replay: conformance --backend memory --option memory.noSuchSetting=1 ");
    assertThat(System.getProperty(ProviderFixture.OPTION_PREFIX + "memory.noSuchSetting"))
        .as("restored after the run")
        .isNull();
  }

  @Test
  void anOptionThatIsNotKeyEqualsValueIsABadArgument() {
    assertThat(run("--backend", "memory", "--option", "postgres.url")).isEqualTo(2);
    assertThat(err()).contains("--option takes KEY=VALUE").hasLineCount(1);
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

  @Test
  void aFailurePrintsAReplayCommandThatFailsTheSameCaseAgain() {
    assertThat(
            run(
                "--backend",
                MutantStoreProvider.NAME,
                "--tries",
                "5",
                "--layer",
                "engine",
                "--only",
                "batchOpsApplyInOrder"))
        .as(out())
        .isEqualTo(1);
    String replay =
        out()
            .lines()
            .filter(l -> l.strip().startsWith("replay: "))
            .findFirst()
            .orElseThrow()
            .strip();
    assertThat(replay)
        .matches(
            "replay: conformance --backend "
                + MutantStoreProvider.NAME
                + " --tries 5 --layer engine --only batchOpsApplyInOrder --seed -?[0-9]+");
    String seed = replay.substring(replay.lastIndexOf(' ') + 1);
    out.reset();

    String[] again = replay.substring("replay: conformance ".length()).split(" ");
    assertThat(run(again)).as(out()).isEqualTo(1);
    assertThat(out())
        .contains("seed " + seed)
        .contains("cases run   1")
        .contains("FAILED  batchOpsApplyInOrder: ")
        .contains("--seed " + seed);
  }

  @Test
  void onlyRunsTheLayersHoldingTheSelectedCases() {
    assertThat(
            run(
                "--backend",
                "memory",
                "--tries",
                "3",
                "--only",
                "DispatchConformance#everyBackloggedTenantGetsItsWeightedShare"))
        .as(out())
        .isZero();
    assertThat(out())
        .contains("layer dispatch   cases run   1   passed   1")
        .doesNotContain("layer engine");
  }

  @Test
  void aFixtureClassRunsInsteadOfTheGenericFixture() {
    assertThat(
            run("--fixture", MemoryFixture.class.getName(), "--layer", "dispatch", "--tries", "3"))
        .as(out())
        .isZero();
    assertThat(out()).contains("backend memory,").contains("layer dispatch");
  }

  @Test
  void selectionsLayersAndJarsThatNameNothingAreBadArguments() {
    assertThat(run("--backend", "memory", "--only", "noSuchCase")).isEqualTo(2);
    assertThat(run("--backend", "memory", "--layer", "nosuch")).isEqualTo(2);
    assertThat(run("--backend", "memory", "--jar", "/nonexistent/ankusa.jar")).isEqualTo(2);
    assertThat(run("--backend", "memory", "--seed", "x")).isEqualTo(2);
    assertThat(run("--fixture", "no.such.Fixture")).isEqualTo(2);
    assertThat(err())
        .contains("selects no case")
        .contains("no layer named 'nosuch'")
        .contains("does not exist")
        .contains("--seed must be a whole number")
        .contains("--fixture no.such.Fixture")
        .hasLineCount(5);
    assertThat(out()).isEmpty();
  }
}
