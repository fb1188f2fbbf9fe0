package io.ankusa.store.bench.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * By default each target of the ingest bench keeps one store for the whole cell, so a round starts
 * from what the earlier rounds left; {@code --store-per-round} opens a new, empty store for every
 * round, and the table says which of the two a run did.
 */
class StorePerRoundTest {
  @TempDir Path tmp;

  @Test
  void byDefaultTheStoreOfTheRoundsBeforeIsKept() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("raw-8x10"));
    Files.writeString(dir.resolve("000012.sst"), "an earlier round's file");
    WriterIngestBench.Settings s = WriterIngestBench.parse(new String[0]);
    assertThat(s.storePerRound()).isFalse();

    assertThat(WriterIngestBench.emptiedIf(s.storePerRound(), dir)).isEqualTo(dir);
    assertThat(dir.resolve("000012.sst")).hasContent("an earlier round's file");
    assertThat(WriterIngestBench.table(s, List.of()))
        .contains("one store per target kept from round to round");
  }

  @Test
  void withStorePerRoundARoundsStoreDirectoryIsEmptiedBeforeItOpens() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("writer-8x10"));
    Files.writeString(dir.resolve("000012.sst"), "an earlier round's file");
    WriterIngestBench.Settings s =
        WriterIngestBench.parse(new String[] {"--store-per-round", "--rounds", "3"});
    assertThat(s.storePerRound()).isTrue();
    assertThat(s.rounds()).isEqualTo(3);

    assertThat(WriterIngestBench.emptiedIf(s.storePerRound(), dir)).isEqualTo(dir);
    assertThat(dir).doesNotExist();
    assertThat(WriterIngestBench.table(s, List.of())).contains("each on a new store");
  }
}
