package io.ankusa.store.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The chunk buffer and end-of-range rule every chunked engine scan inherits. */
class ChunkedScanTest {

  /** Serves {@code total} entries, then stops on an error if {@code failAt} is reached first. */
  private static final class ScriptedScan extends ChunkedScan {
    final List<Integer> asked = new ArrayList<>();
    final int total;
    final int failAt;
    int served;
    boolean closed;

    ScriptedScan(int total, int failAt) {
      super("f");
      this.total = total;
      this.failAt = failAt;
    }

    @Override
    protected int readChunk(Entry[] into) {
      asked.add(into.length);
      int n = 0;
      while (n < into.length && served < total) {
        if (served == failAt) {
          stoppedOn(new StoreCorruptionException("damage at entry " + served));
          return n;
        }
        into[n++] = new Entry(new byte[] {(byte) served}, new byte[0]);
        served++;
      }
      return n;
    }

    @Override
    protected void checkOpen() {
      if (closed) {
        throw new StoreClosedException("scan of family 'f' is closed");
      }
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  @Property(tries = 200)
  void everyEntryIsReturnedOnceInOrderThenTheEnd(@ForAll @IntRange(max = 2_000) int total) {
    ScriptedScan scan = new ScriptedScan(total, -1);
    int seen = 0;
    while (scan.hasNext()) {
      assertThat(scan.next().key()).containsExactly((byte) seen);
      seen++;
    }
    assertThat(seen).isEqualTo(total);
    assertThat(scan.hasNext()).as("the end is stable").isFalse();
    assertThatThrownBy(scan::next)
        .isInstanceOf(NoSuchElementException.class)
        .hasMessageContaining("'f'");
  }

  @Property(tries = 200)
  void anErrorIsThrownAfterTheEntriesBeforeItAndThenForever(
      @ForAll @IntRange(max = 2_000) int failAt) {
    ScriptedScan scan = new ScriptedScan(failAt + 10, failAt);
    for (int i = 0; i < failAt; i++) {
      assertThat(scan.hasNext()).as("entry %d, before the damage", i).isTrue();
      scan.next();
    }
    assertThatThrownBy(scan::hasNext)
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessage("damage at entry " + failAt);
    assertThatThrownBy(scan::hasNext)
        .as("never read as the end later")
        .isInstanceOf(StoreCorruptionException.class);
    assertThatThrownBy(scan::next).isInstanceOf(StoreCorruptionException.class);
  }

  @Test
  void anErrorAtAChunkBoundaryIsNotReadAsTheEnd() {
    // The first chunk holds 8 entries; the damage is the first entry of the second.
    ScriptedScan scan = new ScriptedScan(100, ChunkedScan.FIRST_CHUNK);
    for (int i = 0; i < ChunkedScan.FIRST_CHUNK; i++) {
      scan.next();
    }
    assertThatThrownBy(scan::hasNext).isInstanceOf(StoreCorruptionException.class);
  }

  @Test
  void chunksDoubleUpToTheLimitAndNoChunkIsReadAfterAShortOne() {
    ScriptedScan scan = new ScriptedScan(3_000, -1);
    scan.forEachRemaining(e -> {});
    assertThat(scan.asked)
        .startsWith(8, 16, 32, 64, 128, 256, 256)
        .allMatch(n -> n <= ChunkedScan.MAX_CHUNK);
    // 8+16+32+64+128 = 248, then 256-entry chunks: 11 full ones reach 3 064 > 3 000, so the 11th is
    // short.
    assertThat(scan.asked).hasSize(5 + 11);
    assertThat(scan.hasNext()).isFalse();
    assertThat(scan.asked).as("no read after the short chunk").hasSize(16);
  }

  @Test
  void aClosedScanRefusesEvenWithEntriesBuffered() {
    ScriptedScan scan = new ScriptedScan(5, -1);
    assertThat(scan.hasNext()).isTrue();
    scan.close();
    assertThatThrownBy(scan::hasNext).isInstanceOf(StoreClosedException.class);
    assertThatThrownBy(scan::next).isInstanceOf(StoreClosedException.class);
  }
}
