package io.ankusa.store.queue.internal.maintenance;

import io.ankusa.store.layout.DeadByTenantKey;
import io.ankusa.store.layout.DeliveryKey;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.index.DeadLetters;
import io.ankusa.store.queue.internal.index.DueIndex;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.DueRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Durability;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Purging one tenant's due and/or dead rows, in chunks of {@value #CHUNK} rows per SYNC batch.
 * Never touches inflight rows (a dispatcher owns them). Idempotent and resumable: an interrupted
 * purge is finished by calling it again; a purged row is simply no longer found.
 *
 * <p>Each chunk of due rows is read from the last row of the previous one (included: it is gone
 * unless another transition moved it in place), so a purge never walks the tombstones of its own
 * chunks. A due row another writer puts behind that point while the purge runs (an older {@code
 * at}) is left due; purge again to remove it.
 *
 * <p>Safe beside a running dispatcher, replay and archiver: each chunk is read, then written
 * through {@link DeliveryQueue#write}, which re-reads every row of the chunk under the tenant's
 * lock stripe and purges only the rows still where the scan found them. A row claimed or revived in
 * between is left to its new owner and not counted as purged.
 */
public final class Purge {
  /** Rows per batch. */
  public static final int CHUNK = 500;

  private static final Logger LOG = LoggerFactory.getLogger(Purge.class);

  /** What to purge. */
  public enum Kind {
    /** Due rows, pending (kind 0) and scheduled (kind 1). */
    DUE,
    /** Dead rows. */
    DEAD
  }

  private Purge() {}

  /** Purges {@code tenant}'s rows of {@code kinds}; returns how many rows were removed. */
  public static long purgeTenant(DeliveryQueue queue, TenantId tenant, EnumSet<Kind> kinds) {
    OptionalLong ord = Tenants.ord(queue.store(), tenant);
    if (ord.isEmpty()) {
      return 0;
    }
    long purged = 0;
    if (kinds.contains(Kind.DUE)) {
      DueKey from = null;
      while (true) {
        List<DueRow> chunk =
            DueIndex.pendingForTenantFrom(queue.store(), ord.getAsLong(), from, CHUNK);
        if (chunk.isEmpty()) {
          break;
        }
        Transition t = new Transition();
        chunk.forEach(row -> Deliveries.purgeDue(t, row));
        purged += chunk.size() - queue.write(t, Durability.SYNC);
        from = chunk.get(chunk.size() - 1).key();
      }
    }
    if (kinds.contains(Kind.DEAD)) {
      while (true) {
        List<DeadByTenantKey> chunk =
            DeadLetters.deadForTenant(queue.store(), ord.getAsLong(), CHUNK);
        if (chunk.isEmpty()) {
          break;
        }
        List<byte[]> rowKeys = new ArrayList<>(chunk.size());
        chunk.forEach(k -> rowKeys.add(Keys.delivery(k.seq(), k.sink())));
        List<byte[]> rows = queue.store().multiGet(Format3.DELIVERIES, rowKeys);
        Transition t = new Transition();
        for (int i = 0; i < chunk.size(); i++) {
          byte[] row = rows.get(i);
          long size = 0;
          if (row == null) {
            LOG.warn(
                "purge of tenant {}: dead row {} has no delivery row; purging it with size 0",
                tenant.value(),
                DeliveryKey.decode(rowKeys.get(i)));
          } else {
            size = DeliveryRow.decodeAt(rowKeys.get(i), row).size();
          }
          Deliveries.purgeDead(t, chunk.get(i), size);
        }
        purged += chunk.size() - queue.write(t, Durability.SYNC);
      }
    }
    return purged;
  }
}
