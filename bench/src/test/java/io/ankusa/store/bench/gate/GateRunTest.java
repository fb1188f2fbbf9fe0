package io.ankusa.store.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny gate run end to end on the memory backend: cells measured, verdicts, JSON and PNG written. */
class GateRunTest {
  @TempDir
  Path dir;

  private static final GateSettings TINY = new GateSettings(20, 2, 0, 500, 1, 0, false);

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
    byte[] png = Files.readAllBytes(dir.resolve("out/gauges_bench.png"));
    assertThat(png).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
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
  }
}
