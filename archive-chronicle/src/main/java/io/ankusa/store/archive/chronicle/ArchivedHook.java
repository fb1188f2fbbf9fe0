package io.ankusa.store.archive.chronicle;

import io.ankusa.store.queue.internal.record.HookEnvelope;
import java.util.Arrays;

/**
 * One hook as the archive holds it: its seq and its envelope, the exact bytes of its {@code 'h'}
 * row when it was archived.
 *
 * @param seq the hook's seq (&gt; 0)
 * @param envelope the envelope bytes; owned by this record — a fresh array per record, do not
 *     change it
 */
public record ArchivedHook(long seq, byte[] envelope) {

  /**
   * The envelope decoded.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if the bytes are not a valid envelope
   */
  public HookEnvelope decode() {
    return HookEnvelope.decode(envelope);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArchivedHook
        && ((ArchivedHook) o).seq == seq
        && Arrays.equals(((ArchivedHook) o).envelope, envelope);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(seq) * 31 + Arrays.hashCode(envelope);
  }

  @Override
  public String toString() {
    return "ArchivedHook[seq=" + seq + ", envelope=" + envelope.length + " bytes]";
  }
}
