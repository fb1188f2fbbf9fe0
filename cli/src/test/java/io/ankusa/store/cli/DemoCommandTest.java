package io.ankusa.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
  @TempDir Path tmp;

  private static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = AnkusaStore.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new String[] {String.valueOf(code), out.toString(), err.toString()};
  }

  @Test
  void aShortDemoPrintsTheSummaryAndEndsWithACleanVerify() {
    String[] r = run("demo", "--dir", tmp.resolve("data").toString(), "--seconds", "2", "--tenants", "20",
        "--producers", "2");
    assertThat(r[0]).as(r[2]).isEqualTo("0");
    assertThat(r[1])
        .contains("durable hooks/s")
        .contains("ack latency          p50")
        .contains("syncs")
        .contains("top tenants by pending")
        .contains("top tenants by dead")
        .containsPattern("verify .*: clean")
        .as("the archive is off by default").doesNotContain("  archive");
  }

  @Test
  void aSecondDemoOnTheSameDirectoryContinuesTheStore() {
    String dir = tmp.resolve("again").toString();
    assertThat(run("demo", "--dir", dir, "--seconds", "1", "--tenants", "5", "--producers", "1")[0]).isEqualTo("0");
    String[] second = run("demo", "--dir", dir, "--seconds", "1", "--tenants", "5", "--producers", "1");
    assertThat(second[0]).as(second[2]).isEqualTo("0");
    assertThat(second[1]).containsPattern("verify .*: clean");
  }

  @Test
  void badNumbersAreExitTwo() {
    assertThat(run("demo", "--dir", tmp.toString(), "--seconds", "0")[0]).isEqualTo("2");
    assertThat(run("demo", "--dir", tmp.toString(), "--retry-rate", "1.5")[0]).isEqualTo("2");
    assertThat(run("demo", "--dir", tmp.toString(), "--backend", "nosuch")[0]).isEqualTo("2");
  }
}
