package io.ankusa.store.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny gate run end to end on the memory backend: cells measured, verdicts, JSON and PNG written. */
class GateRunTest {
  @TempDir
  Path dir;

  private static final GateSettings TINY = new GateSettings(20, 2, 0, 500, 1, 0, 0, false);

  @Test
  void aTinyRunMeasuresEveryCellForEveryProbeAndWritesJsonAndAChart() throws Exception {
    List<GateCell> cells = List.of(
        new GateCell("rows", 200, 20, 8), new GateCell("rows", 2_000, 20, 8), new GateCell("tenants", 200, 10, 8));
    List<TickProbe> probes = List.of(new TickProbe.GaugeTick(), TickProbe.DispatchTick.DEFAULT);
    GateResults results = new GateRun(GateMode.QUICK, cells, List.of("memory"), probes, dir.resolve("work"), TINY).run();

    for (TickProbe p : probes) {
      List<CellResult> measured = results.cells(p.bench(), "memory");
      assertThat(measured).hasSize(cells.size());
      assertThat(measured).allSatisfy(c -> {
        assertThat(c.rounds()).hasSize(TINY.rounds());
        assertThat(c.rounds()).allSatisfy(r -> assertThat(r.ticks()).isEqualTo(TINY.ticksPerRound()));
        assertThat(c.valueMs()).isPositive();
        assertThat(c.foldMs()).isPositive();
        assertThat(c.valueMs()).isEqualTo(c.rounds().stream().mapToDouble(RoundStats::p10Ms).min().orElseThrow());
      });
    }
    assertThat(results.verdicts()).containsOnlyKeys("gauges_bench/memory", "dispatch_tick_bench/memory");

    List<Path> files = GateReport.write(results, dir.resolve("out"));
    assertThat(files).extracting(f -> f.getFileName().toString()).containsExactly(
        "gauges_bench.json", "gauges_bench.png", "dispatch_tick_bench.json", "dispatch_tick_bench.png");
    String json = Files.readString(dir.resolve("out/gauges_bench.json"));
    assertThat(json).contains("\"bench\": \"gauges_bench\"", "\"backend\": \"memory\"", "\"valueMs\"", "\"foldMs\"");
    assertThat(json).contains("\"rounds\"", "\"ticks\": " + TINY.ticksPerRound(), "\"p10Ms\"", "\"p50Ms\"", "\"p99Ms\"",
        "\"maxMs\"");
    byte[] png = Files.readAllBytes(dir.resolve("out/gauges_bench.png"));
    assertThat(png).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    List<String> table = GateReport.table(results);
    assertThat(table.get(0)).contains("bench", "backend", "cell", "p10 ms", "allowed ms", "pass");
    assertThat(table).filteredOn(l -> l.startsWith("gauges_bench") && l.contains("rows: 2000 rows, 20 tenants"))
        .hasSize(1);
    assertThat(table).filteredOn(l -> l.contains("memory") && !l.contains("verdict")).hasSize(2 * cells.size());
    assertThat(table).filteredOn(l -> l.contains("verdict (slowest)")).hasSize(2);
    assertThat(table.get(table.size() - 1)).isEqualTo("gate " + (results.pass() ? "PASS" : "FAIL"));
    assertThat(Files.exists(dir.resolve("work"))).isTrue();
    try (var left = Files.list(dir.resolve("work"))) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aShardedAggregateRunMeasuresTheGaugeOnAShardedQueue() {
    List<GateCell> cells = List.of(new GateCell("rows", 200, 20, 8));
    List<TickProbe> probes = List.of(new TickProbe.GaugeTick());
    GateResults results = new GateRun(GateMode.QUICK, cells, List.of("memory"), probes, dir.resolve("work"),
        TINY.withShardedAggregate(true)).run();
    assertThat(results.cells("gauges_bench", "memory")).singleElement()
        .satisfies(c -> assertThat(c.valueMs()).isPositive());
  }

  @Test
  void badArgumentsExitWithTwo() {
    assertThat(BenchGate.run("--aggregate", "striped")).isEqualTo(2);
    assertThat(BenchGate.run("--mode", "huge")).isEqualTo(2);
    assertThat(BenchGate.run("--backend", "cassandra")).isEqualTo(2);
    assertThat(BenchGate.run("--frobnicate")).isEqualTo(2);
    assertThatThrownBy(() -> BenchGate.parse(new String[] {"--bench", "ticks"}, "all"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--bench must be gauges, dispatch or all");
    assertThat(BenchGate.parse(new String[] {"--mode", "full", "--out", "o"}, "gauges").probes()).hasSize(1);
  }
}
