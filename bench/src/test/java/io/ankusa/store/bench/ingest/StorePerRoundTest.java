package io.ankusa.store.bench.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * By default each round of the ingest bench opens a new, empty store, so a round and its pair start
 * from the same state; {@code --grow} keeps one store per target from round to round, and the table
 * says which of the two a run did.
 */
class StorePerRoundTest {
  @TempDir
  Path tmp;

  @Test
  void byDefaultARoundsStoreDirectoryIsEmptiedBeforeItOpens() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("writer-8x10"));
    Files.writeString(dir.resolve("000012.sst"), "an earlier round's file");
    WriterIngestBench.Settings s = WriterIngestBench.parse(new String[0]);
    assertThat(s.growStores()).isFalse();

    assertThat(WriterIngestBench.emptiedUnless(s.growStores(), dir)).isEqualTo(dir);
    assertThat(dir).doesNotExist();
    assertThat(WriterIngestBench.table(s, List.of())).contains("each on a new store");
  }

  @Test
  void withGrowTheStoreOfTheRoundsBeforeIsKept() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("raw-8x10"));
    Files.writeString(dir.resolve("000012.sst"), "an earlier round's file");
    WriterIngestBench.Settings s = WriterIngestBench.parse(new String[] {"--grow", "--rounds", "3"});
    assertThat(s.growStores()).isTrue();
    assertThat(s.rounds()).isEqualTo(3);

    WriterIngestBench.emptiedUnless(s.growStores(), dir);
    assertThat(dir.resolve("000012.sst")).hasContent("an earlier round's file");
    assertThat(WriterIngestBench.table(s, List.of())).contains("one store per target kept from round to round");
  }
}
