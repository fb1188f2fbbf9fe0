package io.ankusa.store.cli;

import static io.ankusa.store.cli.CommandRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
  @TempDir Path tmp;

  @Test
  void aShortDemoPrintsTheSummaryAndEndsWithACleanVerify() {
    CommandRun r =
        run(
            "demo",
            "--dir",
            tmp.resolve("data").toString(),
            "--seconds",
            "2",
            "--tenants",
            "20",
            "--producers",
            "2");
    assertThat(r.code()).as(r.err()).isEqualTo(0);
    assertThat(r.out())
        .contains("durable hooks/s")
        .contains("ack latency          p50")
        .contains("deliveries           ")
        .contains("top tenants by pending")
        .contains("top tenants by dead")
        .containsPattern("verify .*: clean")
        .as("the archive is off by default")
        .doesNotContain("  archive");
  }

  @Test
  void aSecondDemoOnTheSameDirectoryContinuesTheStore() {
    String dir = tmp.resolve("again").toString();
    assertThat(
            run("demo", "--dir", dir, "--seconds", "1", "--tenants", "5", "--producers", "1")
                .code())
        .isEqualTo(0);
    CommandRun second =
        run("demo", "--dir", dir, "--seconds", "1", "--tenants", "5", "--producers", "1");
    assertThat(second.code()).as(second.err()).isEqualTo(0);
    assertThat(second.out()).containsPattern("verify .*: clean");
  }

  @Test
  void badNumbersAreExitTwo() {
    assertThat(run("demo", "--dir", tmp.toString(), "--seconds", "0").code()).isEqualTo(2);
    assertThat(run("demo", "--dir", tmp.toString(), "--retry-rate", "1.5").code()).isEqualTo(2);
    assertThat(run("demo", "--dir", tmp.toString(), "--backend", "nosuch").code()).isEqualTo(2);
  }
}
