package io.ankusa.store.queue;

import io.ankusa.store.layout.DeadByTenantKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.index.DeadLetters;
import io.ankusa.store.queue.internal.maintenance.Purge;
import io.ankusa.store.queue.internal.record.DeadRow;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The dead-letter queue of a {@link WebhookQueue}: deliveries given up, newest first, across every
 * tenant or for one; revive them (due again now, as first attempts) or purge them. Each revive and
 * purge acts only on a letter still dead as read, through the queue's transition guard, and is
 * durable when it returns. Thread-safe.
 */
public final class DeadLetterQueue {
  /** The most letters one page holds. */
  public static final int MAX_PAGE = 10_000;

  private final DeliveryQueue queue;
  private final LongSupplier clock;

  DeadLetterQueue(DeliveryQueue queue, LongSupplier clock) {
    this.queue = queue;
    this.clock = clock;
  }

  /**
   * The newest {@code limit} dead letters of every tenant: one scan of the dead-letter index, one
   * read of their delivery rows, one of each tenant's name.
   *
   * @throws StoreArgumentException for a limit outside 1 .. {@value #MAX_PAGE}
   */
  public DeadLetterPage newest(int limit) {
    return read(null, null, limit);
  }

  /**
   * The newest {@code limit} dead letters of {@code tenant} (its id as ingested; "default" for
   * none).
   */
  public DeadLetterPage newest(String tenant, int limit) {
    Objects.requireNonNull(tenant, "tenant");
    return read(tenant, null, limit);
  }

  /** The page that follows the one {@code after} came with, for the same tenant or all. */
  public DeadLetterPage next(DeadLetterPage.Cursor after, int limit) {
    Objects.requireNonNull(after, "after");
    return read(after.tenant(), after.before(), limit);
  }

  private DeadLetterPage read(String tenant, byte[] before, int limit) {
    if (limit < 1 || limit > MAX_PAGE) {
      throw new StoreArgumentException(
          "a dead-letter page holds 1.." + MAX_PAGE + " letters, not " + limit);
    }
    DeadLetters.DeadPage page =
        DeadLetters.deadPage(
            queue.store(), before, limit, tenant == null ? null : TenantId.of(tenant));
    List<byte[]> rowKeys = new ArrayList<>(page.rows().size());
    page.rows().forEach(r -> rowKeys.add(Keys.delivery(r.key().seq(), r.key().sink())));
    List<byte[]> rows = queue.store().multiGet(Format3.DELIVERIES, rowKeys);
    Map<Long, String> names = new HashMap<>();
    List<DeadLetter> letters = new ArrayList<>(page.rows().size());
    for (int i = 0; i < page.rows().size(); i++) {
      DeadRow dead = page.rows().get(i);
      byte[] row = rows.get(i);
      DeliveryRow state = row == null ? null : DeliveryRow.decodeAt(rowKeys.get(i), row);
      String name =
          names.computeIfAbsent(
              dead.ord(), ord -> Tenants.name(queue.store(), ord).map(TenantId::value).orElse("?"));
      letters.add(
          new DeadLetter(
              dead,
              name,
              state == null ? 0 : state.attempts(),
              state == null ? "" : state.lastError(),
              state == null ? 0 : state.size()));
    }
    return new DeadLetterPage(
        letters, page.next() == null ? null : new DeadLetterPage.Cursor(tenant, page.next()));
  }

  /**
   * Revives {@code letter}: due again now, as a first attempt. False when it was no longer dead as
   * read.
   */
  public boolean revive(DeadLetter letter) {
    return revive(List.of(letter)) == 1;
  }

  /** Revives every letter of {@code letters} still dead as read, in one batch; returns how many. */
  public int revive(Collection<DeadLetter> letters) {
    if (letters.isEmpty()) {
      return 0;
    }
    Transition t = new Transition();
    long now = clock.getAsLong();
    for (DeadLetter letter : letters) {
      Deliveries.revive(
          t,
          letter.row(),
          new DeliveryRow(letter.attempts(), now, letter.lastError(), letter.payloadSize()),
          now);
    }
    return letters.size() - queue.write(t, Durability.SYNC);
  }

  /**
   * Purges {@code letter}: it goes with its delivery row. False when it was no longer dead as read.
   */
  public boolean purge(DeadLetter letter) {
    DeadRow row = letter.row();
    Transition t = new Transition();
    Deliveries.purgeDead(
        t,
        new DeadByTenantKey(row.ord(), row.key().at(), row.key().seq(), row.key().sink()),
        letter.payloadSize());
    return queue.write(t, Durability.SYNC) == 0;
  }

  /** Purges every dead letter of {@code tenant}; returns how many. */
  public long purge(String tenant) {
    Objects.requireNonNull(tenant, "tenant");
    return Purge.purgeTenant(queue, TenantId.of(tenant), EnumSet.of(Purge.Kind.DEAD));
  }
}
