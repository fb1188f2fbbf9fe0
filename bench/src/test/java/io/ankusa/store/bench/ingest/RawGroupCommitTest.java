package io.ankusa.store.bench.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.bench.RocksDbOptionsFile;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DedupeValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The raw baseline does the writer's work: the same requests through {@link WriterTarget} and
 * {@link RawGroupCommit} leave the same rows, byte for byte, so writer/raw compares equal work.
 */
class RawGroupCommitTest {
  private static final long AT = 1_700_000_123_456L;

  @ParameterizedTest(name = "raw reads like the backend: {0}")
  @ValueSource(booleans = {false, true})
  void rawBaselineWritesWhatTheWriterWrites(boolean readLikeBackend, @TempDir Path dir)
      throws Exception {
    List<IngestRequest> requests = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String key = "k" + i;
      byte[] payload = new byte[64 + i % 7];
      payload[0] = (byte) i;
      requests.add(
          new IngestRequest(
              "tenant-" + (i % 5), "bench", key, key, AT + (i / 40) * 1000L, List.of(1), payload));
    }
    Path writerDir = dir.resolve("writer");
    Path rawDir = dir.resolve("raw");
    // Two opens each: the second one's tenants must keep the ordinals of the first.
    ingest(() -> WriterTarget.open(writerDir, WriterConfig.defaults()), requests.subList(0, 150));
    ingest(() -> WriterTarget.open(writerDir, WriterConfig.defaults()), requests.subList(150, 300));
    ingest(() -> RawGroupCommit.open(rawDir, readLikeBackend), requests.subList(0, 150));
    ingest(() -> RawGroupCommit.open(rawDir, readLikeBackend), requests.subList(150, 300));

    try (Store writer = BenchStores.open("rocksdb", writerDir, Format3.families());
        Store raw = BenchStores.open("rocksdb", rawDir, Format3.families())) {
      for (KeyFamily f :
          List.of(
              KeyFamily.HOOK,
              KeyFamily.DELIVERY,
              KeyFamily.TENANT_BY_ORD,
              KeyFamily.ORD_BY_TENANT,
              KeyFamily.DUE,
              KeyFamily.ACTIVE,
              KeyFamily.DEDUPE)) {
        Map<String, String> w = rows(writer, f);
        assertThat(rows(raw, f)).as("family %s", f).isEqualTo(w).isNotEmpty();
      }
      assertThat(rows(raw, KeyFamily.EXPIRY))
          .hasSameSizeAs(rows(writer, KeyFamily.EXPIRY))
          .hasSize(300);
      for (byte[] meta : List.of(Keys.lastSeq(), Keys.nextOrd())) {
        assertThat(Bytes.hex(raw.get(Format3.DEFAULT, meta)))
            .isEqualTo(Bytes.hex(writer.get(Format3.DEFAULT, meta)));
      }
      for (long ord = 0; ord <= 5; ord++) {
        for (CounterField field : List.of(CounterField.PENDING, CounterField.BYTES)) {
          byte[] key = Keys.counter(ord, field);
          assertThat(raw.counter(Format3.COUNTERS, key))
              .as("counter %d %s", ord, field)
              .isEqualTo(writer.counter(Format3.COUNTERS, key));
        }
      }
      assertThat(raw.counter(Format3.COUNTERS, Keys.counter(0, CounterField.PENDING)))
          .isEqualTo(300);
    }
  }

  /**
   * The backend-like read finds exactly the stored idempotency keys, a few or more than a hundred
   * at a time: absent keys null, present ones their stored value.
   */
  @Test
  void theBackendLikeReadFindsExactlyTheStoredKeys(@TempDir Path dir) throws Exception {
    List<IngestRequest> requests = new ArrayList<>();
    for (int i = 0; i < 140; i++) {
      requests.add(
          new IngestRequest(
              "tenant-" + (i % 3), "bench", "k" + i, "k" + i, AT, List.of(1), new byte[16]));
    }
    try (RawGroupCommit raw = RawGroupCommit.open(dir, true)) {
      List<CompletableFuture<?>> futures = new ArrayList<>();
      for (IngestRequest r : requests) {
        futures.add(raw.submit(r));
      }
      for (CompletableFuture<?> f : futures) {
        assertThat(IngestTarget.stored(f.get())).isTrue();
      }
      for (int stored : List.of(3, 130)) { // 3 + 2 absent = 5 keys, 130 + 2 = 132 keys
        List<byte[]> keys = new ArrayList<>();
        List<Boolean> present = new ArrayList<>();
        for (int i = 0; i < stored; i++) {
          keys.add(
              Keys.dedupe(
                  TenantId.of("tenant-" + (i % 3)), ("k" + i).getBytes(StandardCharsets.UTF_8)));
          present.add(true);
          if (i == 1 || i == stored - 1) {
            keys.add(
                Keys.dedupe(
                    TenantId.of("tenant-0"), ("absent" + i).getBytes(StandardCharsets.UTF_8)));
            present.add(false);
          }
        }
        List<byte[]> found = raw.readKeysLikeBackend(keys);
        assertThat(found).hasSameSizeAs(keys);
        for (int i = 0; i < keys.size(); i++) {
          if (present.get(i)) {
            assertThat(found.get(i)).as("stored key %d of %d", i, keys.size()).isNotNull();
            assertThat(DedupeValue.decodeAt(keys.get(i), found.get(i)).seq()).isPositive();
          } else {
            assertThat(found.get(i)).as("absent key %d of %d", i, keys.size()).isNull();
          }
        }
      }
    }
  }

  private interface Opener {
    IngestTarget open();
  }

  private static void ingest(Opener opener, List<IngestRequest> requests) throws Exception {
    try (IngestTarget target = opener.open()) {
      List<CompletableFuture<?>> futures = new ArrayList<>();
      for (IngestRequest r : requests) {
        futures.add(target.submit(r));
      }
      for (CompletableFuture<?> f : futures) {
        assertThat(IngestTarget.stored(f.get())).isTrue();
      }
    }
  }

  private static Map<String, String> rows(Store store, KeyFamily family) {
    KeyRange range = Keys.realKeysOf(family);
    Map<String, String> out = new LinkedHashMap<>();
    try (Scan scan = store.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        Entry e = scan.next();
        out.put(Bytes.hex(e.key()), Bytes.hex(e.value()));
      }
    }
    return out;
  }

  /**
   * The raw ingest baseline opens every family with the options the backend gives it (see {@code
   * EngineTargetTest.rawRocksOpensRocksDbWithTheBackendsOptions}).
   */
  @Test
  void rawBaselineOpensRocksDbWithTheBackendsOptions(@TempDir Path dir) throws Exception {
    WriterTarget.open(dir.resolve("writer"), WriterConfig.defaults()).close();
    RawGroupCommit.open(dir.resolve("raw")).close();
    RocksDbOptionsFile.assertOpenedAlike(
        dir.resolve("writer"), dir.resolve("raw"), Format3.COUNTERS);
  }
}
