package io.ankusa.store.bench.sustain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sustained-throughput bench in a few seconds: a search on memory (the writer alone, the queue
 * flat out, one probe) and a fixed-rate run on rocksdb, each a second or two; the JSON holds every
 * field of the run, of each second and of the search, the text table and a chart per backend are
 * written.
 */
class SustainBenchTest {
  @Test
  void aShortSearchAndAShortRunWriteEveryField(@TempDir Path dir) throws Exception {
    SustainBench.Report search =
        SustainBench.run(
            SustainSettings.parse(
                "--backend",
                "memory",
                "--seconds",
                "1",
                "--probes",
                "1",
                "--tenants",
                "20",
                "--producers",
                "2",
                "--out",
                dir.resolve("search").toString()));
    assertThat(search.files())
        .extracting(p -> p.getFileName().toString())
        .containsExactlyInAnyOrder("sustain.txt", "sustain.json", "sustain-memory.png");
    String json = Files.readString(dir.resolve("search/sustain.json"));
    assertThat(json)
        .contains(
            "\"settings\"",
            "\"loadAverageBefore\"",
            "\"loadAverageAfter\"",
            "\"maxSustainable\"",
            "\"writerAloneHooksPerSecond\"",
            "\"maxSustainedHooksPerSecond\"",
            "\"ratioToWriterAlone\"",
            "\"runs\"");
    assertThat(json).contains("\"mode\": \"writer-only\"", "\"mode\": \"dispatch\"");
    for (String field :
        List.of(
            "backend",
            "targetHooksPerSecond",
            "ingestHooksPerSecond",
            "rowsPerHook",
            "deliveredRowsPerSecond",
            "reclaimedHooksPerSecond",
            "p99OldestDueMs",
            "maxPendingRows",
            "sustained",
            "cpuMillisByThread",
            "seconds",
            "second",
            "ingestHooks",
            "ingestRows",
            "deliveredRows",
            "reclaimedHooks",
            "pendingRows",
            "inflightRows",
            "oldestDueMs",
            "engine")) {
      assertThat(json).as("the field %s", field).contains("\"" + field + "\":");
    }
    assertThat(search.text()).contains("writer alone/s", "max sustained/s");

    SustainBench.Report run =
        SustainBench.run(
            SustainSettings.parse(
                "--backend",
                "rocksdb",
                "--rate",
                "300",
                "--seconds",
                "2",
                "--tenants",
                "20",
                "--producers",
                "2",
                "--out",
                dir.resolve("run").toString()));
    String rocks = Files.readString(dir.resolve("run/sustain.json"));
    assertThat(rocks)
        .as("rocksdb's own figures")
        .contains(
            "\"memtableBytes\":",
            "\"compactionDebtBytes\":",
            "\"iteratorKeysSkipped\":",
            "\"level0Files\":");
    assertThat(run.text()).contains("rocksdb  dispatch", "skip/seek");
  }

  @Test
  void badOptionsAreRefusedBeforeAnythingRuns() {
    assertThatThrownBy(() -> SustainSettings.parse("--seconds", "0"))
        .hasMessageContaining("--seconds");
    assertThatThrownBy(() -> SustainSettings.parse("--backend", "nosuch"))
        .hasMessageContaining("nosuch");
    assertThatThrownBy(() -> SustainSettings.parse("--rate", "fast"))
        .hasMessageContaining("--rate");
    assertThatThrownBy(() -> SustainSettings.parse("--rate")).hasMessageContaining("needs a value");
    assertThatThrownBy(() -> SustainSettings.parse("--frob", "1"))
        .hasMessageContaining("unknown option --frob");
  }
}
