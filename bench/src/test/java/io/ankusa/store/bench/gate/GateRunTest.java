package io.ankusa.store.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny gate run end to end on the memory backend: cells measured, verdicts, JSON and PNG written.
 */
class GateRunTest {
  @TempDir Path dir;

  private static final GateSettings TINY = new GateSettings(20, 2, 0, 500, 1, 0, 0, false);

  @Test
  void aTinyRunMeasuresEveryCellForEveryProbeAndWritesJsonAndAChart() throws Exception {
    List<GateCell> cells =
        List.of(
            new GateCell("rows", 200, 20, 8),
            new GateCell("rows", 2_000, 20, 8),
            new GateCell("tenants", 200, 10, 8));
    List<TickProbe> probes = List.of(new TickProbe.GaugeTick(), TickProbe.DispatchTick.DEFAULT);
    GateResults results =
        new GateRun(GateMode.QUICK, cells, List.of("memory"), probes, dir.resolve("work"), TINY)
            .run();

    for (TickProbe p : probes) {
      List<CellResult> measured = results.cells(p.bench(), "memory");
      assertThat(measured).hasSize(cells.size());
      assertThat(measured)
          .allSatisfy(
              c -> {
                assertThat(c.rounds()).hasSize(TINY.rounds());
                assertThat(c.rounds())
                    .allSatisfy(r -> assertThat(r.ticks()).isEqualTo(TINY.ticksPerRound()));
                assertThat(c.valueMs()).isPositive();
                assertThat(c.foldMs()).isPositive();
                assertThat(c.valueMs())
                    .isEqualTo(
                        c.rounds().stream().mapToDouble(RoundStats::p10Ms).min().orElseThrow());
              });
    }
    assertThat(results.verdicts())
        .containsOnlyKeys("gauges_bench/memory", "dispatch_tick_bench/memory");

    List<Path> files = GateReport.write(results, dir.resolve("out"));
    assertThat(files)
        .extracting(f -> f.getFileName().toString())
        .containsExactly(
            "gauges_bench.json",
            "gauges_bench.png",
            "dispatch_tick_bench.json",
            "dispatch_tick_bench.png");
    String json = Files.readString(dir.resolve("out/gauges_bench.json"));
    assertThat(json)
        .contains(
            "\"bench\": \"gauges_bench\"", "\"backend\": \"memory\"", "\"valueMs\"", "\"foldMs\"");
    assertThat(json)
        .contains(
            "\"rounds\"",
            "\"ticks\": " + TINY.ticksPerRound(),
            "\"p10Ms\"",
            "\"p50Ms\"",
            "\"p99Ms\"",
            "\"maxMs\"");
    byte[] png = Files.readAllBytes(dir.resolve("out/gauges_bench.png"));
    assertThat(png).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    List<String> table = GateReport.table(results);
    assertThat(table.get(0)).contains("bench", "backend", "cell", "p10 ms", "allowed ms", "pass");
    assertThat(table)
        .filteredOn(l -> l.startsWith("gauges_bench") && l.contains("rows: 2000 rows, 20 tenants"))
        .hasSize(1);
    assertThat(table)
        .filteredOn(l -> l.contains("memory") && !l.contains("verdict"))
        .hasSize(2 * cells.size());
    assertThat(table).filteredOn(l -> l.contains("verdict (slowest)")).hasSize(2);
    assertThat(table.get(table.size() - 1)).isEqualTo("gate " + (results.pass() ? "PASS" : "FAIL"));
    assertThat(Files.exists(dir.resolve("work"))).isTrue();
    try (var left = Files.list(dir.resolve("work"))) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void anIngestCellRacesARealWriterAndReportsTheRateItKept() throws Exception {
    GateCell quiet = new GateCell("rows", 200, 20, 8);
    GateCell ingest = GateCell.ingest(200, 20, 8, 2_000);
    List<TickProbe> probes = List.of(new TickProbe.GaugeTick(), TickProbe.DispatchTick.DEFAULT);
    GateResults results =
        new GateRun(
                GateMode.QUICK,
                List.of(quiet, ingest),
                List.of("memory"),
                probes,
                dir.resolve("work"),
                TINY)
            .run();

    assertThat(results.cells("gauges_bench", "memory"))
        .as("the gauge tick does not race the writer")
        .extracting(CellResult::cell)
        .containsExactly(quiet);
    List<CellResult> dispatch = results.cells("dispatch_tick_bench", "memory");
    assertThat(dispatch).extracting(CellResult::cell).containsExactly(quiet, ingest);
    assertThat(dispatch.get(0).writer()).isNull();
    CellResult race = dispatch.get(1);
    assertThat(race.rounds())
        .hasSize(TINY.rounds())
        .allSatisfy(r -> assertThat(r.ticks()).isBetween(1, TINY.ticksPerRound()));
    assertThat(race.valueMs()).isPositive();
    assertThat(race.rowsPerTick())
        .as("only ticks that claimed a row are counted")
        .isGreaterThanOrEqualTo(1);
    CellResult.WriterRace writer = race.writer();
    assertThat(writer.targetHooksPerSecond()).isEqualTo(2_000);
    assertThat(writer.hooksPerSecond()).isPositive();
    assertThat(writer.rowsPerSecond()).isGreaterThanOrEqualTo(writer.hooksPerSecond());
    assertThat(writer.claimedRowsPerSecond()).isPositive();
    assertThat(writer.emptyTicks()).hasSize(TINY.rounds());
    assertThat(race.writerConditions())
        .isEqualTo(new GateRule.WriterConditions(writer.hooksFraction(), writer.claimedFraction()));

    GateReport.write(results, dir.resolve("out"));
    String json = Files.readString(dir.resolve("out/dispatch_tick_bench.json"));
    assertThat(json).contains("\"axis\": \"ingest\"", "\"ingestCell\":");
    for (String field :
        List.of(
            "writer",
            "targetHooksPerSecond",
            "hooksPerSecond",
            "hooksFraction",
            "rowsPerSecond",
            "claimedRowsPerSecond",
            "claimedFraction",
            "refused",
            "emptyTicks")) {
      assertThat(json).as("the field %s", field).contains("\"" + field + "\":");
    }
    assertThat(Files.readString(dir.resolve("out/gauges_bench.json")))
        .doesNotContain("\"ingest\"", "\"writer\"");
    List<String> table = GateReport.table(results);
    assertThat(table.get(0)).contains("ingest/s");
    assertThat(table)
        .filteredOn(
            l ->
                l.startsWith("dispatch_tick_bench")
                    && l.contains("ingest: 200 rows, 20 tenants, writer at 2000/s"))
        .singleElement()
        .satisfies(l -> assertThat(l).endsWith(String.format("%9.0f", writer.hooksPerSecond())));
  }

  @Test
  void anIngestCellIsSkippedWhenNoProbeRacesTheWriter() {
    List<GateCell> cells = List.of(GateCell.ingest(200, 20, 8, 2_000));
    GateResults results =
        new GateRun(
                GateMode.QUICK,
                cells,
                List.of("memory"),
                List.of(new TickProbe.GaugeTick()),
                dir.resolve("work"),
                TINY)
            .run();
    assertThat(results.cells("gauges_bench")).isEmpty();
  }

  @Test
  void aShardedAggregateRunMeasuresTheGaugeOnAShardedQueue() {
    List<GateCell> cells = List.of(new GateCell("rows", 200, 20, 8));
    List<TickProbe> probes = List.of(new TickProbe.GaugeTick());
    GateResults results =
        new GateRun(
                GateMode.QUICK,
                cells,
                List.of("memory"),
                probes,
                dir.resolve("work"),
                TINY.withShardedAggregate(true))
            .run();
    assertThat(results.cells("gauges_bench", "memory"))
        .singleElement()
        .satisfies(c -> assertThat(c.valueMs()).isPositive());
  }

  @Test
  void badArgumentsExitWithTwo() {
    assertThat(BenchGate.run("--aggregate", "striped")).isEqualTo(2);
    assertThat(BenchGate.run("--mode", "huge")).isEqualTo(2);
    assertThat(BenchGate.run("--backend", "cassandra")).isEqualTo(2);
    assertThat(BenchGate.run("--frobnicate")).isEqualTo(2);
    assertThatThrownBy(() -> BenchGate.parse(new String[] {"--bench", "ticks"}, "all"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--bench must be gauges, dispatch or all");
    assertThat(BenchGate.parse(new String[] {"--mode", "full", "--out", "o"}, "gauges").probes())
        .hasSize(1);
    assertThat(BenchGate.run("--ingest-rate", "fast")).isEqualTo(2);
    assertThat(BenchGate.run("--ingest-rate", "-1")).isEqualTo(2);
    assertThat(BenchGate.run("--ingest-rate")).isEqualTo(2);
  }

  @Test
  void theIngestRateSetsTheIngestCellAndZeroLeavesItOut() {
    List<GateCell> cells = BenchGate.parse(new String[0], "all").cells();
    assertThat(cells).hasSize(GateMode.QUICK.cells().size() + 1);
    assertThat(cells.get(cells.size() - 1))
        .isEqualTo(
            GateCell.ingest(
                10_000,
                GateMode.INGEST_TENANTS,
                GateMode.ACTIVE_TENANTS,
                GateMode.DEFAULT_INGEST_PER_SECOND));
    assertThat(BenchGate.parse(new String[] {"--ingest-rate", "3000"}, "all").cells())
        .filteredOn(GateCell::besideWriter)
        .extracting(GateCell::ingestPerSecond)
        .containsExactly(3_000);
    assertThat(BenchGate.parse(new String[] {"--ingest-rate", "0"}, "all").cells())
        .isEqualTo(GateMode.QUICK.cells())
        .noneMatch(GateCell::besideWriter);
  }
}
